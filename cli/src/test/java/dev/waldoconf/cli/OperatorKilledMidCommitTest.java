package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.DelayingProxy;
import dev.waldoconf.lab.JavaProcess;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.service.SnapshotLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos run's stall, reproduced on purpose: a {@code waldoconf confirm} killed ({@code -9})
 * after every service voted yes on it and before it decided. Each service then holds the trial's
 * variables locked, in doubt, waiting for a coordinator that died with the process. Before the
 * operator coordinated from a durable slot ({@code CoordinatorSlot}), every later command ran as
 * a new host, nobody could answer, and {@code status} hung until the trial's deadline and beyond
 * (the long run's round 2 never started). Now the next command runs as the dead one's host with its
 * log, answers "backed out" (it never logged a commit), and the trial is pending again, to confirm.
 *
 * <p>The moment is hit every time, not by luck: the operator's messages to the last switch's
 * service go through a {@link DelayingProxy} that holds them back, so when the first two services
 * have journaled their prepare, the last one's prepare is provably still in the proxy; the operator
 * is killed then, and the proxy delivers that prepare afterwards, so the last service votes yes too
 * (to nobody). Real processes throughout: three switch agents, three {@code waldoconf serve}, and
 * each command its own {@code waldoconf} process, as in {@link ChaosRunTest}.
 */
@Timeout(600)
class OperatorKilledMidCommitTest {
    private static final Pattern CHANGE_ID = Pattern.compile("Applied change (\\S+) as a trial");
    /** How long any one command may take here; {@code status} hung far longer before the fix. */
    private static final Duration COMMAND_PATIENCE = Duration.ofSeconds(90);
    /** How long the proxy holds back each message to the last service: far longer than a prepare takes. */
    private static final long HOLD_BACK_MS = 800;
    private static final int VLAN = 100;

    @TempDir
    Path dir;

    @Test
    void aConfirmKilledAfterEveryYesVoteIsSettledByTheNextCommand() throws Exception {
        try (ChaosLab lab = ChaosLab.start(dir, 3)) {
            String change = applyTrial(lab);
            int last = lab.size() - 1;
            stopConfirmOnceAllButTheLastPrepared(lab, change, last, JavaProcess::kill);

            JavaProcess status = lab.operator("status-after-kill", "status");
            assertThat(finished(status)).as("status after the killed confirm ends (it hung for good before the"
                    + " operator's coordinator log); its output so far: %s", status.output()).hasValue(0);
            assertThat(status.output()).as("the killed confirm never logged a commit, so it was backed out and"
                    + " the trial is pending again").contains("Trial " + change + " reverts at");

            JavaProcess confirm = lab.operator("confirm-again", "confirm", change);
            assertThat(finished(confirm)).as("confirming again: %s", confirm.output()).hasValue(0);
            List<SwitchState> states = lab.readAll();
            assertThat(states).as("every switch keeps the confirmed VLAN %d", VLAN)
                    .allSatisfy(state -> assertThat(state.vlans()).containsKey(VLAN));
            JavaProcess after = lab.operator("status-after-confirm", "status");
            assertThat(finished(after)).hasValue(0);
            assertThat(after.output()).contains("No pending trials.");
        }
    }

    /**
     * The confirm is frozen ({@code SIGSTOP}) at the same moment instead: its process, and so its
     * coordinator slot, lives on, and the services, which stop hearing its heartbeats, hold the
     * trial in doubt. {@code status} runs from another slot and cannot settle it; it must not wait
     * for it either: within its patience it reports the switches undecided, says why, and exits 4.
     * Once the confirm is thawed and has ended, the next command settles what is left.
     */
    @Test
    void statusReportsSwitchesHeldByAStoppedConfirmAsUndecidedInsteadOfWaiting() throws Exception {
        try (ChaosLab lab = ChaosLab.start(dir, 3)) {
            String change = applyTrial(lab);
            JavaProcess confirm = stopConfirmOnceAllButTheLastPrepared(lab, change, lab.size() - 1,
                    process -> process.signal("STOP"));

            JavaProcess status = lab.operator("status-while-stopped", "status");
            assertThat(finished(status)).as("status while the confirm is stopped ends, saying what holds the"
                    + " switches: %s", status.output()).hasValue(ExitCodes.CONFLICT);
            assertThat(status.output()).contains("cx-1: undecided (a change still being decided holds its state");

            confirm.signal("CONT");
            finished(confirm);
            JavaProcess after = lab.operator("status-after-thaw", "status");
            assertThat(finished(after)).as("status once the confirm ended: %s", after.output()).hasValue(0);
            assertThat(lab.readAll()).as("the trial's VLAN stays on every switch, confirmed or pending")
                    .allSatisfy(state -> assertThat(state.vlans()).containsKey(VLAN));
        }
    }

    /** Applies a plan creating VLAN {@value #VLAN} as a long trial and returns its change id. */
    private String applyTrial(ChaosLab lab) throws Exception {
        Path plan = lab.dir().resolve("plan.yaml");
        Files.writeString(plan, "vlans:\n  - id: " + VLAN + "\n    name: doubt\n    ports:\n      - group: all\n"
                + "        tagged: 1\n");
        JavaProcess apply = lab.operator("apply", "apply", plan.toString(), "--yes", "--trial", "600s");
        assertThat(finished(apply)).as("the trial applies: %s", apply.output()).hasValue(0);
        Matcher id = CHANGE_ID.matcher(apply.output());
        assertThat(id.find()).as("apply names its trial: %s", apply.output()).isTrue();
        return id.group(1);
    }

    /** What a test does to the confirm at the moment every other service prepared. */
    private interface Stop {
        void at(JavaProcess confirm) throws Exception;
    }

    /**
     * Runs {@code confirm CHANGE} reaching service {@code last} through a proxy that holds its
     * messages back, and stops it with {@code stop} once every other service journaled its prepare:
     * they voted yes, the last one's prepare is still in the proxy, so the confirm cannot have been
     * decided. Returns once the proxy delivered that prepare too (the last service votes yes to a
     * coordinator that cannot answer).
     */
    private JavaProcess stopConfirmOnceAllButTheLastPrepared(ChaosLab lab, String change, int last, Stop stop)
            throws Exception {
        try (DelayingProxy proxy = DelayingProxy.start(lab.serviceAddress(last))) {
            proxy.delay(HOLD_BACK_MS);
            JavaProcess confirm = lab.operator("confirm-stopped", lab.inventoryReaching(last, proxy.address()),
                    "confirm", change);
            long giveUpAt = System.nanoTime() + COMMAND_PATIENCE.toNanos();
            while (!preparedOnAllBut(lab, last)) {
                assertThat(confirm.isAlive()).as("the confirm still runs before every other service prepared"
                        + " (else this test does not test what it says); its output: %s; the last service's: %s",
                        confirm.output(), lab.process(ChaosLab.Role.SERVICE, last).output()).isTrue();
                assertThat(System.nanoTime()).as("the other services prepared the confirm").isLessThan(giveUpAt);
                Thread.sleep(5);
            }
            stop.at(confirm);
            Thread.sleep(HOLD_BACK_MS + 1000);
            return confirm;
        }
    }

    /** Whether every service but {@code last} journaled a transaction it prepared (the confirm). */
    private static boolean preparedOnAllBut(ChaosLab lab, int last) throws IOException {
        for (int i = 0; i < lab.size(); i++) {
            if (i == last) {
                continue;
            }
            String journal = SnapshotLog.read(lab.journal(i)); // the current version: older ones hold the apply's entry
            if (journal == null || journal.lines().noneMatch(line -> line.startsWith("entry "))) {
                return false;
            }
        }
        return true;
    }

    /** The command's exit status, or empty if it still ran after {@link #COMMAND_PATIENCE} (then it is killed). */
    private static OptionalInt finished(JavaProcess command) throws InterruptedException {
        OptionalInt exit = command.exitWithin(COMMAND_PATIENCE);
        if (exit.isEmpty()) {
            command.kill();
        }
        return exit;
    }
}
