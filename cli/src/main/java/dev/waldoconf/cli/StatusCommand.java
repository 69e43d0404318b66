package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import dev.waldoconf.engine.StatusReport;
import dev.waldoconf.model.VlanChange;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Command;

/** {@code waldoconf status}: pending trials, each switch's reachability, and drift. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Lists pending trials with their deadlines, each switch's reachability, and drift between"
                + " the intended state and what the switch reports.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:every switch reachable", "2:bad usage or invalid inventory", "3:some switch unreachable",
            "4:some switch's state is held by a change still being decided (in doubt); run status again",
            "5:this operator has no certificate (run 'waldoconf init')"})
final class StatusCommand extends SwitchCommand {
    StatusCommand(CliContext context) {
        super(context);
    }

    @Override
    protected int run() throws Exception {
        try (WaldoConf waldoconf = waldoconf()) {
            return print(waldoconf.status(inventory(false)));
        }
    }

    private int print(StatusReport report) {
        if (report.pendingTrials().isEmpty()) {
            out().println("No pending trials.");
        }
        for (StatusReport.PendingTrial trial : report.pendingTrials()) {
            Duration left = Duration.between(Instant.now(), trial.deadline());
            out().println("Trial " + trial.changeId() + " reverts at " + trial.deadline() + " (in "
                    + DurationConverter.format(left.isNegative() ? Duration.ZERO : left) + ") on "
                    + String.join(", ", trial.switches()) + "; 'waldoconf confirm " + trial.changeId() + "' keeps it.");
        }
        boolean allReachable = true;
        boolean anyUndecided = false;
        for (StatusReport.SwitchStatus status : report.switches()) {
            allReachable &= status.reachable();
            anyUndecided |= status.undecided();
            out().println(outputOptions.ansi().string("  @|bold " + status.switchName() + "|@: " + state(status)
                    + (status.drift().isEmpty() ? "" : ", drifted:")));
            for (VlanChange step : status.drift()) {
                out().println("      " + step.describe());
            }
        }
        return !allReachable ? ExitCodes.UNREACHABLE : anyUndecided ? ExitCodes.CONFLICT : ExitCodes.OK;
    }

    /** Reachable, unreachable or undecided, with why for the last two (as ANSI markup). */
    private String state(StatusReport.SwitchStatus status) {
        if (status.undecided()) {
            return "@|yellow undecided|@ (" + status.detail() + ")";
        }
        return status.reachable() ? "@|green reachable|@"
                : "@|red unreachable|@ (" + status.detail() + network.mismatchHint(status.detail()) + ")";
    }
}
