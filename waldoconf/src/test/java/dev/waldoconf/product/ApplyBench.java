package dev.waldoconf.product;

import dev.waldoconf.lab.Lab;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.service.OperatorOnSwitches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Not a test: the benchmark behind {@code bench/waldoconf/run.sh}. For each lab size it times
 * {@code waldoconf apply} (one transaction through N TLS services and the SNMP driver, confirmed
 * at once) against a baseline that sends the same VLAN rows with net-snmp {@code snmpset}, one
 * switch after another, as a script would. Then it injects a failure (one switch refuses VLAN 30)
 * and reports how many switches each approach leaves changed.
 *
 * <p>System properties: {@code bench.sizes} (default {@code 8,48,128}), {@code bench.runs}
 * (applies timed per size, default 3). Argument: the Markdown file to write the results to.
 */
public final class ApplyBench {
    private static final String READ_WRITE = "private";
    /** The OID prefix of dot1qVlanStaticEntry. */
    private static final String STATIC_ENTRY = "1.3.6.1.2.1.17.7.1.4.3.1";

    private ApplyBench() {
    }

    /** One size's figures. */
    private record Row(int switches, long waldoMedianMs, long waldoMinMs, long snmpsetMedianMs, long snmpsetMinMs) {
    }

    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream(System.getProperty("bench.sizes", "8,48,128").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int runs = Integer.getInteger("bench.runs", 3);
        Path work = Files.createTempDirectory("waldoconf-bench");
        List<Row> rows = new ArrayList<>();
        for (int size : sizes) {
            rows.add(measure(size, runs, work.resolve("n" + size)));
        }
        String failure = failureAfterRefusal(8, 5, work.resolve("failure"));
        String report = report(rows, runs, failure);
        System.out.print(report);
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), report);
        }
        System.exit(0);
    }

    private static Row measure(int size, int runs, Path dir) throws Exception {
        System.err.printf("%d switches: starting lab and services%n", size);
        try (Lab lab = Lab.start(size, SwitchConfig.named("b" + size), null);
             Fleet fleet = new Fleet(switches(lab), dir).serve()) {
            OperatorOnSwitches operator = fleet.operator();
            List<SwitchState> before = fleet.readAll();
            List<SwitchState> after = Fleet.changedAll(before);
            Fleet.apply(operator, after, Optional.empty());  // warm-up, then back
            Fleet.apply(operator, before, Optional.empty());
            long[] waldo = new long[runs];
            long[] snmpset = new long[runs];
            for (int run = 0; run < runs; run++) {
                long start = System.nanoTime();
                Fleet.apply(operator, after, Optional.empty());
                waldo[run] = (System.nanoTime() - start) / 1_000_000;
                check(fleet.readAll().equals(after), "WaldoConf apply left switches unchanged");
                Fleet.apply(operator, before, Optional.empty());
                start = System.nanoTime();
                snmpsetOneAfterAnother(lab.switches(), -1);
                snmpset[run] = (System.nanoTime() - start) / 1_000_000;
                check(fleet.readAll().equals(after), "the snmpset baseline left switches unchanged");
                destroyRowsOneAfterAnother(lab.switches());
                System.err.printf("%d switches, run %d: waldoconf %d ms, snmpset %d ms%n", size, run + 1,
                        waldo[run], snmpset[run]);
            }
            Arrays.sort(waldo);
            Arrays.sort(snmpset);
            return new Row(size, waldo[runs / 2], waldo[0], snmpset[runs / 2], snmpset[0]);
        }
    }

    /** Injects a refusal of VLAN 30 on switch {@code refusing} (from 1) and reports what each approach leaves. */
    private static String failureAfterRefusal(int size, int refusing, Path dir) throws Exception {
        try (Lab lab = Lab.start(size, SwitchConfig.named("f"), null);
             Fleet fleet = new Fleet(switches(lab), dir).serve()) {
            List<SwitchState> before = fleet.readAll();
            fleet.control(refusing - 1, "refuse 30 commitFailed");
            int stoppedAt = snmpsetOneAfterAnother(lab.switches(), refusing);
            int baselineChanged = changedCount(fleet, before);
            destroyRowsOneAfterAnother(lab.switches());
            check(fleet.readAll().equals(before), "the baseline's rows were not removed");
            fleet.control(refusing - 1, "refuse 30 commitFailed");
            String waldoOutcome;
            try {
                Fleet.apply(fleet.operator(), Fleet.changedAll(before), Optional.empty());
                waldoOutcome = "applied (unexpected)";
            } catch (RuntimeException e) {
                waldoOutcome = "refused: " + e.getMessage().lines().findFirst().orElse("");
            }
            int waldoChanged = changedCount(fleet, before);
            return """
                    | approach | outcome | switches changed afterwards |
                    |---|---|---|
                    | snmpset, one switch after another (stops at the first error, like `set -e`) | switch %d refused, after switches 1-%d were set | %d of %d |
                    | `waldoconf apply` | %s | %d of %d |
                    """.formatted(stoppedAt, stoppedAt - 1, baselineChanged, size,
                    waldoOutcome.replace("|", "\\|"), waldoChanged, size);
        }
    }

    private static int changedCount(Fleet fleet, List<SwitchState> before) throws Exception {
        List<SwitchState> now = fleet.readAll();
        int changed = 0;
        for (int i = 0; i < now.size(); i++) {
            if (!now.get(i).equals(before.get(i))) {
                changed++;
            }
        }
        return changed;
    }

    private static List<Fleet.Switch> switches(Lab lab) {
        return lab.switches().stream()
                .map(sw -> new Fleet.Switch(sw.name(), sw.snmpAddress(), sw.controlAddress())).toList();
    }

    /**
     * The baseline: one {@code snmpset} per switch with the rows of {@link Fleet#changed} (name,
     * egress, untagged, createAndGo), in order, stopping at the first that fails.
     *
     * @param expectFailureAt the switch (from 1) expected to refuse, or -1
     * @return the switch (from 1) whose snmpset failed, or 0 when all succeeded
     */
    private static int snmpsetOneAfterAnother(List<SimulatedSwitch> switches, int expectFailureAt)
            throws IOException, InterruptedException {
        for (int i = 0; i < switches.size(); i++) {
            SimulatedSwitch sw = switches.get(i);
            int ports = sw.spec().portCount();
            List<String> command = snmpset(sw);
            addRow(command, 20, "voice", ports, 7, 8);
            addRow(command, 30, "cameras", ports, 8);
            if (run(command) != 0) {
                check(expectFailureAt == i + 1, "snmpset failed on switch " + (i + 1));
                return i + 1;
            }
        }
        check(expectFailureAt == -1, "no snmpset failed");
        return 0;
    }

    /** Removes the baseline's rows again (not timed). */
    private static void destroyRowsOneAfterAnother(List<SimulatedSwitch> switches)
            throws IOException, InterruptedException {
        for (SimulatedSwitch sw : switches) {
            sw.faults().clear();
            List<String> command = snmpset(sw);
            command.addAll(List.of(STATIC_ENTRY + ".5.20", "i", "6", STATIC_ENTRY + ".5.30", "i", "6"));
            run(command);
        }
    }

    private static List<String> snmpset(SimulatedSwitch sw) {
        return new ArrayList<>(List.of("snmpset", "-v2c", "-c", READ_WRITE, "-t", "3", "-r", "1", "-Oq",
                sw.snmpAddress().getHostString() + ":" + sw.snmpAddress().getPort()));
    }

    private static void addRow(List<String> command, int vlan, String name, int ports, int... tagged) {
        byte[] egress = new byte[(ports + 7) / 8];
        for (int port : tagged) {
            egress[(port - 1) / 8] |= (byte) (0x80 >>> ((port - 1) % 8));
        }
        command.addAll(List.of(STATIC_ENTRY + ".1." + vlan, "s", name,
                STATIC_ENTRY + ".2." + vlan, "x", hex(egress),
                STATIC_ENTRY + ".4." + vlan, "x", hex(new byte[egress.length]),
                STATIC_ENTRY + ".5." + vlan, "i", "4"));
    }

    private static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            text.append(String.format("%02X", b & 0xff));
        }
        return text.toString();
    }

    private static int run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor();
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }

    private static String report(List<Row> rows, int runs, String failure) {
        StringBuilder text = new StringBuilder();
        text.append("| switches | waldoconf apply, median (min) | snmpset one after another, median (min) | waldoconf / snmpset |\n");
        text.append("|---:|---:|---:|---:|\n");
        for (Row row : rows) {
            text.append("| %d | %d ms (%d) | %d ms (%d) | %.2f |%n".formatted(row.switches(), row.waldoMedianMs(),
                    row.waldoMinMs(), row.snmpsetMedianMs(), row.snmpsetMinMs(),
                    (double) row.waldoMedianMs() / Math.max(1, row.snmpsetMedianMs())));
        }
        text.append("\nMedians of ").append(runs).append(" timed applies per size, after one warm-up.\n\n");
        text.append("After an injected failure (switch 5 of 8 refuses VLAN 30 with commitFailed):\n\n");
        text.append(failure);
        return text.toString();
    }
}
