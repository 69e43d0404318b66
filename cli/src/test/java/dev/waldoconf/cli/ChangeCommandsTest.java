package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.StatusReport;
import dev.waldoconf.model.VlanChange;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** confirm, rollback, status and serve: options reach the engine, results and failures reach the operator. */
class ChangeCommandsTest {
    @TempDir
    Path dir;
    CliHarness cli;
    FakeEngine engine;
    String inventory;

    @BeforeEach
    void files() throws Exception {
        cli = new CliHarness(dir);
        engine = new FakeEngine();
        cli.engine = engine;
        inventory = cli.write("inventory.yaml", CliHarness.INVENTORY).toString();
    }

    @Test
    void confirmPassesTheIdOrNone() {
        CliHarness.Result result = cli.run("confirm", "c-7", "-i", inventory);
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).isEqualTo("Confirmed change c-7 on lab-1, lab-2.\n");
        cli.run("confirm", "-i", inventory);
        assertThat(engine.calls).containsExactly("confirm c-7", "confirm -");
    }

    /** At a thousand switches a confirm takes a while: it shows progress as apply and rollback do. */
    @Test
    void confirmShowsEachSwitchKeepingTheChangeWhenVerbose() {
        CliHarness.Result result = cli.run("confirm", "c-7", "-v", "-i", inventory);
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).isEqualTo("""
                  lab-1: committed (confirmed)
                  lab-2: committed (confirmed)
                Confirmed change c-7 on lab-1, lab-2.
                """);
    }

    @Test
    void rollbackWithNoSuchChangeExitsWith4() {
        engine.failure = new EngineException(EngineException.Kind.CONFLICT, "no pending trial to roll back; 'waldoconf"
                + " status' lists them");
        CliHarness.Result result = cli.run("rollback", "-i", inventory);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(result.err()).isEqualTo("error: no pending trial to roll back; 'waldoconf status' lists them\n");
        assertThat(engine.calls).containsExactly("rollback -");
    }

    @Test
    void eachEngineFailureReachesItsExitCodeThroughOneMapper() {
        Map<EngineException.Kind, Integer> expected = Map.of(EngineException.Kind.REFUSED, ExitCodes.CHANGE_FAILED,
                EngineException.Kind.UNREACHABLE, ExitCodes.UNREACHABLE, EngineException.Kind.CONFLICT,
                ExitCodes.CONFLICT, EngineException.Kind.UNAVAILABLE, ExitCodes.UNAVAILABLE);
        for (String command : List.of("confirm", "rollback", "status")) {
            expected.forEach((kind, exitCode) -> {
                engine.failure = new EngineException(kind, command + " failed as " + kind);
                CliHarness.Result result = cli.run(command, "-i", inventory);
                assertThat(result.exitCode()).as(command + " " + kind).isEqualTo(exitCode);
                assertThat(result.err()).as(command + " " + kind).isEqualTo("error: " + command + " failed as " + kind
                        + "\n");
            });
        }
        engine.failure = null;
        engine.bug = new NullPointerException("oops");
        CliHarness.Result bug = cli.run("confirm", "-i", inventory);
        assertThat(bug.exitCode()).isEqualTo(ExitCodes.INTERNAL);
        assertThat(bug.err()).startsWith("internal error: java.lang.NullPointerException: oops").doesNotContain("\tat ");
    }

    @Test
    void anInvalidInventoryExitsWith2WithItsProblems() throws Exception {
        String bad = cli.write("bad-inventory.yaml", "switches: 3\n").toString();
        CliHarness.Result result = cli.run("confirm", "-i", bad);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).startsWith(bad + ":").contains("; nothing was changed. Fix ");
        assertThat(engine.calls).isEmpty();
    }

    @Test
    void statusListsTrialsReachabilityAndDrift() {
        engine.status = new StatusReport(
                List.of(new StatusReport.PendingTrial("c-42", Instant.parse("2026-01-01T00:05:00Z"),
                        List.of("lab-1", "lab-2"))),
                List.of(new StatusReport.SwitchStatus("lab-1", true, List.of(), ""),
                        new StatusReport.SwitchStatus("lab-2", true, List.of(new VlanChange.CreateVlan(10, "users")),
                                ""),
                        new StatusReport.SwitchStatus("lab-3", false, List.of(), "no answer within 2000 ms")));
        CliHarness.Result result = cli.run("status", "-i", inventory);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(result.out()).contains("Trial c-42 reverts at 2026-01-01T00:05:00Z (in 0s) on lab-1, lab-2;"
                        + " 'waldoconf confirm c-42' keeps it.")
                .contains("  lab-1: reachable\n")
                .contains("  lab-2: reachable, drifted:\n      create VLAN 10 'users'\n")
                .contains("  lab-3: unreachable (no answer within 2000 ms)\n");
    }

    /** A switch held by a change in doubt is named as such, with why, and status exits 4 rather than hanging or 0. */
    @Test
    void statusNamesUndecidedSwitchesAndExitsWithConflict() {
        engine.status = new StatusReport(List.of(),
                List.of(new StatusReport.SwitchStatus("lab-1", true, List.of(), ""),
                        StatusReport.SwitchStatus.undecided("lab-2", "a change still being decided holds its state")));
        CliHarness.Result result = cli.run("status", "-i", inventory);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(result.out()).contains("  lab-1: reachable\n")
                .contains("  lab-2: undecided (a change still being decided holds its state)\n");
    }

    @Test
    void commandsThatNeedAnInventoryDoNotStartALab() {
        CliHarness.Result result = cli.run("status", "--lab-dir", dir.resolve("nolab").toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("no --inventory given and no lab running in " + dir.resolve("nolab"));
        assertThat(cli.labs).isEmpty();
    }

    @Test
    void serveStartsTheNamedSwitchsService() {
        CliHarness.Result result = cli.run("serve", "--switch", "lab-2", "-i", inventory);
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(engine.calls).containsExactly("serve lab-2");
        CliHarness.Result unknown = cli.run("serve", "--switch", "lab-9", "-i", inventory);
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).isEqualTo("error: no switch named 'lab-9' in " + inventory
                + "; known: lab-1, lab-2, lab-3\n");
    }
}
