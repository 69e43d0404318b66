package dev.waldoconf.product;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.NetConfig;
import dev.waldoconf.custom.CustomCall;
import dev.waldoconf.custom.CustomProgram;
import dev.waldoconf.custom.CustomService;
import dev.waldoconf.lab.JavaProcess;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.service.OperatorSession;
import dev.waldoconf.service.SnapshotLog;
import dev.waldoconf.service.SwitchServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A custom service killed right after it voted yes ({@code kill -9}) restarts with the transaction
 * in doubt in its journal, asks the other service of the inventory for the outcome, and follows it:
 * backed out puts the agent's old values back, committed keeps the new ones. Two system-group
 * services ({@link CustomServeMain}) run as processes in front of two lab switches; the second
 * switch answers slowly, so its service is still preparing when the first is killed.
 */
@Timeout(240)
class CustomServiceInDoubtRecoveryTest {
    private static final String KILLED = "edge-1";
    private static final String PEER = "edge-2";
    private static final String SERVICE = "system-group";
    /** Each SNMP answer of the peer's switch is this late: its prepare outlasts the kill. */
    private static final long PEER_DELAY_MS = 1_000;
    private static final Duration PATIENCE = Duration.ofSeconds(45);

    @TempDir
    Path dir;
    private final Map<String, SimulatedSwitch> switches = new LinkedHashMap<>();
    private final Map<String, Integer> servicePorts = new LinkedHashMap<>();
    private final Map<String, JavaProcess> services = new LinkedHashMap<>();
    private Path inventory;
    private int starts;

    @BeforeEach
    void startSwitches() throws Exception {
        for (String name : List.of(KILLED, PEER)) {
            switches.put(name, SimulatedSwitch.start(SwitchConfig.named("lab-" + name).withControlPort(-1)));
            servicePorts.put(name, freeTcpPort());
        }
    }

    @AfterEach
    void stopEverything() throws InterruptedException {
        for (JavaProcess service : services.values()) {
            service.kill();
        }
        switches.values().forEach(SimulatedSwitch::close);
    }

    @Test
    void aServiceKilledAfterVotingYesLearnsTheBackoutFromThePeerAndPutsTheOldValuesBack() throws Exception {
        inventory = writeInventory("ro");  // the peer may only read: its SETs are refused, it votes no
        startServices();
        String oldLocation = agent(KILLED).state().sysLocation();
        String oldContact = agent(KILLED).state().sysContact();

        Object outcome = killAfterItVotedYes();

        assertThat(outcome).as("the peer voted no").isInstanceOf(Exception.class);
        assertThat(agent(KILLED).state().sysLocation()).as("killed holding the new values").isEqualTo("hall D");
        assertThat(SnapshotLog.read(journal(KILLED))).as("peers are the runtime's to log, not the journal's")
                .contains(" prepared\n").doesNotContain("peer ");

        services.put(KILLED, startService(KILLED));

        awaitRecovered(() -> services.get(KILLED).output().contains("was backed out"),
                "the restarted service logged that it learned the backout");
        assertThat(agent(KILLED).state().sysLocation()).isEqualTo(oldLocation);
        assertThat(agent(KILLED).state().sysContact()).isEqualTo(oldContact);
        assertThat(SnapshotLog.read(journal(KILLED))).as("nothing is left unfinished").doesNotContain("\nentry ");
    }

    @Test
    void aServiceKilledAfterVotingYesLearnsTheCommitFromThePeerAndKeepsTheNewValues() throws Exception {
        inventory = writeInventory("rw");
        startServices();

        Object outcome = killAfterItVotedYes();

        assertThat(outcome).as("both voted yes: committed").isNotInstanceOf(Exception.class);
        assertThat(agent(PEER).state().sysLocation()).isEqualTo("hall D");
        assertThat(SnapshotLog.read(journal(KILLED))).contains(" prepared\n");

        services.put(KILLED, startService(KILLED));

        awaitRecovered(() -> services.get(KILLED).output().contains("was committed"),
                "the restarted service logged that it learned the commit");
        assertThat(agent(KILLED).state().sysLocation()).isEqualTo("hall D");
        assertThat(agent(KILLED).state().sysContact()).isEqualTo("crash@example.net");
        assertThat(SnapshotLog.read(journal(KILLED))).as("nothing is left unfinished").doesNotContain("\nentry ");
    }

    /**
     * The peer is frozen ({@code SIGSTOP}) when the killed service restarts, so the restarted one
     * cannot reach it and stays in doubt; it keeps dialing, and once the peer runs again it learns
     * the backout and puts the old values back.
     */
    @Test
    void aPeerUnreachableAtRestartIsAskedOnceItAnswersAgain() throws Exception {
        inventory = writeInventory("ro");
        startServices();
        String oldLocation = agent(KILLED).state().sysLocation();

        assertThat(killAfterItVotedYes()).as("the peer voted no").isInstanceOf(Exception.class);
        services.get(PEER).signal("STOP");
        try {
            services.put(KILLED, startService(KILLED));
            awaitRecovered(() -> services.get(KILLED).output().contains("cannot reach the service"),
                    "the restarted service found the peer unreachable");
            assertThat(agent(KILLED).state().sysLocation()).as("still in doubt").isEqualTo("hall D");
        } finally {
            services.get(PEER).signal("CONT");
        }

        awaitRecovered(() -> services.get(KILLED).output().contains("was backed out"),
                "the restarted service reached the peer again and learned the backout");
        assertThat(agent(KILLED).state().sysLocation()).isEqualTo(oldLocation);
        assertThat(SnapshotLog.read(journal(KILLED))).as("nothing is left unfinished").doesNotContain("\nentry ");
    }

    /**
     * Runs the change across both services with the peer's switch slow, kills the first service
     * once it journaled its yes vote (and the vote had time to leave), and returns what the call
     * ended with: its result, or the exception it failed with.
     */
    private Object killAfterItVotedYes() throws Exception {
        agent(PEER).faults().delayResponses(PEER_DELAY_MS);
        CompletableFuture<Object> change = CompletableFuture.supplyAsync(this::setAll);
        awaitTrue(() -> Files.exists(journal(KILLED)) && SnapshotLog.read(journal(KILLED)).contains(" prepared\n"),
                KILLED + " voted yes");
        Thread.sleep(300);
        services.remove(KILLED).kill();
        try {
            return change.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } finally {
            agent(PEER).faults().clear();
        }
    }

    /** The operator's one transaction across both services, as 'waldoconf call system-group ...' runs it. */
    private Object setAll() {
        Map<String, OperatorSession.Service> services = new LinkedHashMap<>();
        servicePorts.forEach((name, port) -> services.put(name,
                OperatorSession.Service.alone(new InetSocketAddress("127.0.0.1", port))));
        try (CustomCall call = CustomCall.connect(CustomProgram.check(Path.of(SERVICE)).load(), services,
                NetConfig.defaults("operator-" + (++starts), dir.resolve("operator-" + starts)))) {
            return call.call("SystemGroupChange", "set_all", List.of("hall D", "crash@example.net"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void startServices() throws Exception {
        for (String name : switches.keySet()) {
            services.put(name, startService(name));
        }
    }

    private JavaProcess startService(String name) throws Exception {
        JavaProcess started = JavaProcess.start(name + "-" + (++starts), dir.resolve("logs"), CustomServeMain.class,
                inventory.toString(), name, stateDir(name).toString(), SERVICE);
        started.awaitLine("serving " + name + " at " + servicePorts.get(name));
        return started;
    }

    private SimulatedSwitch agent(String name) {
        return switches.get(name);
    }

    private Path stateDir(String name) {
        return dir.resolve("services").resolve(name);
    }

    private Path journal(String name) {
        return CustomService.journalFile(SwitchServer.defaultNet(name, stateDir(name)));
    }

    /** Awaits the restarted service's recovery; a failure shows what it logged. */
    private void awaitRecovered(ThrowingCondition condition, String what) throws Exception {
        try {
            awaitTrue(condition, what);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nthe restarted service logged:\n"
                    + services.get(KILLED).output(), e);
        }
    }

    /** Polls (bounded by {@link #PATIENCE}) until {@code condition} holds. */
    private static void awaitTrue(ThrowingCondition condition, String what) throws Exception {
        long giveUpAt = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.holds()) {
            assertThat(System.nanoTime()).as("waited for: " + what).isLessThan(giveUpAt);
            Thread.sleep(20);
        }
    }

    /** A condition that may read files. */
    @FunctionalInterface
    private interface ThrowingCondition {
        boolean holds() throws Exception;
    }

    /** The inventory: the first switch with write access, the peer with {@code peerCredentials}. */
    private Path writeInventory(String peerCredentials) throws Exception {
        SimulatedSwitch any = agent(KILLED);
        Path rw = Files.writeString(dir.resolve("rw"), any.config().writeCommunity() + "\n");
        Path ro = Files.writeString(dir.resolve("ro"), any.config().readCommunity() + "\n");
        StringBuilder yaml = new StringBuilder("switches:\n");
        for (String name : switches.keySet()) {
            yaml.append("  - {name: ").append(name).append(", service: 127.0.0.1:").append(servicePorts.get(name))
                    .append(", snmp: 127.0.0.1:").append(agent(name).snmpAddress().getPort())
                    .append(", version: '2c', credentials: ").append(name.equals(PEER) ? peerCredentials : "rw")
                    .append("}\n");
        }
        yaml.append("credentials:\n  rw: {community: {file: ").append(rw).append("}}\n")
                .append("  ro: {community: {file: ").append(ro).append("}}\n");
        return Files.writeString(dir.resolve("inventory.yaml"), yaml.toString());
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
