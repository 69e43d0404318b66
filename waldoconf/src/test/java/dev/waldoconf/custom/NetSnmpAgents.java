package dev.waldoconf.custom;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.Executables;
import dev.waldoconf.snmp.ScalarValue;
import dev.waldoconf.snmp.SnmpCredentials;
import dev.waldoconf.snmp.SnmpScalars;
import dev.waldoconf.snmp.SnmpTarget;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.snmp4j.smi.OID;

/**
 * net-snmp {@code snmpd} processes on loopback for tests: each with its own config and persistent
 * directory, community {@value #WRITE} read-write and {@value #READ} read-only, sysLocation and
 * sysContact left writable (setting them in snmpd.conf would make them read-only). Skips the test
 * when snmpd is not installed (on PATH or in an sbin folder: {@link Executables}), and fails it
 * instead when WALDO_EXPECT_SNMP=1. Stops every agent it
 * started, by its process, with bounded waits.
 */
final class NetSnmpAgents implements AutoCloseable {
    /** The read-write community. */
    static final String WRITE = "private";
    /** The read-only community. */
    static final String READ = "public";
    private static final int START_ATTEMPTS = 50;
    private static final long START_PAUSE_MS = 200;

    private final Path dir;
    private final List<Agent> agents = new ArrayList<>();

    /** One running snmpd. */
    record Agent(String name, InetSocketAddress address, Process process, Path log) {
    }

    private NetSnmpAgents(Path dir, Path snmpd) {
        this.dir = dir;
        this.snmpd = snmpd;
    }

    private final Path snmpd;

    /** Agents kept in {@code dir}; aborts the test (or fails it, under WALDO_EXPECT_SNMP=1) without snmpd. */
    static NetSnmpAgents in(Path dir) {
        return new NetSnmpAgents(dir, Executables.requireSnmpd());
    }

    /** Starts an agent on a free loopback UDP port and waits until it answers. */
    Agent start(String name) throws Exception {
        Path home = Files.createDirectories(dir.resolve(name));
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), freeUdpPort());
        Path config = home.resolve("snmpd.conf");
        Files.writeString(config, String.join("\n",
                "rwcommunity " + WRITE + " 127.0.0.1",
                "rocommunity " + READ + " 127.0.0.1", ""));
        Path log = home.resolve("snmpd.log");
        Process process = new ProcessBuilder(snmpd.toString(), "-f", "-Lo", "-C", "-c", config.toString(),
                "--persistentDir=" + home.resolve("persist"), "udp:127.0.0.1:" + address.getPort())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Agent agent = new Agent(name, address, process, log);
        agents.add(agent);
        awaitAnswers(agent);
        return agent;
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void awaitAnswers(Agent agent) throws Exception {
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            if (!agent.process().isAlive()) {
                throw new IllegalStateException("snmpd " + agent.name() + " exited: " + Files.readString(agent.log()));
            }
            try (SnmpScalars probe = SnmpScalars.open(agent.name(), target(agent, READ).withTimeoutMs(200)
                    .withRetries(0))) {
                probe.get(SnmpScalars.SYS_NAME);
                return;
            } catch (DeviceException notYet) {
                Thread.sleep(START_PAUSE_MS);
            }
        }
        throw new IllegalStateException("snmpd " + agent.name() + " did not answer on " + agent.address());
    }

    /** How a manager reaches {@code agent} with {@code community}. */
    static SnmpTarget target(Agent agent, String community) {
        return new SnmpTarget(agent.address(), new SnmpCredentials.Community(community), 2000, 1);
    }

    /** Sets every agent's sysLocation to 'before NAME' and sysContact to 'nobody', behind any service's back. */
    static void setBaseline(List<Agent> agents) throws Exception {
        for (Agent agent : agents) {
            try (SnmpScalars rw = SnmpScalars.open(agent.name(), target(agent, WRITE))) {
                rw.set(SnmpScalars.SYS_LOCATION, new ScalarValue.Text("before " + agent.name()));
                rw.set(SnmpScalars.SYS_CONTACT, new ScalarValue.Text("nobody"));
            }
        }
    }

    /** Reads a Text object with the read-only community: a manager that is not WaldoConf's service. */
    static String readText(Agent agent, OID oid) throws Exception {
        try (SnmpScalars ro = SnmpScalars.open(agent.name(), target(agent, READ))) {
            return ((ScalarValue.Text) ro.get(oid)).value();
        }
    }

    /** Stops one agent by its process, waiting at most 5 s before killing it. */
    static void stop(Agent agent) throws InterruptedException {
        agent.process().destroy();
        if (!agent.process().waitFor(5, TimeUnit.SECONDS)) {
            agent.process().destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (Agent agent : agents) {
            stop(agent);
        }
    }
}
