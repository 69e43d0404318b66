package dev.waldoconf.cli;

import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.ChangeEngine;
import dev.waldoconf.engine.EngineException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code waldoconf apply FILE}: every switch moves to the plan's state in one transaction, or
 * none does; with {@code --trial} every switch reverts by itself unless confirmed in time.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = {"Applies a VLAN plan to every switch as one transaction: all switches change or none does.",
            "With --trial, every switch reverts by itself unless 'waldoconf confirm' comes in time."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:applied (or nothing to change, or --dry-run)",
            "1:refused by a switch or failed, and no switch changed; or declined at the prompt",
            "2:bad usage, invalid inventory or plan, or no terminal to confirm on and no --yes",
            "3:a switch or its service is unreachable",
            "4:a pending trial on a switch of the plan blocks the change",
            "5:no change engine in this build, or the lab could not be started"})
final class ApplyCommand extends SwitchCommand {
    @Parameters(index = "0", paramLabel = "FILE", description = "The VLAN plan (YAML), e.g. configs/vlan.yaml.")
    Path planFile;

    @Option(names = "--trial", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Apply as a trial: every switch reverts after DURATION (300s, 5m, 1h30m) unless confirmed.")
    Duration trial;

    @Option(names = {"-y", "--yes"}, description = "Apply without asking for confirmation.")
    boolean yes;

    @Option(names = "--dry-run", description = "Print the plan and change nothing.")
    boolean dryRun;

    ApplyCommand(CliContext context) {
        super(context);
    }

    @Override
    protected int run() throws CommandFailure, ConfigException, IOException {
        // Before the plan and the prompt, so an operator is not asked to go ahead with a change that cannot connect.
        checkLabAgreesOnTls();
        ResolvedPlan plan = resolve(planFile);
        printPlan(plan);
        if (plan.isEmpty()) {
            return ExitCodes.OK;
        }
        if (dryRun) {
            out().println("Dry run: nothing was changed.");
            return ExitCodes.OK;
        }
        if (!confirmed(plan)) {
            out().println("Apply cancelled; nothing was changed.");
            return ExitCodes.CHANGE_FAILED;
        }
        try (ChangeEngine engine = engine()) {
            ApplyResult result = engine.apply(plan, Optional.ofNullable(trial), ChangeReports.progress(out()));
            return report(result);
        } catch (EngineException e) {
            throw failure(e);
        }
    }

    /** Asks on the terminal unless --yes; without a terminal and without --yes, refuses. */
    private boolean confirmed(ResolvedPlan plan) throws CommandFailure {
        if (yes) {
            return true;
        }
        if (!context.terminal().isInteractive()) {
            throw new CommandFailure(ExitCodes.USAGE, "not applying without confirmation: there is no terminal to"
                    + " ask on. Pass --yes to apply non-interactively, or --dry-run to only print the plan.");
        }
        out().flush();
        String what = "Apply these changes to " + plan.changing().size() + " switch"
                + (plan.changing().size() == 1 ? "" : "es")
                + (trial == null ? "" : " as a " + DurationConverter.format(trial) + " trial") + "?";
        String answer = context.terminal().readLine(what + " Only 'yes' is accepted: ");
        return answer != null && answer.trim().equals("yes");
    }

    private int report(ApplyResult result) {
        switch (result.outcome()) {
            case COMMITTED -> out().println("Applied change " + result.changeId() + " to " + result.switches().size()
                    + " switches." + ChangeReports.note(result.message()));
            case TRIAL_PENDING -> out().println("Applied change " + result.changeId() + " as a trial: every switch"
                    + " reverts at " + result.trialDeadline().map(Object::toString).orElse("the deadline")
                    + " unless you run 'waldoconf confirm " + result.changeId() + "'."
                    + ChangeReports.note(result.message()));
            case REFUSED -> {
                err().println("error: change " + result.changeId() + " was refused; no switch changed."
                        + ChangeReports.note(result.message()));
                result.switches().stream().filter(s -> !s.ok())
                        .forEach(s -> err().println("  " + s.switchName() + ": " + s.detail()));
                return ExitCodes.CHANGE_FAILED;
            }
        }
        return ExitCodes.OK;
    }
}
