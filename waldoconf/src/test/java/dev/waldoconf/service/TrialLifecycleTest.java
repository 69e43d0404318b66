package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.HookedVlanDevice;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.model.SwitchPart;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apply, trial, confirm, rollback and expiry across three switch services
 * and a coordinator, each on its own in-memory host, with in-memory devices.
 */
@Timeout(120)
class TrialLifecycleTest {
    private static final int PORTS = 8;
    private static final SwitchState FACTORY = SwitchState.factoryDefault(PORTS);

    @TempDir
    Path stateRoot;

    private final InMemoryNetwork network = new InMemoryNetwork();
    private final List<Host> hosts = new ArrayList<>();
    private final List<MemoryVlanDevice> devices = new ArrayList<>();
    private final List<DeviceService<SwitchPart, VlanSwitchProgram>> services = new ArrayList<>();
    private ChangeRunner runner;
    private Host cliHost;

    @BeforeEach
    void startThreeSwitches() throws Exception {
        for (int i = 1; i <= 3; i++) {
            devices.add(new MemoryVlanDevice("sw-" + i, PORTS, FACTORY));
            services.add(startService(i - 1));
        }
        cliHost = host("cli");
        runner = new ChangeRunner(cliHost, Clock.systemUTC());
    }

    private Host host(String name) {
        Host host = Host.inMemory(network, name);
        hosts.add(host);
        return host;
    }

    private DeviceService<SwitchPart, VlanSwitchProgram> startService(int index) throws IOException, DeviceException {
        String name = devices.get(index).name();
        return VlanSwitchProgram.start(name, host(name + "-" + hosts.size()), devices.get(index),
                stateRoot.resolve(name), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        services.forEach(DeviceService::close);
        hosts.forEach(Host::close);
        network.close();
    }

    private List<ChangeRunner.Target> targets() {
        return services.stream().map(s -> new ChangeRunner.Target(s.name(), s.program().service().ref())).toList();
    }

    /** VLAN 20 'voice' untagged on port 5 (moved off VLAN 1), tagged on 8. */
    private static SwitchState withVoiceVlan() {
        TreeSet<Integer> rest = new TreeSet<>(List.of(1, 2, 3, 4, 6, 7, 8));
        return FACTORY.with(new Vlan(1, "default", new TreeSet<>(), rest))
                .with(new Vlan(20, "voice", new TreeSet<>(Set.of(8)), new TreeSet<>(Set.of(5))))
                .withPvid(5, 20);
    }

    /** The trials {@code service} holds, as its view() reports them. */
    private static Set<String> pendingOn(DeviceService<SwitchPart, VlanSwitchProgram> service) {
        return Set.copyOf(service.program().service().view().trials.keySet());
    }

    private static List<SwitchState> everywhere(SwitchState state) {
        return Collections.nCopies(3, state);
    }

    private List<SwitchState> deviceStates() throws DeviceException {
        List<SwitchState> states = new ArrayList<>();
        for (MemoryVlanDevice device : devices) {
            states.add(device.read());
        }
        return states;
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long giveUpAt = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > giveUpAt) {
                throw new AssertionError("still not true after 60 s: " + what);
            }
            Thread.sleep(50);
        }
    }

    private boolean allDevicesHold(SwitchState state) {
        try {
            return deviceStates().stream().allMatch(state::equals);
        } catch (DeviceException e) {
            return false;
        }
    }

    @Test
    void applyWithoutTrialChangesEverySwitchAndLeavesNoTrial() throws Exception {
        runner.apply(runner.newChangeId(), targets(), everywhere(withVoiceVlan()), Optional.empty());

        assertThat(deviceStates()).containsOnly(withVoiceVlan());
        assertThat(runner.pendingTrials(targets())).noneMatch(ChangeRunner.PendingTrial::pending);
    }

    @Test
    void oneRefusingSwitchLeavesEverySwitchUnchanged() throws Exception {
        devices.get(2).refuseVlans(Set.of(20));

        assertThatThrownBy(() -> runner.apply(runner.newChangeId(), targets(), everywhere(withVoiceVlan()),
                Optional.empty()))
                .isInstanceOfSatisfying(TransactionAbortedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(TransactionAbortedException.Reason.VOTED_NO);
                    assertThat(e.getMessage()).contains("sw-3");
                });
        assertThat(deviceStates()).containsOnly(FACTORY);
        assertThat(runner.pendingTrials(targets())).noneMatch(ChangeRunner.PendingTrial::pending);
    }

    @Test
    void anUnconfirmedTrialRevertsEverySwitchAtItsDeadline() throws Exception {
        String change = runner.newChangeId();
        runner.apply(change, targets(), everywhere(withVoiceVlan()), Optional.of(Duration.ofSeconds(1)));
        assertThat(runner.pendingTrials(targets())).allSatisfy(t -> assertThat(t.change()).isEqualTo(change));

        eventually("every switch reverted", () -> allDevicesHold(FACTORY));
        eventually("no trial pending", () -> runner.pendingTrials(targets()).stream().noneMatch(
                ChangeRunner.PendingTrial::pending));
    }

    @Test
    void aConfirmedTrialIsKept() throws Exception {
        String change = runner.newChangeId();
        runner.apply(change, targets(), everywhere(withVoiceVlan()), Optional.of(Duration.ofSeconds(2)));
        runner.confirm(change, targets());

        Thread.sleep(3000);  // past the deadline: nothing may revert now
        assertThat(deviceStates()).containsOnly(withVoiceVlan());
        assertThat(runner.pendingTrials(targets())).noneMatch(ChangeRunner.PendingTrial::pending);
    }

    @Test
    void rollbackRevertsEverySwitchAtOnce() throws Exception {
        String change = runner.newChangeId();
        runner.apply(change, targets(), everywhere(withVoiceVlan()), Optional.of(Duration.ofMinutes(5)));

        runner.rollback(change, targets());

        assertThat(deviceStates()).containsOnly(FACTORY);
        assertThat(runner.pendingTrials(targets())).noneMatch(ChangeRunner.PendingTrial::pending);
    }

    /**
     * A switch's trial is its change id and deadline only: staging a change on N switches must not
     * hand each of them the names of the others (N names in each of N stages made the apply's
     * stage calls and journals grow with N² at 1,000 switches). What each service stored says so,
     * and a restarted service recovers the trial from that alone.
     */
    @Test
    void aStagedTrialKeepsNoListOfTheChangesOtherSwitches() throws Exception {
        String change = runner.newChangeId();
        runner.apply(change, targets(), everywhere(withVoiceVlan()), Optional.of(Duration.ofMinutes(5)));

        List<String> names = devices.stream().map(MemoryVlanDevice::name).toList();
        for (String name : names) {
            String journal = SnapshotLog.read(stateRoot.resolve(name).resolve(DeviceJournal.FILE));
            assertThat(journal).as(name + "'s journal").containsPattern("committed\\.trial " + change + " \\d+ -\n");
            names.stream().filter(other -> !other.equals(name)).forEach(other ->
                    assertThat(journal).as(name + "'s journal").doesNotContain(other));
        }
        services.get(1).close();
        hosts.get(1).close();
        services.set(1, startService(1));
        assertThat(pendingOn(services.get(1))).containsExactly(change);
        runner.rollback(change, targets());
        assertThat(deviceStates()).containsOnly(FACTORY);
    }

    @Test
    void aNewChangeOnASwitchWithAPendingTrialIsRefusedByName() throws Exception {
        String change = runner.newChangeId();
        runner.apply(change, targets(), everywhere(withVoiceVlan()), Optional.of(Duration.ofMinutes(5)));

        assertThatThrownBy(() -> runner.apply(runner.newChangeId(), targets(), everywhere(FACTORY), Optional.empty()))
                .isInstanceOf(ChangeRunner.ChangeRefusedException.class)
                .hasMessageContaining("sw-1").hasMessageContaining(change);
        assertThat(deviceStates()).containsOnly(withVoiceVlan());
    }

    @Test
    void confirmAfterExpiryFailsAndChangesNothing() throws Exception {
        String change = runner.newChangeId();
        runner.apply(change, targets(), everywhere(withVoiceVlan()), Optional.of(Duration.ofSeconds(1)));
        eventually("every switch reverted", () -> allDevicesHold(FACTORY));

        assertThatThrownBy(() -> runner.confirm(change, targets())).isInstanceOf(TransactionAbortedException.class);
        assertThat(deviceStates()).containsOnly(FACTORY);
    }

    @Test
    void theCoordinatorVanishingBetweenPrepareAndCommitLeavesEverySwitchOldByTheDeadline() throws Exception {
        services.get(2).close();
        hosts.get(2).close();
        java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean(true);
        HookedVlanDevice crashing = new HookedVlanDevice(devices.get(2)).beforePush(() -> {
            if (armed.getAndSet(false)) {
                cliHost.close();  // the CLI dies while switch 3 prepares; no decision will ever come
            }
        });
        services.set(2, VlanSwitchProgram.start("sw-3", host("sw-3-again"), crashing, stateRoot.resolve("sw-3"),
                Clock.systemUTC()));
        Thread apply = Thread.ofVirtual().start(() -> {
            try {
                runner.apply(runner.newChangeId(), targets(), everywhere(withVoiceVlan()),
                        Optional.of(Duration.ofSeconds(2)));
            } catch (RuntimeException expected) {
                // The coordinator's own host is gone; how its caller fails does not matter here.
            }
        });

        eventually("every switch holds its old state", () -> allDevicesHold(FACTORY));
        eventually("no transaction left holding a switch service", () ->
                services.stream().allMatch(s -> s.program().service().host().liveTransactions() == 0));
        apply.join(Duration.ofSeconds(30));
    }

    /**
     * The corner that heuristics alone get wrong: the CLI dies during a
     * confirm's prepare, after two switches voted yes and while the third
     * fails to write its journal and so votes no. Resolving the in-doubt
     * confirm as committed at the deadline would keep the change on two
     * switches while the third reverts. Instead the two ask the third, learn
     * the confirm can never commit, and back it out at once: the trial stays
     * pending everywhere and every switch reverts at the deadline.
     *
     * <p>The journal's file is replaced by a FIFO: the third service's journal
     * write blocks on it until the test opens it (so the test knows the confirm
     * is preparing there), and then fails, as syncing a FIFO must.
     */
    @Test
    void aConfirmWhoseCoordinatorDiesWhileOneSwitchVotesNoIsBackedOutEverywhere() throws Exception {
        String change = runner.newChangeId();
        runner.apply(change, targets(), everywhere(withVoiceVlan()), Optional.of(Duration.ofSeconds(8)));
        Path blockingJournal = stateRoot.resolve("sw-3").resolve(DeviceJournal.FILE);
        Path fifo = blockingJournal.resolveSibling("journal.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        java.nio.file.Files.move(fifo, blockingJournal, java.nio.file.StandardCopyOption.ATOMIC_MOVE);

        Thread confirm = Thread.ofVirtual().start(() -> {
            try {
                runner.confirm(change, targets());
            } catch (RuntimeException expected) {
                // The coordinator's own host is gone; how its caller fails does not matter here.
            }
        });
        try (var journalWrite = java.nio.file.Files.newInputStream(blockingJournal)) {
            cliHost.close();  // sw-3 is writing its journal for the confirm: the CLI dies now
        }

        eventually("the confirm backed out on every switch, well before the deadline", () ->
                services.stream().allMatch(s -> s.program().service().host().liveTransactions() == 0));
        for (DeviceService<SwitchPart, VlanSwitchProgram> service : services) {
            assertThat(pendingOn(service)).as(service.name()).containsExactly(change);
        }
        java.nio.file.Files.delete(blockingJournal);  // sw-3's journal works again for the revert: it rewrites the file
        eventually("every switch reverted at the deadline", () -> allDevicesHold(FACTORY));
        confirm.join(Duration.ofSeconds(30));
    }

    @Test
    void aServiceRestartedDuringATrialStillRevertsOnTime() throws Exception {
        String change = runner.newChangeId();
        runner.apply(change, targets(), everywhere(withVoiceVlan()), Optional.of(Duration.ofSeconds(3)));

        services.get(1).close();
        hosts.get(1).close();  // the service's host goes away with it, as a killed process would
        services.set(1, startService(1));

        assertThat(pendingOn(services.get(1))).containsExactly(change);
        eventually("every switch reverted", () -> allDevicesHold(FACTORY));
    }
}
