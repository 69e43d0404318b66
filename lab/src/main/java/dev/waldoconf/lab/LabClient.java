package dev.waldoconf.lab;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.snmp4j.CommunityTarget;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.Snmp;
import org.snmp4j.Target;
import org.snmp4j.UserTarget;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.MPv1;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * A small SNMP manager for talking to lab switches from Java (tests, the benchmark, tools):
 * GET, SET and walk over v2c or v3 authPriv.
 */
public final class LabClient implements AutoCloseable {
    private static final int BULK_REPETITIONS = 32;
    /** Error-status names of RFC 3416 §3, by value. */
    private static final List<String> ERROR_NAMES = List.of("noError", "tooBig", "noSuchName", "badValue",
            "readOnly", "genErr", "noAccess", "wrongType", "wrongLength", "wrongEncoding", "wrongValue", "noCreation",
            "inconsistentValue", "resourceUnavailable", "commitFailed", "undoFailed", "authorizationError",
            "notWritable", "inconsistentName");

    private final Snmp snmp;
    private final Target<UdpAddress> target;
    private final boolean v3;

    /** The answer to a request. */
    public record Response(int errorStatus, int errorIndex, List<VariableBinding> bindings) {
        /** Whether the agent answered noError. */
        public boolean isOk() {
            return errorStatus == SnmpConstants.SNMP_ERROR_SUCCESS;
        }

        /** The RFC 3416 name of the error status, e.g. {@code inconsistentValue}. */
        public String errorName() {
            return errorStatus >= 0 && errorStatus < ERROR_NAMES.size() ? ERROR_NAMES.get(errorStatus)
                    : "error(" + errorStatus + ")";
        }
    }

    private LabClient(Snmp snmp, Target<UdpAddress> target, boolean v3) {
        this.snmp = snmp;
        this.target = target;
        this.v3 = v3;
    }

    /** A v2c client using {@code community}; a request is sent once more after a timeout. */
    public static LabClient v2c(InetSocketAddress agent, String community, int timeoutMs) throws IOException {
        return v2c(agent, community, timeoutMs, 1);
    }

    /** A v2c client using {@code community} that sends a request {@code retries} more times after timeouts. */
    public static LabClient v2c(InetSocketAddress agent, String community, int timeoutMs, int retries)
            throws IOException {
        CommunityTarget<UdpAddress> target = new CommunityTarget<>(udp(agent), new OctetString(community));
        target.setVersion(SnmpConstants.version2c);
        configure(target, timeoutMs);
        target.setRetries(retries);
        return new LabClient(open(null), target, false);
    }

    /** A v3 authPriv client for {@code user}. */
    public static LabClient v3(InetSocketAddress agent, UsmUserSpec user, int timeoutMs) throws IOException {
        USM usm = new USM(new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.maxCompatibility),
                new OctetString(MPv3.createLocalEngineID()), 0);
        usm.addUser(user.toUsmUser());
        UserTarget<UdpAddress> target = new UserTarget<>(udp(agent), new OctetString(user.name()),
                new byte[0], SecurityLevel.AUTH_PRIV);
        configure(target, timeoutMs);
        return new LabClient(open(usm), target, true);
    }

    private static Snmp open(USM usm) throws IOException {
        MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv1());
        dispatcher.addMessageProcessingModel(new MPv2c());
        dispatcher.addMessageProcessingModel(usm == null ? new MPv3() : new MPv3(usm));
        Snmp snmp = new Snmp(dispatcher, new DefaultUdpTransportMapping(new UdpAddress("127.0.0.1/0")));
        snmp.listen();
        return snmp;
    }

    private static void configure(Target<UdpAddress> target, int timeoutMs) {
        target.setTimeout(timeoutMs);
        target.setRetries(1);
    }

    private static UdpAddress udp(InetSocketAddress address) {
        return new UdpAddress(address.getAddress(), address.getPort());
    }

    /** GETs the given instances. */
    public Response get(OID... oids) throws IOException {
        PDU pdu = newPdu(PDU.GET);
        for (OID oid : oids) {
            pdu.add(new VariableBinding(oid));
        }
        return send(pdu);
    }

    /** SETs the given bindings in one PDU. */
    public Response set(VariableBinding... bindings) throws IOException {
        PDU pdu = newPdu(PDU.SET);
        pdu.addAll(bindings);
        return send(pdu);
    }

    /** Every instance under {@code root}, in order, fetched with GETBULK. */
    public List<VariableBinding> walk(OID root) throws IOException {
        List<VariableBinding> result = new ArrayList<>();
        OID cursor = root;
        while (true) {
            PDU pdu = newPdu(PDU.GETBULK);
            pdu.setMaxRepetitions(BULK_REPETITIONS);
            pdu.add(new VariableBinding(cursor));
            Response response = send(pdu);
            if (!response.isOk()) {
                throw new IOException("walk of " + root + " failed at " + cursor + ": " + response.errorName());
            }
            for (VariableBinding vb : response.bindings()) {
                if (vb.isException() || !vb.getOid().startsWith(root)) {
                    return result;
                }
                result.add(vb);
                cursor = vb.getOid();
            }
            if (response.bindings().isEmpty()) {
                return result;
            }
        }
    }

    private PDU newPdu(int type) {
        PDU pdu = v3 ? new ScopedPDU() : new PDU();
        pdu.setType(type);
        return pdu;
    }

    private Response send(PDU pdu) throws IOException {
        ResponseEvent<UdpAddress> event = snmp.send(pdu, target);
        PDU response = event.getResponse();
        if (response == null) {
            throw new IOException("no response from " + target.getAddress() + " within "
                    + target.getTimeout() * (target.getRetries() + 1) + " ms"
                    + (event.getError() != null ? ": " + event.getError().getMessage() : ""));
        }
        return new Response(response.getErrorStatus(), response.getErrorIndex(),
                List.copyOf(response.getVariableBindings()));
    }

    @Override
    public void close() throws IOException {
        snmp.close();
    }
}
