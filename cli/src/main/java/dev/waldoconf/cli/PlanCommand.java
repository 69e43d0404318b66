package dev.waldoconf.cli;

import java.nio.file.Path;
import dev.waldoconf.config.ResolvedPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code waldoconf plan FILE}: what applying the plan would change on each switch. Changes nothing. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Shows what applying a VLAN plan would change on each switch. Changes nothing.",
            "Like a Terraform plan: + create or add (green), ~ change (yellow), - remove or delete (red)."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:the plan was computed (with or without changes)",
            "2:bad usage, or invalid inventory or plan (printed as file:line:col: field: message)",
            "3:a switch is unreachable",
            "5:the lab could not be started"})
final class PlanCommand extends SwitchCommand {
    @Parameters(index = "0", paramLabel = "FILE", description = "The VLAN plan (YAML), e.g. configs/vlan.yaml.")
    Path planFile;

    @Option(names = {"-o", "--out"}, paramLabel = "PLAN",
            description = "Also save the plan to PLAN: 'waldoconf apply PLAN' then applies exactly it without asking,"
                    + " or refuses if the plan file or a switch's managed state changed since.")
    Path out;

    PlanCommand(CliContext context) {
        super(context);
    }

    @Override
    protected int run() throws Exception {
        ResolvedPlan plan = resolve(planFile);
        printPlan(plan);
        if (out != null) {
            SavedPlan.of(planFile, plan).write(out);
            out().println("Saved this plan to " + out + ": 'waldoconf apply " + out + "' applies exactly it, or"
                    + " refuses if a switch changed since.");
        }
        return ExitCodes.OK;
    }
}
