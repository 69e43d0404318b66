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
 * Crash safety of a custom service, with a real process and {@code kill -9}: the built-in
 * system-group service ({@link CustomServeMain}, as {@code waldoconf serve --service system-group})
 * is killed in the middle of a prepare, after it SET sysLocation and before it SET sysContact.
 * Once it is started again, the agent must hold its old values: the change never committed.
 */
@Timeout(180)
class CustomServiceCrashSafetyTest {
    private static final String NAME = "edge-1";
    private static final String SERVICE = "system-group";
    /** Each SNMP answer is this late, so the test sees a prepare between its SETs. */
    private static final long DELAY_MS = 500;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    private SimulatedSwitch sw;
    private Path inventory;
    private int servicePort;
    private JavaProcess service;
    private int starts;

    @BeforeEach
    void startSwitchAndService() throws Exception {
        sw = SimulatedSwitch.start(SwitchConfig.named("lab-edge").withControlPort(-1));
        servicePort = freeTcpPort();
        inventory = writeInventory();
        service = startService();
    }

    @AfterEach
    void stopEverything() throws InterruptedException {
        if (service != null) {
            service.kill();
        }
        sw.close();
    }

    @Test
    void serviceKilledBetweenItsSetsPutsTheOldValuesBackWhenRestarted() throws Exception {
        String oldLocation = sw.state().sysLocation();
        String oldContact = sw.state().sysContact();
        sw.faults().delayResponses(DELAY_MS);
        CompletableFuture<Object> change = CompletableFuture.supplyAsync(this::setAll);

        awaitLocation("hall D");    // the first SET reached the agent; the second is still to come
        service.kill();
        assertThat(sw.state().sysContact()).as("killed before the second SET").isEqualTo(oldContact);
        assertThat(SnapshotLog.read(journal())).as("the pre-image was on disk before the SET")
                .contains(" preparing\n", "pre-image 1.3.6.1.2.1.1.6.0 text");
        sw.faults().clear();
        assertThat(outcomeOf(change)).as("the call fails: the service is gone").isInstanceOf(Exception.class);

        service = startService();

        assertThat(sw.state().sysLocation()).isEqualTo(oldLocation);
        assertThat(sw.state().sysContact()).isEqualTo(oldContact);
        assertThat(SnapshotLog.read(journal())).as("nothing is left unfinished").doesNotContain("\nentry ");
    }

    /** The operator's one transaction across the service, as 'waldoconf call system-group ...' runs it. */
    private Object setAll() {
        try (CustomCall call = CustomCall.connect(CustomProgram.check(Path.of(SERVICE)).load(),
                Map.of(NAME, OperatorSession.Service.alone(new InetSocketAddress("127.0.0.1", servicePort))),
                NetConfig.defaults("operator-" + (++starts), dir.resolve("operator-" + starts)))) {
            return call.call("SystemGroupChange", "set_all", List.of("hall D", "crash@example.net"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** What the call ended with: its result, or the exception it failed with. */
    private static Object outcomeOf(CompletableFuture<Object> change) throws Exception {
        try {
            return change.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private void awaitLocation(String expected) throws InterruptedException {
        long giveUpAt = System.nanoTime() + PATIENCE.toNanos();
        while (!sw.state().sysLocation().equals(expected)) {
            assertThat(System.nanoTime()).as("the service SET sysLocation").isLessThan(giveUpAt);
            Thread.sleep(10);
        }
    }

    private JavaProcess startService() throws Exception {
        JavaProcess started = JavaProcess.start("service-" + (++starts), dir.resolve("logs"), CustomServeMain.class,
                inventory.toString(), NAME, stateDir().toString(), SERVICE);
        started.awaitLine("serving " + NAME + " at " + servicePort);
        return started;
    }

    private Path stateDir() {
        return dir.resolve("services").resolve(NAME);
    }

    private Path journal() {
        return CustomService.journalFile(SwitchServer.defaultNet(NAME, stateDir()));
    }

    private Path writeInventory() throws Exception {
        Path secret = Files.writeString(dir.resolve("rw"), sw.config().writeCommunity() + "\n");
        return Files.writeString(dir.resolve("inventory.yaml"), "switches:\n"
                + "  - {name: " + NAME + ", service: 127.0.0.1:" + servicePort + ", snmp: 127.0.0.1:"
                + sw.snmpAddress().getPort() + ", version: '2c', credentials: rw}\n"
                + "credentials:\n  rw: {community: {file: " + secret + "}}\n");
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
