package dev.waldoconf.lab.control;

import dev.waldoconf.lab.model.SnmpError;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The commands of the control interface, one line in and one line out. Every answer starts with
 * {@code ok} or {@code error}:
 *
 * <pre>
 * faults                                   ok refuse=none delay=0 drop=off exit-after=off
 * refuse 10,20-29 commitFailed             ok refuse=10,20,...:commitFailed ...
 * refuse off
 * delay 250                                delay every response by 250 ms (0 = off)
 * drop set|all|off                         drop responses to SETs, or to everything
 * exit-after 3                             exit after answering 3 more SETs (off = never)
 * clear                                    every fault off
 * state                                    ok vlans=1,10 sysName=sw1
 * help
 * </pre>
 */
public final class ControlCommands {
    /** Help text, also printed by the process main. */
    public static final String HELP = "commands: faults | refuse <vlans> <commitFailed|inconsistentValue> | "
            + "refuse off | delay <ms> | drop <set|all|off> | exit-after <n|off> | clear | state | help";
    private static final int MAX_REFUSED_VLANS = 4096;

    private final Faults faults;
    private final Supplier<String> stateSummary;

    /**
     * Commands acting on these faults.
     *
     * @param stateSummary describes the switch's committed state for the {@code state} command
     */
    public ControlCommands(Faults faults, Supplier<String> stateSummary) {
        this.faults = faults;
        this.stateSummary = stateSummary;
    }

    /** Runs one command line and returns the answer line. Never throws for bad input. */
    public String execute(String line) {
        String[] words = line.trim().split("\\s+");
        try {
            return switch (words[0]) {
                case "faults" -> ok();
                case "refuse" -> refuse(words);
                case "delay" -> {
                    faults.delayResponses(Long.parseLong(argument(words, 1, "delay <ms>")));
                    yield ok();
                }
                case "drop" -> {
                    faults.dropResponses(dropMode(argument(words, 1, "drop <set|all|off>")));
                    yield ok();
                }
                case "exit-after" -> {
                    String count = argument(words, 1, "exit-after <n|off>");
                    faults.exitAfterSets(count.equals("off") ? 0 : Long.parseLong(count));
                    yield ok();
                }
                case "clear" -> {
                    faults.clear();
                    yield ok();
                }
                case "state" -> "ok " + stateSummary.get();
                case "help", "" -> "ok " + HELP;
                default -> "error unknown command '" + words[0] + "'; " + HELP;
            };
        } catch (IllegalArgumentException e) {
            return "error " + e.getMessage();
        }
    }

    private String refuse(String[] words) {
        String vlans = argument(words, 1, "refuse <vlans> <commitFailed|inconsistentValue>");
        if (vlans.equals("off")) {
            faults.clearRefusal();
            return ok();
        }
        SnmpError error = SnmpError.fromMibName(argument(words, 2, "refuse <vlans> <commitFailed|inconsistentValue>"));
        faults.refuse(parseVlanList(vlans), error);
        return ok();
    }

    private static DropMode dropMode(String word) {
        return switch (word) {
            case "set" -> DropMode.SET;
            case "all" -> DropMode.ALL;
            case "off" -> DropMode.OFF;
            default -> throw new IllegalArgumentException("drop takes set, all or off, not '" + word + "'");
        };
    }

    /** Parses {@code 10,20-29} into the VLAN ids it lists. */
    static Set<Integer> parseVlanList(String text) {
        Set<Integer> vlans = new TreeSet<>();
        for (String part : text.split(",")) {
            String[] range = part.split("-", 2);
            int from = Integer.parseInt(range[0]);
            int to = range.length == 2 ? Integer.parseInt(range[1]) : from;
            if (from < 1 || to > MAX_REFUSED_VLANS || from > to) {
                throw new IllegalArgumentException("bad VLAN list '" + text + "': use ids 1..4094 like 10,20-29");
            }
            for (int v = from; v <= to; v++) {
                vlans.add(v);
            }
        }
        return vlans;
    }

    private static String argument(String[] words, int position, String usage) {
        if (words.length <= position) {
            throw new IllegalArgumentException("missing argument; usage: " + usage);
        }
        return words[position];
    }

    private String ok() {
        return "ok " + faults.describe();
    }
}
