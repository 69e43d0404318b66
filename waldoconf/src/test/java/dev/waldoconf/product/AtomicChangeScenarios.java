package dev.waldoconf.product;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.lab.LabClient;
import dev.waldoconf.lab.snmp.Oids;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.service.ChangeRunner;
import dev.waldoconf.service.OperatorOnSwitches;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

/**
 * The product's promises on eight lab switches, through the real SNMP driver and one real
 * service per switch over TLS: every switch moves, or none does; a trial reverts every switch by
 * itself unless confirmed, across a service crash or restart. Subclasses say where the switches
 * run (embedded, containers); the switches live for the class, and each test starts from
 * switches without the test's VLANs and without faults.
 */
abstract class AtomicChangeScenarios {
    /** The switch that misbehaves in the fault scenarios: one in the middle, not the first or last. */
    private static final int FAULTY = 4;
    private static final int DESTROY = 6;
    /** A trial no test outlives, for the crash scenarios that must be decided before any deadline acts. */
    private static final Duration LONG_TRIAL = Duration.ofSeconds(600);
    /** How long the switches get to agree after a crash: far below {@link #LONG_TRIAL}. */
    private static final Duration RECOVERY_PATIENCE = Duration.ofSeconds(45);

    @TempDir
    Path state;

    private Fleet fleet;
    private List<SwitchState> before;

    /** The class's switches, started once. */
    abstract List<Fleet.Switch> switches();

    @BeforeEach
    void serveCleanSwitches() throws Exception {
        for (Fleet.Switch sw : switches()) {
            reset(sw);
        }
        fleet = new Fleet(switches(), state).serve();
        before = fleet.readAll();
        assertThat(Fleet.changedAll(before)).as("the change differs from what every switch holds")
                .doesNotContainAnyElementsOf(before);
    }

    /** Clears the switch's faults and removes the VLANs a scenario adds, straight over SNMP. */
    private static void reset(Fleet.Switch sw) throws IOException {
        try (var control = dev.waldoconf.lab.control.ControlClient.connect(sw.control());
             LabClient client = LabClient.v2c(sw.snmp(), "private", Fleet.SNMP_TIMEOUT_MS)) {
            control.command("clear");
            for (int vlan : List.of(20, 30)) {
                OID row = new OID(Oids.DOT1Q_VLAN_STATIC_ROW_STATUS).append(vlan);
                client.set(new VariableBinding(row, new Integer32(DESTROY)));
            }
        }
    }

    @AfterEach
    void stopServices() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void applyShowsTheNewVlansOnEverySwitch() throws Exception {
        Fleet.apply(fleet.operator(), Fleet.changedAll(before), Optional.empty());

        assertThat(fleet.readAll()).containsExactlyElementsOf(Fleet.changedAll(before));
    }

    @Test
    void aSwitchThatRefusesLeavesEverySwitchUnchanged() throws Exception {
        fleet.control(FAULTY, "refuse 30 commitFailed");

        assertThatThrownBy(() -> Fleet.apply(fleet.operator(), Fleet.changedAll(before), Optional.empty()))
                .isInstanceOf(RuntimeException.class).hasMessageContaining(fleet.get(FAULTY).name());
        assertThat(fleet.readAll()).containsExactlyElementsOf(before);
    }

    @Test
    void anExpiredTrialRevertsEverySwitch() throws Exception {
        OperatorOnSwitches operator = fleet.operator();
        Fleet.apply(operator, Fleet.changedAll(before), Optional.of(Duration.ofSeconds(4)));
        assertThat(fleet.readAll()).as("during the trial").containsExactlyElementsOf(Fleet.changedAll(before));
        operator.close();  // the CLI exits after apply; the services revert without it

        fleet.await("every switch reverted", before::equals);
    }

    @Test
    void aConfirmedTrialIsKeptPastItsDeadline() throws Exception {
        OperatorOnSwitches operator = fleet.operator();
        Duration trial = Duration.ofSeconds(8);
        Instant deadline = Instant.now().plus(trial);
        String change = Fleet.apply(operator, Fleet.changedAll(before), Optional.of(trial));
        fleet.operator().runner().confirm(change, operator.targets());

        Thread.sleep(Math.max(0, Duration.between(Instant.now(), deadline).toMillis()) + 3000);
        assertThat(fleet.readAll()).containsExactlyElementsOf(Fleet.changedAll(before));
        assertThat(operator.runner().pendingTrials(operator.targets())).noneMatch(ChangeRunner.PendingTrial::pending);
    }

    /**
     * The service stops inside its prepare; once it is back, every switch must be old. The trial is
     * {@link #LONG_TRIAL} and the switches get {@link #RECOVERY_PATIENCE} to get there, so the
     * deadline cannot be what puts them back: were the change committed on the other switches and
     * backed out on this one, they would still differ when the wait ends, and the test would fail.
     */
    @Test
    void aServiceKilledMidApplyLeavesNothingChanged() throws Exception {
        OperatorOnSwitches operator = fleet.operator();
        fleet.control(FAULTY, "delay 300");  // its prepare takes a few seconds: time to kill the service in it
        CompletableFuture<String> apply = CompletableFuture.supplyAsync(
                () -> Fleet.apply(operator, Fleet.changedAll(before), Optional.of(LONG_TRIAL)));

        awaitPrepareStarted(FAULTY);
        fleet.stopService(FAULTY);
        fleet.control(FAULTY, "clear");
        assertThat(apply).as("the apply fails").failsWithin(Fleet.PATIENCE);
        fleet.restartService(FAULTY);

        fleet.await("every switch back to its old state, long before the trial's deadline", before::equals,
                RECOVERY_PATIENCE);
    }

    /** Waits until switch {@code index} took the first SETs of a prepare (its VLAN 20 row exists). */
    private void awaitPrepareStarted(int index) throws Exception {
        long giveUpAt = System.nanoTime() + Fleet.PATIENCE.toNanos();
        while (!fleet.read(index).vlans().containsKey(20)) {
            assertThat(System.nanoTime()).as("switch %d started preparing", index).isLessThan(giveUpAt);
            Thread.sleep(50);
        }
    }

    @Test
    void aServiceRestartedDuringATrialStillRevertsItsSwitch() throws Exception {
        OperatorOnSwitches operator = fleet.operator();
        Fleet.apply(operator, Fleet.changedAll(before), Optional.of(Duration.ofSeconds(6)));
        operator.close();
        fleet.stopService(FAULTY);
        fleet.restartService(FAULTY);

        fleet.await("every switch reverted", before::equals);
    }

    @Test
    void aServiceDownAtTheDeadlineRevertsItsSwitchOnceBack() throws Exception {
        OperatorOnSwitches operator = fleet.operator();
        // Stopped before the operator's session closes (which may wait for acknowledgements), with a
        // trial long enough that a loaded machine still stops it before the deadline: a CI run under
        // load once reached the 3 s deadline first, and the service reverted its switch before it stopped.
        Fleet.apply(operator, Fleet.changedAll(before), Optional.of(Duration.ofSeconds(6)));
        fleet.stopService(FAULTY);
        operator.close();

        List<SwitchState> whileDown = fleet.await("every other switch reverted", states -> {
            for (int i = 0; i < states.size(); i++) {
                if (i != FAULTY && !states.get(i).equals(before.get(i))) {
                    return false;
                }
            }
            return true;
        });
        assertThat(whileDown.get(FAULTY)).as("no service reverts it while down")
                .isEqualTo(Fleet.changed(before.get(FAULTY)));
        fleet.restartService(FAULTY);

        fleet.await("every switch reverted", before::equals);
    }
}
