package dev.waldoconf.cli;

import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.model.PortRanges;
import dev.waldoconf.model.VlanChange;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import picocli.CommandLine.Help.Ansi;

/**
 * Prints a resolved plan like a Terraform plan: per switch, its steps in the order they run,
 * {@code +} (create, add) in green, {@code ~} (rename, PVID) in yellow, {@code -} (remove, delete)
 * in red; then a summary line. Each switch shows the fingerprint of what the plan manages there
 * ({@link ResolvedPlan.SwitchChange#fingerprint()}): apply asks again when it differs at commit.
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
                out.println(ansi.string("  @|bold " + change.target().name() + "|@: no changes (fingerprint "
                        + change.fingerprint() + ")"));
                continue;
            }
            out.println(ansi.string("  @|bold " + change.target().name() + "|@ (snmp " + change.target().snmp()
                    + ", fingerprint " + change.fingerprint() + ")"));
            for (Line line : lines(change.steps())) {
                counts[line.kind().ordinal()]++;
                out.println(ansi.string("      @|" + line.kind().colour + " " + line.kind().symbol + " " + line.text()
                        + "|@"));
            }
        }
        out.println();
        out.println(summary(plan, counts));
        out.flush();
    }

    /** One printed line: a step, or several PVID steps with the same change. */
    record Line(Kind kind, String text) {
    }

    /**
     * The steps as lines, in order; consecutive PVID changes with the same from and to VLAN
     * become one line ({@code set PVID of ports 1-8 1 -> 10}), so 40 access ports do not take 40 lines.
     */
    static List<Line> lines(List<VlanChange> steps) {
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            if (!(steps.get(i) instanceof VlanChange.SetPvid first)) {
                lines.add(new Line(Kind.of(steps.get(i)), steps.get(i).describe()));
                continue;
            }
            SortedSet<Integer> ports = new TreeSet<>(List.of(first.port()));
            while (i + 1 < steps.size() && steps.get(i + 1) instanceof VlanChange.SetPvid next
                    && next.from() == first.from() && next.to() == first.to()) {
                ports.add(next.port());
                i++;
            }
            lines.add(new Line(Kind.CHANGE, ports.size() == 1 ? first.describe() : "set PVID of ports "
                    + PortRanges.format(ports) + " " + first.from() + " -> " + first.to()));
        }
        return lines;
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
