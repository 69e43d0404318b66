package dev.waldoconf.lab.bench;

import dev.waldoconf.lab.Lab;
import dev.waldoconf.lab.LabClient;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.lab.snmp.Oids;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.VariableBinding;

/**
 * Starts many embedded switches in one JVM and reports startup time, memory, and the time to
 * walk one VLAN table (dot1qVlanStaticTable, {@value #VLANS_PER_SWITCH} VLANs plus VLAN 1) on
 * every switch. A lab of one switch, measured in the same run, is the baseline for the ratios.
 * Not a test: run it with {@code lab/bench/run-scale.sh}.
 */
public final class ScaleBenchmark {
    static final int VLANS_PER_SWITCH = 10;
    private static final int TIMEOUT_MS = 5000;
    private static final int WARM_UP_SWITCHES = 16;

    /** One lab size's figures. */
    record Result(int switches, double startupMs, double heapMb, double rssMb, double coldWalkMs, double warmWalkMs,
                  int rowsPerSwitch) {
        double startupPerSwitchMs() {
            return startupMs / switches;
        }

        double heapPerSwitchKb() {
            return heapMb * 1024 / switches;
        }

        double warmWalkPerSwitchMs() {
            return warmWalkMs / switches;
        }
    }

    private ScaleBenchmark() {
    }

    /** Usage: {@code ScaleBenchmark [--out FILE] [COUNT...]}; counts default to 64 and 256. */
    public static void main(String[] args) throws Exception {
        Path out = null;
        List<Integer> counts = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--out")) {
                out = Path.of(args[++i]);
            } else {
                counts.add(Integer.parseInt(args[i]));
            }
        }
        if (counts.isEmpty()) {
            counts = List.of(64, 256);
        }
        List<Result> results = new ArrayList<>();
        // A discarded warm-up lab loads the classes and JIT-compiles the hot paths, so the
        // one-switch baseline measures a switch, not the JVM's start.
        measure(WARM_UP_SWITCHES);
        Result baseline = measure(1);
        for (int count : counts) {
            results.add(measure(count));
        }
        String report = report(baseline, results);
        System.out.print(report);
        if (out != null) {
            Files.writeString(out, report);
            System.out.println("written to " + out);
        }
    }

    static Result measure(int count) throws IOException, InterruptedException {
        settle();
        long heapBefore = usedHeap();
        long rssBefore = rssBytes();
        long t0 = System.nanoTime();
        try (Lab lab = Lab.start(count, SwitchConfig.named("bench" + count), null)) {
            double startupMs = (System.nanoTime() - t0) / 1e6;
            settle();
            double heapMb = (usedHeap() - heapBefore) / 1048576.0;
            double rssMb = (rssBytes() - rssBefore) / 1048576.0;
            configure(lab);
            double coldMs = walkAll(lab);
            double warmMs = walkAll(lab);
            int rows = VLANS_PER_SWITCH + 1;
            return new Result(count, startupMs, heapMb, rssMb, coldMs, warmMs, rows);
        }
    }

    /** Gives every switch {@value #VLANS_PER_SWITCH} more VLANs, in one SET each. */
    private static void configure(Lab lab) throws IOException {
        for (SimulatedSwitch sw : lab.switches()) {
            List<VariableBinding> bindings = new ArrayList<>();
            for (int v = 100; v < 100 + VLANS_PER_SWITCH; v++) {
                bindings.add(new VariableBinding(Oids.child(Oids.DOT1Q_VLAN_STATIC_ROW_STATUS, v), new Integer32(4)));
                bindings.add(new VariableBinding(Oids.child(Oids.DOT1Q_VLAN_STATIC_NAME, v), new OctetString("v" + v)));
            }
            try (LabClient client = LabClient.v2c(sw.snmpAddress(), "private", TIMEOUT_MS)) {
                LabClient.Response response = client.set(bindings.toArray(VariableBinding[]::new));
                if (!response.isOk()) {
                    throw new IOException(sw.name() + " refused the benchmark VLANs: " + response.errorName());
                }
            }
        }
    }

    /** Walks dot1qVlanStaticTable on every switch in turn; returns the total milliseconds of the walks. */
    private static double walkAll(Lab lab) throws IOException {
        long totalNanos = 0;
        int expected = (VLANS_PER_SWITCH + 1) * 5;
        for (SimulatedSwitch sw : lab.switches()) {
            try (LabClient client = LabClient.v2c(sw.snmpAddress(), "public", TIMEOUT_MS)) {
                long t0 = System.nanoTime();
                int size = client.walk(Oids.DOT1Q_VLAN_STATIC_ENTRY).size();
                totalNanos += System.nanoTime() - t0;
                if (size != expected) {
                    throw new IOException(sw.name() + " returned " + size + " instances, expected " + expected);
                }
            }
        }
        return totalNanos / 1e6;
    }

    private static void settle() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** Resident set size from /proc (Linux); 0 elsewhere. */
    private static long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    static String report(Result baseline, List<Result> results) {
        StringBuilder text = new StringBuilder();
        text.append("# Lab scale benchmark\n\n");
        text.append("Embedded switches in one JVM (24 ports, standard profile, control port on), each given ")
                .append(VLANS_PER_SWITCH).append(" VLANs in one SET, then dot1qVlanStaticTable (")
                .append(baseline.rowsPerSwitch()).append(" rows x 5 columns) walked with GETBULK over v2c on ")
                .append("every switch in turn. Memory is the growth of used heap after GC and of the process RSS. ")
                .append("Ratios compare per-switch figures with a one-switch lab measured in the same run, after a ")
                .append("discarded warm-up lab of ").append(WARM_UP_SWITCHES).append(" switches.\n\n");
        text.append("- date: ").append(Instant.now()).append('\n');
        text.append("- cores: ").append(Runtime.getRuntime().availableProcessors()).append('\n');
        text.append("- JDK: ").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.runtime.version")).append('\n');
        text.append("- max heap: ").append(Runtime.getRuntime().maxMemory() / 1048576).append(" MB; JVM args: ")
                .append(ManagementFactory.getRuntimeMXBean().getInputArguments()).append("\n\n");
        text.append("| switches | startup total | startup per switch (x baseline) | heap growth | heap per switch "
                + "| RSS growth | walk all, first | walk all, second | walk per switch (x baseline) |\n");
        text.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<Result> rows = new ArrayList<>();
        rows.add(baseline);
        rows.addAll(results);
        for (Result r : rows) {
            text.append(String.format("| %d | %.0f ms | %.2f ms (%.2f) | %.1f MB | %.0f KB | %.1f MB | %.0f ms | %.0f ms "
                            + "| %.2f ms (%.2f) |%n", r.switches(), r.startupMs(), r.startupPerSwitchMs(),
                    r.startupPerSwitchMs() / baseline.startupPerSwitchMs(), r.heapMb(), r.heapPerSwitchKb(), r.rssMb(),
                    r.coldWalkMs(), r.warmWalkMs(), r.warmWalkPerSwitchMs(),
                    r.warmWalkPerSwitchMs() / baseline.warmWalkPerSwitchMs()));
        }
        return text.toString();
    }
}
