package dev.waldoconf.cli;

import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.model.VlanChange;
import java.io.PrintWriter;
import picocli.CommandLine.Help.Ansi;

/**
 * Prints a resolved plan like a Terraform plan: per switch, its steps in the order they run,
 * {@code +} (create, add) in green, {@code ~} (rename, PVID) in yellow, {@code -} (remove, delete)
 * in red; then a summary line.
 */
final class PlanPrinter {
    private final Ansi ansi;

    PlanPrinter(Ansi ansi) {
        this.ansi = ansi;
    }

    /** What kind of step, for the symbol, colour and summary. */
    enum Kind {
        ADD('+', "green"), CHANGE('~', "yellow"), REMOVE('-', "red");

        final char symbol;
        final String colour;

        Kind(char symbol, String colour) {
            this.symbol = symbol;
            this.colour = colour;
        }

        static Kind of(VlanChange step) {
            return switch (step) {
                case VlanChange.CreateVlan create -> ADD;
                case VlanChange.AddPorts add -> ADD;
                case VlanChange.RenameVlan rename -> CHANGE;
                case VlanChange.SetPvid pvid -> CHANGE;
                case VlanChange.RemovePorts remove -> REMOVE;
                case VlanChange.DeleteVlan delete -> REMOVE;
            };
        }
    }

    /** Prints every switch's steps and the summary. */
    void print(ResolvedPlan plan, PrintWriter out) {
        int[] counts = new int[Kind.values().length];
        for (ResolvedPlan.SwitchChange change : plan.switches()) {
            if (!change.hasChanges()) {
                out.println(ansi.string("  @|bold " + change.target().name() + "|@: no changes"));
                continue;
            }
            out.println(ansi.string("  @|bold " + change.target().name() + "|@ (snmp " + change.target().snmp()
                    + ", " + change.steps().size() + " step" + (change.steps().size() == 1 ? "" : "s") + ")"));
            for (VlanChange step : change.steps()) {
                Kind kind = Kind.of(step);
                counts[kind.ordinal()]++;
                out.println(ansi.string("      @|" + kind.colour + " " + kind.symbol + " " + step.describe() + "|@"));
            }
        }
        out.println();
        out.println(summary(plan, counts));
        out.flush();
    }

    private static String summary(ResolvedPlan plan, int[] counts) {
        int changing = plan.changing().size();
        if (changing == 0) {
            return "No changes: every switch already matches the plan.";
        }
        return "Plan: " + counts[Kind.ADD.ordinal()] + " to add, " + counts[Kind.CHANGE.ordinal()] + " to change, "
                + counts[Kind.REMOVE.ordinal()] + " to remove, on " + changing + " of " + plan.switches().size()
                + " switch" + (plan.switches().size() == 1 ? "" : "es") + ".";
    }
}
