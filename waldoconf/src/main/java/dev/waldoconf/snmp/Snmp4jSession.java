package dev.waldoconf.snmp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.CommunityTarget;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.Snmp;
import org.snmp4j.Target;
import org.snmp4j.UserTarget;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * An {@link SnmpSession} over SNMP4J and UDP, for SNMPv2c or SNMPv3 USM authPriv. Each session
 * has its own socket and, for v3, its own USM, so sessions with different users never share
 * keys. Not thread-safe: one request at a time.
 */
public final class Snmp4jSession implements SnmpSession {
    private static final Logger LOG = LoggerFactory.getLogger(Snmp4jSession.class);
    /** USM statistics an agent reports instead of answering, with what they mean for the operator. */
    private static final List<ReportMeaning> REPORTS = List.of(
            new ReportMeaning("1.3.6.1.6.3.15.1.1.1", "unsupported security level (authPriv)"),
            new ReportMeaning("1.3.6.1.6.3.15.1.1.2", "message not in time window"),
            new ReportMeaning("1.3.6.1.6.3.15.1.1.3", "unknown user name"),
            new ReportMeaning("1.3.6.1.6.3.15.1.1.4", "unknown engine ID"),
            new ReportMeaning("1.3.6.1.6.3.15.1.1.5", "wrong digest (authentication passphrase or protocol)"),
            new ReportMeaning("1.3.6.1.6.3.15.1.1.6", "decryption error (privacy passphrase or protocol)"));

    private record ReportMeaning(String prefix, String meaning) {
    }

    private final Snmp snmp;
    private final Target<UdpAddress> target;
    private final SnmpTarget settings;

    private Snmp4jSession(Snmp snmp, Target<UdpAddress> target, SnmpTarget settings) {
        this.snmp = snmp;
        this.target = target;
        this.settings = settings;
    }

    /**
     * Opens a session: binds a UDP socket (on loopback when the agent is on loopback) and, for
     * v3, sets up a USM holding just this target's user.
     *
     * @throws IOException if the agent's host name does not resolve or no local UDP socket can be bound
     */
    public static Snmp4jSession open(SnmpTarget settings) throws IOException {
        if (settings.address().isUnresolved()) {
            throw new IOException("cannot resolve the agent's host name '" + settings.address().getHostString()
                    + "'; check the inventory or use an IP address");
        }
        UdpAddress agent = new UdpAddress(settings.address().getAddress(), settings.address().getPort());
        MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv2c());
        Target<UdpAddress> target = switch (settings.credentials()) {
            case SnmpCredentials.Community community -> {
                CommunityTarget<UdpAddress> t = new CommunityTarget<>(agent, new OctetString(community.community()));
                t.setVersion(SnmpConstants.version2c);
                yield t;
            }
            case SnmpCredentials.Usm user -> {
                dispatcher.addMessageProcessingModel(new MPv3(usmFor(user)));
                yield new UserTarget<>(agent, new OctetString(user.user()), new byte[0], SecurityLevel.AUTH_PRIV);
            }
        };
        target.setTimeout(settings.timeoutMs());
        target.setRetries(settings.retries());
        DefaultUdpTransportMapping transport = new DefaultUdpTransportMapping(localAddress(settings.address()));
        Snmp snmp = new Snmp(dispatcher, transport);
        try {
            snmp.listen();
        } catch (IOException e) {
            snmp.close();
            throw new IOException("cannot open a UDP socket to talk to " + settings + ": " + e.getMessage(), e);
        }
        return new Snmp4jSession(snmp, target, settings);
    }

    /**
     * A USM with SHA-1 added to SNMP4J's defaults: SNMP4J 3.13 enables only SHA-2 unless told,
     * and old switches speak only SHA-1.
     */
    private static USM usmFor(SnmpCredentials.Usm user) {
        SecurityProtocols protocols = new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.maxCompatibility);
        for (SnmpCredentials.Auth auth : SnmpCredentials.Auth.values()) {
            protocols.addAuthenticationProtocol(auth.protocol());
        }
        for (SnmpCredentials.Priv priv : SnmpCredentials.Priv.values()) {
            protocols.addPrivacyProtocol(priv.protocol());
        }
        USM usm = new USM(protocols, new OctetString(MPv3.createLocalEngineID()), 0);
        usm.addUser(new UsmUser(new OctetString(user.user()), user.auth().protocol().getID(),
                new OctetString(user.authPassphrase()), user.priv().protocol().getID(),
                new OctetString(user.privPassphrase())));
        return usm;
    }

    /** Loopback agents are reached from a loopback socket, so lab traffic never leaves the host. */
    private static UdpAddress localAddress(InetSocketAddress agent) throws IOException {
        InetAddress agentHost = agent.getAddress();
        if (agentHost != null && agentHost.isLoopbackAddress()) {
            return new UdpAddress(InetAddress.getLoopbackAddress(), 0);
        }
        return new UdpAddress(0);
    }

    @Override
    public String agent() {
        return settings.toString();
    }

    @Override
    public SnmpResponse get(List<OID> oids) throws IOException {
        PDU pdu = newPdu(PDU.GET);
        oids.forEach(oid -> pdu.add(new VariableBinding(oid)));
        return send(pdu);
    }

    @Override
    public SnmpResponse set(List<VariableBinding> bindings) throws IOException {
        PDU pdu = newPdu(PDU.SET);
        pdu.addAll(bindings.toArray(VariableBinding[]::new));
        return send(pdu);
    }

    @Override
    public SnmpResponse getBulk(OID after, int maxRepetitions) throws IOException {
        PDU pdu = newPdu(PDU.GETBULK);
        pdu.setMaxRepetitions(maxRepetitions);
        pdu.add(new VariableBinding(after));
        return send(pdu);
    }

    private PDU newPdu(int type) {
        PDU pdu = target instanceof UserTarget<?> ? new ScopedPDU() : new PDU();
        pdu.setType(type);
        return pdu;
    }

    private SnmpResponse send(PDU pdu) throws IOException {
        ResponseEvent<UdpAddress> event = snmp.send(pdu, target);
        PDU response = event == null ? null : event.getResponse();
        if (response == null) {
            String cause = event != null && event.getError() != null ? " (" + event.getError().getMessage() + ")" : "";
            throw new SnmpTimeoutException("no response from " + agent() + " within " + settings.budgetMs()
                    + " ms (" + (settings.retries() + 1) + " tries of " + settings.timeoutMs() + " ms)" + cause);
        }
        if (response.getType() == PDU.REPORT) {
            throw new IOException(agent() + " refused the request: " + reportMeaning(response)
                    + "; check the SNMPv3 user, protocols and passphrases in the inventory");
        }
        LOG.trace("{} answered {} to a {} of {} bindings", agent(), response.getErrorStatusText(),
                PDU.getTypeString(pdu.getType()), pdu.size());
        return new SnmpResponse(response.getErrorStatus(), response.getErrorIndex(),
                List.copyOf(response.getVariableBindings()));
    }

    private static String reportMeaning(PDU report) {
        for (VariableBinding vb : report.getVariableBindings()) {
            for (ReportMeaning known : REPORTS) {
                if (vb.getOid().startsWith(new OID(known.prefix()))) {
                    return known.meaning();
                }
            }
        }
        return "report " + (report.size() > 0 ? report.get(0).getOid() : "without bindings");
    }

    @Override
    public void close() {
        try {
            snmp.close();
        } catch (IOException e) {
            LOG.debug("closing the session to {} failed: {}", agent(), e.getMessage());
        }
    }
}
