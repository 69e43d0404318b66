package dev.waldoconf.snmp;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.Snmp;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * SNMP4J engines ({@link Snmp}: one UDP socket, its listener thread, a dispatcher and a retry
 * timer) shared by every {@link Snmp4jSession} of a process that talks the same way. A site agent
 * serving a thousand switches, or an operator reading a thousand, would otherwise hold a socket and
 * two platform threads per switch (3,000 threads and most of the agent's resident memory at 1,000
 * switches, bench/site-agent/RESULTS.md). Sessions only add their own target (address, community or
 * user, timeout), and SNMP4J matches each answer to its request by request id, so one engine serves
 * any number of agents at once.
 *
 * <p>Engines are shared per {@link Kind}: whether the socket is bound on loopback (lab traffic
 * never leaves the host) and, for SNMPv3, the user with its passphrases, so that sessions with
 * different users never share a USM and its keys. A real site usually has one v3 user, so one
 * engine. An engine is opened by its first session and closed with its last.
 */
public final class SharedSnmp {
    private static final Logger LOG = LoggerFactory.getLogger(SharedSnmp.class);
    /**
     * What the shared socket asks the kernel to buffer for answers (capped by {@code
     * net.core.rmem_max}): a thousand switches answering at once overflow the default ~200 KiB, and a
     * dropped answer costs its request a whole SNMP timeout.
     */
    static final int RECEIVE_BUFFER_BYTES = 4 << 20;

    /** The engines of this process: what {@link Snmp4jSession#open(SnmpTarget)} uses. */
    public static final SharedSnmp PROCESS = new SharedSnmp();

    private final Map<Kind, Engine> engines = new HashMap<>();

    /**
     * How a group of sessions talks, and so which engine they share.
     *
     * @param loopback whether the socket is bound on loopback (for agents on loopback)
     * @param user the SNMPv3 user the engine's USM holds, or null for SNMPv2c (communities are per target)
     */
    record Kind(boolean loopback, SnmpCredentials.Usm user) {
        static Kind of(boolean loopback, SnmpCredentials credentials) {
            return new Kind(loopback, credentials instanceof SnmpCredentials.Usm usm ? usm : null);
        }
    }

    /** One engine and how many sessions use it. */
    private static final class Engine {
        private final Snmp snmp;
        private int sessions;

        Engine(Snmp snmp) {
            this.snmp = snmp;
        }
    }

    /** A session's hold on an engine; closing it lets the engine go once no session holds it. */
    final class Lease implements AutoCloseable {
        private final Kind kind;
        private final Snmp snmp;
        private boolean closed;

        private Lease(Kind kind, Snmp snmp) {
            this.kind = kind;
            this.snmp = snmp;
        }

        /** The shared engine to send through. */
        Snmp snmp() {
            return snmp;
        }

        @Override
        public void close() {
            synchronized (SharedSnmp.this) {
                if (!closed) {
                    closed = true;
                    release(kind);
                }
            }
        }
    }

    /** Engines for tests that must count their own; the process uses {@link #PROCESS}. */
    SharedSnmp() {
    }

    /**
     * A hold on the engine for {@code kind}, opening it (socket and threads) if no session holds one.
     *
     * @throws IOException if the engine's UDP socket cannot be bound
     */
    synchronized Lease lease(Kind kind) throws IOException {
        Objects.requireNonNull(kind, "kind");
        Engine engine = engines.get(kind);
        if (engine == null) {
            engine = new Engine(open(kind));
            engines.put(kind, engine);
        }
        engine.sessions++;
        return new Lease(kind, engine.snmp);
    }

    private void release(Kind kind) {
        Engine engine = engines.get(kind);
        if (engine == null || --engine.sessions > 0) {
            return;
        }
        engines.remove(kind);
        try {
            engine.snmp.close();
        } catch (IOException e) {
            LOG.debug("closing a shared SNMP engine failed: {}", e.getMessage());
        }
    }

    /** How many engines are open now (each one socket, one listener thread and one timer thread). */
    public synchronized int engines() {
        return engines.size();
    }

    /** How many sessions hold the engines now. */
    public synchronized int sessions() {
        return engines.values().stream().mapToInt(engine -> engine.sessions).sum();
    }

    private static Snmp open(Kind kind) throws IOException {
        MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv2c());
        if (kind.user() != null) {
            dispatcher.addMessageProcessingModel(new MPv3(usmFor(kind.user())));
        }
        UdpAddress local = kind.loopback() ? new UdpAddress(java.net.InetAddress.getLoopbackAddress(), 0)
                : new UdpAddress(0);
        DefaultUdpTransportMapping transport = new DefaultUdpTransportMapping(local);
        transport.setReceiveBufferSize(RECEIVE_BUFFER_BYTES);
        Snmp snmp = new Snmp(dispatcher, transport);
        try {
            snmp.listen();
        } catch (IOException e) {
            snmp.close();
            throw new IOException("cannot open a UDP socket for SNMP on " + local + ": " + e.getMessage(), e);
        }
        return snmp;
    }

    /**
     * A USM holding {@code user}, with SHA-1 added to SNMP4J's defaults: SNMP4J 3.13 enables only
     * SHA-2 unless told, and old switches speak only SHA-1. The user is added without an engine id,
     * so SNMP4J localizes its keys for each agent's engine as it discovers it: one USM serves every
     * switch that has the user.
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
}
