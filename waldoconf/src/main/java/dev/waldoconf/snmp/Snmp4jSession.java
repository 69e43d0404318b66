package dev.waldoconf.snmp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.CommunityTarget;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.Target;
import org.snmp4j.UserTarget;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;

/**
 * An {@link SnmpSession} over SNMP4J and UDP, for SNMPv2c or SNMPv3 USM authPriv. Sessions send
 * through an engine (socket, listener and timer threads) that they share with every other session
 * of the process that talks the same way ({@link SharedSnmp}): only the target (address,
 * community or user, timeout) is the session's own. Sessions with different SNMPv3 users never
 * share an engine, so never a USM and its keys. Not thread-safe: one request at a time.
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

    private final SharedSnmp.Lease engine;
    private final Target<UdpAddress> target;
    /** The target for SETs: one try each, as {@link #set} resends them itself. */
    private final Target<UdpAddress> setTarget;
    private final SnmpTarget settings;

    private Snmp4jSession(SharedSnmp.Lease engine, Target<UdpAddress> target, SnmpTarget settings) {
        this.engine = engine;
        this.target = target;
        this.setTarget = target.duplicate();
        this.setTarget.setRetries(0);
        this.settings = settings;
    }

    /**
     * Opens a session on the process's shared engine for its kind ({@link SharedSnmp#PROCESS}),
     * opening that engine (a UDP socket on loopback when the agent is on loopback) if it is the first.
     *
     * @throws IOException if the agent's host name does not resolve or no local UDP socket can be bound
     */
    public static Snmp4jSession open(SnmpTarget settings) throws IOException {
        return open(settings, SharedSnmp.PROCESS);
    }

    /** Opens a session on {@code engines} (tests count what a group of sessions opened). */
    static Snmp4jSession open(SnmpTarget settings, SharedSnmp engines) throws IOException {
        if (settings.address().isUnresolved()) {
            throw new IOException("cannot resolve the agent's host name '" + settings.address().getHostString()
                    + "'; check the inventory or use an IP address");
        }
        UdpAddress agent = new UdpAddress(settings.address().getAddress(), settings.address().getPort());
        Target<UdpAddress> target = switch (settings.credentials()) {
            case SnmpCredentials.Community community -> {
                CommunityTarget<UdpAddress> t = new CommunityTarget<>(agent, new OctetString(community.community()));
                t.setVersion(SnmpConstants.version2c);
                yield t;
            }
            case SnmpCredentials.Usm user ->
                new UserTarget<>(agent, new OctetString(user.user()), new byte[0], SecurityLevel.AUTH_PRIV);
        };
        target.setTimeout(settings.timeoutMs());
        target.setRetries(settings.retries());
        SharedSnmp.Lease engine;
        try {
            engine = engines.lease(SharedSnmp.Kind.of(onLoopback(settings.address()), settings.credentials()));
        } catch (IOException e) {
            throw new IOException("cannot open a UDP socket to talk to " + settings + ": " + e.getMessage(), e);
        }
        return new Snmp4jSession(engine, target, settings);
    }

    /** Loopback agents are reached from a loopback socket, so lab traffic never leaves the host. */
    private static boolean onLoopback(InetSocketAddress agent) {
        InetAddress agentHost = agent.getAddress();
        return agentHost != null && agentHost.isLoopbackAddress();
    }

    @Override
    public String agent() {
        return settings.toString();
    }

    @Override
    public SnmpResponse get(List<OID> oids) throws IOException {
        PDU pdu = newPdu(PDU.GET);
        oids.forEach(oid -> pdu.add(new VariableBinding(oid)));
        return send(pdu, target);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Resent here rather than by SNMP4J, so that the answer can say whether an earlier try went
     * unanswered ({@link SnmpResponse#afterTimeout()}): a SET is not idempotent for the agent (a
     * second createAndGo of a row the first one created is inconsistentValue), and only the driver
     * can tell whether the switch already holds what was asked.
     */
    @Override
    public SnmpResponse set(List<VariableBinding> bindings) throws IOException {
        PDU pdu = newPdu(PDU.SET);
        pdu.addAll(bindings.toArray(VariableBinding[]::new));
        int tries = settings.retries() + 1;
        for (int attempt = 1; ; attempt++) {
            try {
                SnmpResponse response = send(pdu, setTarget);
                return attempt == 1 ? response : new SnmpResponse(response.errorStatus(), response.errorIndex(),
                        response.bindings(), true);
            } catch (SnmpTimeoutException e) {
                if (attempt >= tries) {
                    throw e;
                }
                LOG.debug("{}: no answer to a SET of {} bindings (try {} of {}); sending it again", agent(),
                        bindings.size(), attempt, tries);
            }
        }
    }

    @Override
    public SnmpResponse getBulk(OID after, int maxRepetitions) throws IOException {
        PDU pdu = newPdu(PDU.GETBULK);
        pdu.setMaxRepetitions(maxRepetitions);
        pdu.add(new VariableBinding(after));
        return send(pdu, target);
    }

    private PDU newPdu(int type) {
        PDU pdu = target instanceof UserTarget<?> ? new ScopedPDU() : new PDU();
        pdu.setType(type);
        return pdu;
    }

    /** Sends through {@code via}, which sets how many tries SNMP4J makes itself. */
    private SnmpResponse send(PDU pdu, Target<UdpAddress> via) throws IOException {
        ResponseEvent<UdpAddress> event = engine.snmp().send(pdu, via);
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
        engine.close();
    }
}
