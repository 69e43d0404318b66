package dev.waldoconf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.Security;
import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.BoundedParallel;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.engine.ProgressListener.Stage;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.lab.Lab;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.service.WaldoConfEngine;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator at scale, against the embedded lab and real services: every switch read and every
 * service connected in parallel, each reported once per stage, and a switch or service that never
 * answers named without holding the others up.
 */
@Timeout(180)
class ParallelOperatorTest {
    private static final String P60 = WaldoConfTest.P60;

    @TempDir
    Path dir;
    private Lab lab;
    private final List<RunningService> services = new ArrayList<>();
    private final List<ServerSocket> sockets = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        services.forEach(RunningService::close);
        for (ServerSocket socket : sockets) {
            socket.close();
        }
        if (lab != null) {
            lab.close();
        }
    }

    /** Which switches reached each stage, as the engine reported them (from its own threads). */
    private static final class Recorder implements ProgressListener {
        final Map<Stage, Set<String>> reached = new ConcurrentHashMap<>();
        final Map<String, String> details = new ConcurrentHashMap<>();
        final List<String> repeats = java.util.Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onProgress(String switchName, Stage stage, String detail) {
            if (!reached.computeIfAbsent(stage, s -> ConcurrentHashMap.newKeySet()).add(switchName)) {
                repeats.add(switchName + " " + stage);
            }
            if (!detail.isEmpty()) {
                details.put(switchName, detail);
            }
        }

        Map<Stage, Integer> counts() {
            Map<Stage, Integer> counts = new EnumMap<>(Stage.class);
            reached.forEach((stage, names) -> counts.put(stage, names.size()));
            return counts;
        }
    }

    @Test
    void appliesToThirtyTwoSwitchesReportingEachOnceAtEveryStage() throws Exception {
        Inventory inventory = labInventory(32, Set.of());
        try (WaldoConf waldoconf = open()) {
            serve(waldoconf, inventory, Set.of());
            Recorder reading = new Recorder();
            ResolvedPlan plan = waldoconf.plan(Files.writeString(dir.resolve("p60.yaml"), P60), inventory, reading);
            assertThat(reading.counts()).containsExactly(Map.entry(Stage.READ, 32));

            Recorder applying = new Recorder();
            ApplyResult result = waldoconf.apply(plan, Optional.empty(), true, applying);

            assertThat(result.outcome()).as(result.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
            assertThat(applying.counts()).containsExactly(Map.entry(Stage.CONNECTED, 32), Map.entry(Stage.COMMITTED, 32));
            assertThat(applying.repeats).isEmpty();
            for (SwitchEntry entry : inventory.switches()) {
                assertThat(waldoconf.read(inventory, entry).vlans()).as(entry.name()).containsKey(60);
            }
        }
    }

    @Test
    void aServiceThatNeverAnswersIsNamedTheOthersConnectAndNothingChanges() throws Exception {
        // lab-5's service address is a socket that takes the connection and never says a word.
        Inventory inventory = labInventory(8, Set.of("lab-5"));
        try (WaldoConf waldoconf = open()) {
            serve(waldoconf, inventory, Set.of("lab-5"));
            ResolvedPlan plan = waldoconf.plan(Files.writeString(dir.resolve("p60.yaml"), P60), inventory);
            Recorder applying = new Recorder();

            assertThatThrownBy(() -> waldoconf.apply(plan, Optional.empty(), true, applying))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.kind())
                            .isEqualTo(EngineException.Kind.UNREACHABLE))
                    .hasMessageStartingWith("cannot reach the service of switch lab-5 at 127.0.0.1:"
                            + inventory.switchNamed("lab-5").orElseThrow().service().port())
                    .hasMessageContaining("cannot connect to")
                    .hasMessageEndingWith("is 'waldoconf serve --switch lab-5' running?");
            // The seven others were connected while lab-5 was waited for, not after it.
            assertThat(applying.counts()).containsEntry(Stage.CONNECTED, 7).containsEntry(Stage.UNREACHABLE, 1);
            assertThat(applying.reached.get(Stage.UNREACHABLE)).containsExactly("lab-5");
            for (SwitchEntry entry : inventory.switches()) {
                assertThat(waldoconf.read(inventory, entry).vlans()).as(entry.name()).doesNotContainKey(60);
            }
        }
    }

    @Test
    void aSwitchThatNeverAnswersItsReadIsNamedWithItsLimitAndTheOthersAreRead() throws Exception {
        Inventory inventory = labInventory(3, Set.of());
        CountDownLatch never = new CountDownLatch(1);
        DeviceFactory devices = (entry, credentials) -> {
            if (entry.name().equals("lab-2")) {
                awaitForever(never);
            }
            return new MemoryVlanDevice(entry.name(), 24, SwitchState.factoryDefault(24));
        };
        Recorder reading = new Recorder();
        // One read at a time: whoever comes after the silent lab-2 waits until its limit frees the slot.
        try (WaldoConf waldoconf = WaldoConf.of(devices, new WaldoConfEngine(devices, dir.resolve("operator"),
                Clock.systemUTC()), EngineOptions.DEFAULTS).readingWith(new BoundedParallel(1, Duration.ofMillis(500)))) {
            Path planFile = Files.writeString(dir.resolve("p60.yaml"), P60);
            assertThatThrownBy(() -> waldoconf.plan(planFile, inventory, reading))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.kind())
                            .isEqualTo(EngineException.Kind.UNREACHABLE))
                    .hasMessageStartingWith("cannot read 1 of 3 switches; nothing was changed:\n  lab-2: no answer"
                            + " within 500 ms (the limit for one switch, counted from when its own work started)\n");
        }
        assertThat(reading.reached.get(Stage.READ)).containsExactlyInAnyOrder("lab-1", "lab-3");
        assertThat(reading.reached.get(Stage.UNREACHABLE)).containsExactly("lab-2");
    }

    private static void awaitForever(CountDownLatch never) throws DeviceException {
        try {
            never.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeviceException("lab-2: interrupted", true);
        }
    }

    private WaldoConf open() {
        return WaldoConf.open(new EngineOptions(Security.SELF_SIGNED).withOperatorState(dir.resolve("operator")),
                Map.of());
    }

    /** Serves every switch of {@code inventory} but {@code silent} ones, in this JVM. */
    private void serve(WaldoConf waldoconf, Inventory inventory, Set<String> silent) throws EngineException {
        for (SwitchEntry entry : inventory.switches()) {
            if (!silent.contains(entry.name())) {
                services.add(waldoconf.serve(new ServiceSpec(inventory, entry.name(),
                        dir.resolve("service-" + entry.name()), Optional.empty())));
            }
        }
    }

    /**
     * An inventory of {@code count} embedded lab switches. Every service port is bound at once, so no
     * two switches get the same one; those of {@code silent} switches stay bound by a socket that
     * never answers, the others are freed for their services.
     */
    private Inventory labInventory(int count, Set<String> silent) throws Exception {
        lab = Lab.start(count, SwitchConfig.named("lab"), null);
        Map<String, ServerSocket> ports = new LinkedHashMap<>();
        lab.switches().forEach(sw -> ports.put(sw.name(), bindLoopback()));
        Files.writeString(dir.resolve("community"), "private\n");
        StringBuilder yaml = new StringBuilder("switches:\n");
        Set<String> written = new HashSet<>();
        for (var sw : lab.switches()) {
            ServerSocket port = ports.get(sw.name());
            yaml.append("  - {name: ").append(sw.name()).append(", service: 127.0.0.1:").append(port.getLocalPort())
                    .append(", snmp: 127.0.0.1:").append(sw.snmpAddress().getPort())
                    .append(", version: '2c', credentials: lab}\n");
            written.add(sw.name());
            if (silent.contains(sw.name())) {
                sockets.add(port);
            } else {
                port.close();
            }
        }
        yaml.append("credentials:\n  lab: {community: {file: ").append(dir.resolve("community")).append("}}\n");
        assertThat(written).containsAll(silent);
        return InventoryLoader.load(Files.writeString(dir.resolve("inventory.yaml"), yaml.toString()));
    }

    private static ServerSocket bindLoopback() {
        try {
            return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
