package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.EngineException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApplyCommandTest {
    @TempDir
    Path dir;
    CliHarness cli;
    FakeEngine engine;
    String inventory;
    String plan;

    @BeforeEach
    void files() throws Exception {
        cli = new CliHarness(dir);
        engine = new FakeEngine();
        cli.engine = engine;
        inventory = cli.write("inventory.yaml", CliHarness.INVENTORY).toString();
        plan = cli.write("plan.yaml", PlanCommandTest.PLAN).toString();
    }

    @Test
    void appliesWithTrialAndReportsTheDeadlineAndProgress() {
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--trial", "300s", "--yes", "-v");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(engine.appliedTrial).contains(Duration.ofSeconds(300));
        assertThat(engine.appliedPlan.changing()).hasSize(3);
        assertThat(result.out()).contains("Plan: 5 to add, 2 to change")
                .contains("  lab-1: prepared\n")
                .contains("Applied change c-42 as a trial: every switch reverts at 2026-01-01T00:05:00Z unless you run"
                        + " 'waldoconf confirm c-42'.");
    }

    @Test
    void withoutVerboseAPipeGetsNoLinePerSwitch() {
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--yes");
        assertThat(result.exitCode()).as(result.err()).isZero();
        // Over within the first count period: neither counts nor switch lines, just the plan and the outcome.
        assertThat(result.out()).doesNotContain("lab-1: prepared").doesNotContain("failed 0 of 3")
                .doesNotContain("\r").contains("Applied change c-42 to 3 switches.");
    }

    @Test
    void onATerminalTheProgressIsOneBarEndedBeforeThePlanAppliedAndTheOutcome() {
        cli.outputTerminal = true;
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--yes");
        assertThat(result.out()).contains("\r\033[K[########################] 3/3 prepared | prepared 3, failed 0 of 3"
                + " switches\nPlan " + plan).contains("\nApplied change c-42 to 3 switches.");
    }

    @Test
    void trialDurationsInMinutesAndCombinations() {
        cli.run("apply", plan, "-i", inventory, "--trial", "5m", "-y");
        assertThat(engine.appliedTrial).contains(Duration.ofMinutes(5));
        cli.run("apply", plan, "-i", inventory, "--trial", "1h30m", "-y");
        assertThat(engine.appliedTrial).contains(Duration.ofMinutes(90));
        cli.run("apply", plan, "-i", inventory, "-y");
        assertThat(engine.appliedTrial).isEmpty();
    }

    @Test
    void badDurationIsAUsageError() {
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--trial", "5x", "--yes");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).startsWith("Invalid value for option '--trial': '5x' is not a duration like 300s,"
                + " 5m or 1h30m");
        assertThat(cli.run("apply", plan, "-i", inventory, "--trial", "0s", "--yes").err())
                .contains("'0s' must be more than 0 and at most 7d");
        assertThat(engine.calls).isEmpty();
    }

    @Test
    void dryRunPrintsThePlanAndChangesNothing() {
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--dry-run");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("+ create VLAN 10 'users'").endsWith("Dry run: nothing was changed.\n");
        assertThat(engine.calls).isEmpty();
    }

    @Test
    void withoutTerminalAndWithoutYesItRefuses() {
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).isEqualTo("error: not applying without confirmation: there is no terminal to ask"
                + " on. Pass --yes to apply non-interactively, or --dry-run to only print the plan.\n");
        assertThat(engine.calls).isEmpty();
    }

    @Test
    void withoutTerminalAnAnswerFromAPipeIsTakenAsAtTheTerminal() {
        cli.answers.add("y");  // as `yes | waldoconf apply ...` gives it: not interactive, a line to read
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--trial", "5m");
        assertThat(result.exitCode()).isZero();
        assertThat(cli.prompts).containsExactly("Apply these changes to 3 switches as a 5m trial? Reading the"
                + " answer from standard input ('yes' or 'y'): ");
        assertThat(engine.calls).containsExactly("apply");
    }

    @Test
    void withoutTerminalAnyOtherAnswerFromAPipeCancels() {
        cli.answers.add("n");
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--trial", "5m");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.CHANGE_FAILED);
        assertThat(result.out()).endsWith("Apply cancelled; nothing was changed.\n");
        assertThat(engine.calls).isEmpty();
    }

    @Test
    void onATerminalItAsksAndOnlyYesGoesAhead() {
        cli.interactive = true;
        cli.answers.add("y");
        CliHarness.Result declined = cli.run("apply", plan, "-i", inventory, "--trial", "5m");
        assertThat(declined.exitCode()).isEqualTo(ExitCodes.CHANGE_FAILED);
        assertThat(declined.out()).endsWith("Apply cancelled; nothing was changed.\n");
        assertThat(cli.prompts).containsExactly("Apply these changes to 3 switches as a 5m trial? Only 'yes' is"
                + " accepted: ");
        assertThat(engine.calls).isEmpty();
        cli.answers.add("yes");
        assertThat(cli.run("apply", plan, "-i", inventory, "--trial", "5m").exitCode()).isZero();
        assertThat(engine.calls).containsExactly("apply");
    }

    /** The plan as the harness's switches resolve it now, through a --yes apply that records it. */
    private dev.waldoconf.config.ResolvedPlan planAsResolvedNow() {
        FakeEngine recorder = new FakeEngine();
        cli.engine = recorder;
        assertThat(cli.run("apply", plan, "-i", inventory, "--yes").exitCode()).isZero();
        cli.engine = engine;
        return recorder.appliedPlan;
    }

    @Test
    void whenTheSwitchesChangedSinceThePreviewItShowsThePlanAgainAndAsksAgain() {
        cli.states.put("lab-1", dev.waldoconf.model.SwitchState.factoryDefault(24)
                .with(dev.waldoconf.model.Vlan.empty(10, "someone-else")));
        engine.replanned = planAsResolvedNow();
        cli.states.clear();
        engine.staleTimes = 1;
        cli.interactive = true;
        cli.answers.add("yes");
        cli.answers.add("yes");

        CliHarness.Result result = cli.run("apply", plan, "-i", inventory);

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(engine.calls).containsExactly("apply", "apply");
        assertThat(cli.prompts).hasSize(2);
        assertThat(result.out()).contains("The switches changed since the plan was shown (switch(es) lab-1 changed"
                + " since the preview; nothing was changed). The plan as it is now:")
                .contains("~ rename VLAN 10 'someone-else' -> 'users'")
                .contains("Applied change c-42 to 3 switches.");
        assertThat(engine.appliedChange.reviewed()).as("the plan shown the second time is the one applied")
                .contains(engine.replanned.fingerprints());
    }

    @Test
    void whenTheSwitchesKeepChangingItGivesUpAndChangesNothing() {
        cli.states.put("lab-1", dev.waldoconf.model.SwitchState.factoryDefault(24)
                .with(dev.waldoconf.model.Vlan.empty(10, "someone-else")));
        engine.replanned = planAsResolvedNow();
        cli.states.clear();
        engine.staleTimes = ApplyCommand.MAX_REPLANS;
        cli.interactive = true;
        for (int i = 0; i < ApplyCommand.MAX_REPLANS; i++) {
            cli.answers.add("yes");
        }

        CliHarness.Result result = cli.run("apply", plan, "-i", inventory);

        assertThat(result.exitCode()).isEqualTo(ExitCodes.CHANGE_FAILED);
        assertThat(result.err()).contains("the switches changed " + ApplyCommand.MAX_REPLANS + " times while you"
                + " were asked; nothing was changed");
        assertThat(engine.calls).hasSize(ApplyCommand.MAX_REPLANS);
    }

    @Test
    void withYesNoPreviewIsReadAndThePlanAppliedIsPrintedWithTheOutcome() {
        cli.states.put("lab-1", dev.waldoconf.model.SwitchState.factoryDefault(24)
                .with(dev.waldoconf.model.Vlan.empty(10, "someone-else")));

        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--yes");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(engine.calls).containsExactly("apply at-commit");
        assertThat(cli.switchReads).as("each switch read once, by the change's transaction").hasValue(3);
        assertThat(result.out()).startsWith("Applying " + plan + " to the switches of " + inventory + " as one"
                + " transaction: each switch is read inside it, and the plan it applied follows.\n")
                .contains("~ rename VLAN 10 'someone-else' -> 'users'")
                .endsWith("Applied change c-42 to 3 switches.\n");
    }

    @Test
    void aSavedPlanIsAppliedWithoutAskingAndRefusingWhenTheSwitchesChanged() throws Exception {
        String saved = dir.resolve("plan.bin").toString();
        CliHarness.Result planned = cli.run("plan", plan, "-i", inventory, "-o", saved);
        assertThat(planned.exitCode()).as(planned.err()).isZero();
        assertThat(planned.out()).contains("Saved this plan to " + saved);

        CliHarness.Result applied = cli.run("apply", saved, "-i", inventory);
        assertThat(applied.exitCode()).as(applied.err()).isZero();
        assertThat(cli.prompts).isEmpty();
        assertThat(engine.calls).containsExactly("apply");

        cli.states.put("lab-2", dev.waldoconf.model.SwitchState.factoryDefault(24)
                .with(dev.waldoconf.model.Vlan.empty(10, "someone-else")));
        CliHarness.Result stale = cli.run("apply", saved, "-i", inventory);
        assertThat(stale.exitCode()).isEqualTo(ExitCodes.CHANGE_FAILED);
        assertThat(stale.err()).isEqualTo("error: the saved plan " + saved + " is stale: switch(es) lab-2 changed"
                + " since the plan was saved; nothing was changed. Make and review a new one with 'waldoconf plan"
                + " FILE -o " + saved + "'.\n");
        assertThat(engine.calls).hasSize(1);
    }

    @Test
    void aSavedPlanWhosePlanFileChangedIsRefused() throws Exception {
        String saved = dir.resolve("plan.bin").toString();
        cli.run("plan", plan, "-i", inventory, "-o", saved);
        cli.write("plan.yaml", PlanCommandTest.PLAN.replace("users", "staff"));
        CliHarness.Result stale = cli.run("apply", saved, "-i", inventory);
        assertThat(stale.exitCode()).isEqualTo(ExitCodes.CHANGE_FAILED);
        assertThat(stale.err()).contains("is stale: its plan file").contains("changed since the plan was saved");
        assertThat(engine.calls).isEmpty();
    }

    @Test
    void refusedChangeExitsWith1AndNamesTheSwitch() {
        engine.outcome = ApplyResult.Outcome.REFUSED;
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--yes");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.CHANGE_FAILED);
        assertThat(result.out()).contains("  lab-2: refused (commitFailed on VLAN 20)");
        assertThat(result.err()).isEqualTo("error: change c-42 was refused; no switch changed. lab-2 refused\n"
                + "  lab-2: refused: commitFailed on VLAN 20\n");
    }

    @Test
    void engineFailuresMapToExitCodes() {
        engine.failure = new EngineException(EngineException.Kind.CONFLICT,
                "switch lab-1 has pending trial c-41 (reverts at 12:00); confirm or roll it back first");
        CliHarness.Result conflict = cli.run("apply", plan, "-i", inventory, "--yes");
        assertThat(conflict.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(conflict.err()).isEqualTo("error: switch lab-1 has pending trial c-41 (reverts at 12:00); confirm"
                + " or roll it back first\n");
        engine.failure = new EngineException(EngineException.Kind.UNREACHABLE, "service of lab-3 does not answer");
        assertThat(cli.run("apply", plan, "-i", inventory, "--yes").exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
    }

    @Test
    void anOperatorWithoutCertificateExitsWith5AndIsToldHowToGetOne() {
        engine.failure = new EngineException(EngineException.Kind.UNAVAILABLE, "no operator certificate in"
                + " .waldoconf/operator; create the project CA and yours with 'waldoconf init'");
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--yes");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(result.err()).isEqualTo("error: no operator certificate in .waldoconf/operator; create the project"
                + " CA and yours with 'waldoconf init'\n");
    }

    @Test
    void aBugExitsWith6WithOneLineAndNoStackTrace() {
        engine.bug = new IllegalStateException("broken invariant");
        CliHarness.Result result = cli.run("apply", plan, "-i", inventory, "--yes");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.INTERNAL);
        assertThat(result.err()).isEqualTo("internal error: java.lang.IllegalStateException: broken invariant (a bug"
                + " in waldoconf; please report it with the command line you ran)\n");
    }

    @Test
    void aRefusedChangeExitsWith1AndAnUnreachableServiceWith3WithTheTlsHint() {
        engine.failure = new EngineException(EngineException.Kind.REFUSED, "lab-2 refused; no switch changed");
        CliHarness.Result refused = cli.run("apply", plan, "-i", inventory, "--yes");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.CHANGE_FAILED);
        assertThat(refused.err()).isEqualTo("error: lab-2 refused; no switch changed\n");
        engine.failure = new EngineException(EngineException.Kind.UNREACHABLE, "lab-1: not an SSL/TLS record");
        CliHarness.Result unreachable = cli.run("apply", plan, "-i", inventory, "--yes");
        assertThat(unreachable.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(unreachable.err()).startsWith("error: lab-1: not an SSL/TLS record; the service does not speak"
                + " TLS: it was started with --insecure");
    }

    @Test
    void nothingToChangeCallsNoEngine() throws Exception {
        String deleteOnly = cli.write("delete.yaml", "vlans:\n  - id: 30\n    absent: true\n").toString();
        CliHarness.Result result = cli.run("apply", deleteOnly, "-i", inventory);
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).endsWith("No changes: every switch already matches the plan.\n");
        assertThat(engine.calls).isEmpty();
        assertThat(Optional.ofNullable(engine.appliedPlan)).isEmpty();
    }
}
