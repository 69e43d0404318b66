package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.engine.ApplyResult;
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
            "2:bad usage, invalid inventory or plan (also at commit), or no --yes and nothing to answer (no terminal, no input)",
            "3:a switch or its service is unreachable (the message says which switches may hold what)",
            "4:a pending trial on a switch of the plan blocks the change",
            "5:this operator has no certificate (run 'waldoconf init'), or the lab could not be started"},
        footerHeading = "%nStale plans:%n", footer = {
            "The plan shows a fingerprint per switch. If a switch's managed state changes before the change",
            "commits, nothing is changed and the plan is shown again to ask once more. With --yes nobody reviews",
            "a preview, so none is made: each switch is read once, inside the transaction, the plan is applied as",
            "it resolves against those reads (VLANs it does not manage keep what they hold then), and the plan",
            "applied is printed once the change has committed."})
final class ApplyCommand extends SwitchCommand {
    @Parameters(index = "0", paramLabel = "FILE", description = "The VLAN plan (YAML), e.g. configs/vlan.yaml, or a"
            + " plan saved by 'waldoconf plan FILE -o PLAN' (applied without asking, refused if stale).")
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

    /** How often apply shows a plan again because the switches changed under it, before it gives up. */
    static final int MAX_REPLANS = 3;

    @Override
    protected int run() throws Exception {
        // Before the plan and the prompt, so an operator is not asked to go ahead with a change that cannot connect.
        checkLabAgreesOnTls();
        if (SavedPlan.isSaved(planFile)) {
            return applySaved(SavedPlan.read(planFile));
        }
        if (yes && !dryRun) {
            return applyUnreviewed();
        }
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
        try (WaldoConf waldoconf = waldoconf()) {
            for (int replans = 0; ; replans++) {
                // What was shown is what is applied: a switch whose managed state changed since makes
                // the engine refuse.
                ApplyResult result = apply(waldoconf, plan, true);
                if (result.outcome() != ApplyResult.Outcome.STALE) {
                    return report(result);
                }
                plan = result.plan().orElseThrow();
                out().println("The switches changed since the plan was shown (" + result.message() + "). The plan"
                        + " as it is now:");
                printPlan(plan);
                if (plan.isEmpty()) {
                    return ExitCodes.OK;
                }
                if (replans + 1 >= MAX_REPLANS) {
                    throw new CommandFailure(ExitCodes.CHANGE_FAILED, "the switches changed " + MAX_REPLANS
                            + " times while you were asked; nothing was changed. Run the command again when they"
                            + " are quiet.");
                }
                if (!confirmed(plan)) {
                    out().println("Apply cancelled; nothing was changed.");
                    return ExitCodes.CHANGE_FAILED;
                }
            }
        }
    }

    /**
     * Applies the plan with --yes: nobody reviews a preview, so none is read. The switches are read
     * once, inside the change's transaction, the plan is applied as it resolves against those
     * reads, and the plan applied is printed with the outcome.
     */
    private int applyUnreviewed() throws Exception {
        Inventory inventory = inventory(true);
        out().println("Applying " + planFile + " to the switches of " + show(inventory.file()) + " as one"
                + " transaction: each switch is read inside it, and the plan it applied follows.");
        ApplyResult result;
        try (WaldoConf waldoconf = waldoconf();
             ProgressBoard progress = progress(inventory.switches().size())) {
            result = waldoconf.apply(planFile, inventory, Optional.ofNullable(trial), progress);
        }
        result.plan().ifPresent(this::printPlan);
        return report(result);
    }

    /**
     * Applies a plan saved by {@code plan -o}: it was reviewed then, so nobody is asked; if the plan
     * file or any switch's managed state changed since, nothing is changed.
     */
    private int applySaved(SavedPlan saved) throws Exception {
        ResolvedPlan plan = resolve(saved.planFile());
        printPlan(plan);
        String stale = saved.staleness(plan);
        if (!stale.isEmpty()) {
            throw staleSavedPlan(stale);
        }
        if (plan.isEmpty()) {
            return ExitCodes.OK;
        }
        if (dryRun) {
            out().println("Dry run: nothing was changed.");
            return ExitCodes.OK;
        }
        try (WaldoConf waldoconf = waldoconf()) {
            ApplyResult result = apply(waldoconf, plan, true);
            if (result.outcome() == ApplyResult.Outcome.STALE) {
                throw staleSavedPlan(result.message());
            }
            return report(result);
        }
    }

    /** Applies {@code plan}, its progress shown until it ends (so the outcome is printed below it). */
    private ApplyResult apply(WaldoConf waldoconf, ResolvedPlan plan, boolean refuseIfChanged) throws Exception {
        try (ProgressBoard progress = progress(plan.inventory().switches().size())) {
            return waldoconf.apply(plan, Optional.ofNullable(trial), refuseIfChanged, progress);
        }
    }

    private CommandFailure staleSavedPlan(String why) {
        return new CommandFailure(ExitCodes.CHANGE_FAILED, "the saved plan " + planFile + " is stale: " + why
                + "; nothing was changed. Make and review a new one with 'waldoconf plan FILE -o " + planFile + "'.");
    }

    /** Asks on the terminal unless --yes; without a terminal and without --yes, refuses. */
    private boolean confirmed(ResolvedPlan plan) throws CommandFailure {
        if (yes) {
            return true;
        }
        boolean interactive = context.terminal().isInteractive();
        out().flush();
        String what = "Apply these changes to " + plan.changing().size() + " switch"
                + (plan.changing().size() == 1 ? "" : "es")
                + (trial == null ? "" : " as a " + DurationConverter.format(trial) + " trial") + "?";
        // Without a terminal the answer may still come down a pipe (`yes | waldoconf apply ...`);
        // only when nothing can answer at all is the missing --yes a usage error.
        String answer = context.terminal().readLine(what + (interactive ? " Only 'yes' is accepted: "
                : " Reading the answer from standard input ('yes' or 'y'): "));
        if (answer == null && !interactive) {
            throw new CommandFailure(ExitCodes.USAGE, "not applying without confirmation: there is no terminal to"
                    + " ask on. Pass --yes to apply non-interactively, or --dry-run to only print the plan.");
        }
        return answer != null && accepts(answer.trim(), interactive);
    }

    /**
     * At a terminal only the whole word goes ahead, so that a reflexive 'y' does not change the
     * network. A pipe was set up on purpose, and the {@code yes} command sends 'y'.
     */
    private static boolean accepts(String answer, boolean interactive) {
        return answer.equals("yes") || (!interactive && answer.equals("y"));
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
