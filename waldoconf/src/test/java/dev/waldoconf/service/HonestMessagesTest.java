package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.model.SwitchState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14's misleading messages: a refusal names exactly the switch that refused (lab-1 is not
 * part of switch-lab-12), and a change that stopped part-way says which switches may hold what.
 */
@Timeout(120)
class HonestMessagesTest {
    @TempDir
    Path dir;

    @Test
    void theRefusingSwitchIsFoundByItsExactNameNeverByAPartOfAnother() {
        List<String> names = List.of("lab-1", "lab-12");
        assertThat(ChangeMessages.switchNamedIn("WaldoConfApply.apply: binding 'snmp' on host switch-lab-12 voted"
                + " no: lab-12: commitFailed on VLAN 20", names)).contains("lab-12");
        assertThat(ChangeMessages.switchNamedIn("lab-1: no answer within 3000 ms", names)).contains("lab-1");
        assertThat(ChangeMessages.switchNamedIn("switch lab-123 refused", names)).isEmpty();
    }

    @Test
    void aSwitchThatRefusesIsNamedAndNoOtherSwitchIsBlamed() throws Exception {
        MemoryVlanDevice lab1 = new MemoryVlanDevice("lab-1", 8, SwitchState.factoryDefault(8));
        MemoryVlanDevice lab12 = new MemoryVlanDevice("lab-12", 8, SwitchState.factoryDefault(8));
        lab12.refuseVlans(Set.of(20));
        try (ServedSwitches served = ServedSwitches.inMemory(dir, List.of(lab1, lab12))) {
            ResolvedPlan preview = served.preview(served.plan("""
                    vlans:
                      - id: 20
                        name: voice
                        ports:
                          - group: all
                            tagged: 7
                    """));

            ApplyResult result = served.apply(preview, true);

            assertThat(result.outcome()).isEqualTo(ApplyResult.Outcome.REFUSED);
            assertThat(result.switches()).extracting(ApplyResult.SwitchOutcome::switchName,
                    ApplyResult.SwitchOutcome::ok).containsExactly(
                            org.assertj.core.groups.Tuple.tuple("lab-1", true),
                            org.assertj.core.groups.Tuple.tuple("lab-12", false));
            assertThat(result.message()).contains("no switch was changed");
            assertThat(served.readAll().values()).containsOnly(SwitchState.factoryDefault(8));
        }
    }

    /**
     * A switch someone writes to as WaldoConf's push begins, after the transaction read it: they
     * create VLAN 20, which the change creates too, named otherwise.
     */
    private record WrittenDuringTheChange(MemoryVlanDevice device) implements dev.waldoconf.device.VlanDevice {
        @Override
        public String name() {
            return device.name();
        }

        @Override
        public SwitchState read() throws dev.waldoconf.device.DeviceException {
            return device.read();
        }

        @Override
        public SwitchState push(UnaryOperator<SwitchState> target) throws dev.waldoconf.device.DeviceException {
            if (!device.read().vlans().containsKey(20)) {
                device.push(device.read().with(dev.waldoconf.model.Vlan.empty(20, "phones")));
            }
            return device.push(target);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aSwitchWrittenBetweenTheReadAndThePushVotesNoAndKeepsTheOtherWrite() throws Exception {
        MemoryVlanDevice lab1 = new MemoryVlanDevice("lab-1", 8, SwitchState.factoryDefault(8));
        MemoryVlanDevice lab2 = new MemoryVlanDevice("lab-2", 8, SwitchState.factoryDefault(8));
        try (ServedSwitches served = ServedSwitches.inMemory(dir, List.of(lab1, new WrittenDuringTheChange(lab2)))) {
            ResolvedPlan preview = served.preview(served.plan("""
                    vlans:
                      - id: 20
                        name: voice
                        ports:
                          - group: all
                            tagged: 7
                    """));

            ApplyResult result = served.apply(preview, true);

            assertThat(result.outcome()).isEqualTo(ApplyResult.Outcome.REFUSED);
            assertThat(result.message()).contains("lab-2: the switch was changed by someone else while this change"
                    + " was being made");
            assertThat(result.switches()).filteredOn(outcome -> !outcome.ok())
                    .extracting(ApplyResult.SwitchOutcome::switchName).containsExactly("lab-2");
            assertThat(lab1.read()).isEqualTo(SwitchState.factoryDefault(8));
            assertThat(lab2.read()).as("the other write stays; the change was undone")
                    .isEqualTo(SwitchState.factoryDefault(8).with(dev.waldoconf.model.Vlan.empty(20, "phones")));
        }
    }

    /** A switch whose push waits, after its first SET went out, until the test lets it go on. */
    private record HeldInPrepare(MemoryVlanDevice device, java.util.concurrent.CountDownLatch pushing,
            java.util.concurrent.CountDownLatch release) implements dev.waldoconf.device.VlanDevice {
        @Override
        public String name() {
            return device.name();
        }

        @Override
        public SwitchState read() throws dev.waldoconf.device.DeviceException {
            return device.read();
        }

        @Override
        public SwitchState push(UnaryOperator<SwitchState> target) throws dev.waldoconf.device.DeviceException {
            SwitchState before = device.push(target);
            pushing.countDown();
            try {
                release.await(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return before;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aServiceLostDuringTheCommitIsNamedAsOneThatMayHoldTheChange() throws Exception {
        MemoryVlanDevice lab1 = new MemoryVlanDevice("lab-1", 8, SwitchState.factoryDefault(8));
        MemoryVlanDevice lab2 = new MemoryVlanDevice("lab-2", 8, SwitchState.factoryDefault(8));
        var pushing = new java.util.concurrent.CountDownLatch(1);
        var release = new java.util.concurrent.CountDownLatch(1);
        try (ServedSwitches served = ServedSwitches.inMemory(dir,
                List.of(lab1, new HeldInPrepare(lab2, pushing, release)))) {
            ResolvedPlan preview = served.preview(served.plan("""
                    vlans:
                      - id: 20
                        name: voice
                        ports:
                          - group: all
                            tagged: 7
                    """));
            var apply = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return served.apply(preview, true).message();
                } catch (Exception e) {
                    return e.getClass().getSimpleName() + ": " + e.getMessage();
                }
            });
            assertThat(pushing.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("lab-2 started its push").isTrue();
            served.stopService("lab-2");
            release.countDown();

            String message = apply.get(90, java.util.concurrent.TimeUnit.SECONDS);

            assertThat(message).doesNotContain("no switch was changed")
                    .contains("Switches that may hold it: lab-2 (lost during the commit)");
            assertThat(lab1.read()).as("the switch the operator still reached was undone")
                    .isEqualTo(SwitchState.factoryDefault(8));
        }
    }

    /**
     * An error of a service program's own logic backs the transaction out everywhere: the message
     * says nothing changed, and never that a switch may hold the change (as it said when such an
     * error was taken for a lost switch).
     */
    @Test
    void aServiceProgramErrorSaysNothingChangedAndWhereTheFaultIs() {
        String message = ChangeMessages.failedInServiceProgram("c1", "missing map key 60 in member_changes");
        assertThat(message).contains("missing map key 60 in member_changes").contains("no switch was changed")
                .contains("service program").doesNotContain("may hold it");
    }

    @Test
    void aChangeThatStoppedBeforeItsReadsSaysNothingChanged() {
        assertThat(ChangeMessages.interrupted("c1", "host 'switch-lab-2' is unreachable", List.of(), false,
                Instant.EPOCH)).isEqualTo("change c1 did not start: host 'switch-lab-2' is unreachable; no switch"
                        + " was changed");
    }

    @Test
    void aChangeThatStoppedDuringItsCommitNamesTheSwitchesThatMayHoldItAndUntilWhen() {
        String message = ChangeMessages.interrupted("c1", "the coordinator lost a participant",
                List.of("lab-1", "lab-2"), false, Instant.parse("2026-11-25T01:00:00Z"));
        assertThat(message).doesNotContain("no switch was changed")
                .contains("Switches that may hold it: lab-1, lab-2 (lost during the commit)")
                .contains("as an unconfirmed trial")
                .contains("reverts it by itself at 2026-11-25T01:00:00Z at the latest")
                .contains("'waldoconf status'");
    }

    @Test
    void aPlainApplyWhoseConfirmFailedSaysItIsATrialNowAndHowToKeepOrUndoIt() {
        ChangeRunner.UnconfirmedException unconfirmed = new ChangeRunner.UnconfirmedException("c7",
                new ChangeRunner.Applied(Instant.parse("2026-11-25T01:02:00Z"), List.of("lab-1", "lab-3")),
                new dev.waldo.runtime.NetworkException("host 'switch-lab-3' is unreachable"));
        assertThat(ChangeMessages.unconfirmed(unconfirmed))
                .startsWith("change c7 was made on lab-1, lab-3, but the step that keeps it failed (host"
                        + " 'switch-lab-3' is unreachable)")
                .contains("reverts by itself at 2026-11-25T01:02:00Z")
                .contains("'waldoconf confirm c7'").contains("'waldoconf rollback c7'");
    }
}
