package dev.waldoconf.cli;

import dev.waldoconf.lab.Lab;
import dev.waldoconf.lab.ReservedPorts;
import dev.waldoconf.lab.SwitchConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory and threads per switch of a site agent: for each size N, starts N lab switches (fast
 * profile) in this JVM, then one {@code waldoconf serve --site lab} in a JVM of its own with
 * the heap limit given, and measures that process once every switch serves: heap used after a full
 * GC ({@code jcmd GC.run}, then {@code GC.heap_info}), resident memory and threads ({@code
 * /proc/PID/status}). Then one {@code waldoconf apply} of configs/vlan.yaml to every switch through
 * the agent, timed from the shell's side, and the same figures again: connections and
 * transactions cost memory too. A benchmark, not a test: it prints figures and asserts only that
 * the agent served; an apply that fails is reported in the table. Run by bench/site-agent/run.sh.
 *
 * <p>Arguments: the Markdown file to append the table to; system properties {@code bench.sizes}
 * (default 100,500,1000), {@code bench.agentHeap} (default 1g), {@code bench.timeoutS} (per step,
 * default 900), {@code bench.plan} (default configs/vlan.yaml, from the repository's root).
 */
public final class SiteAgentMemoryBench {
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    private static final long TIMEOUT_S = Long.getLong("bench.timeoutS", 900);
    private static final String HEAP = System.getProperty("bench.agentHeap", "1g");
    private static final String PLAN = System.getProperty("bench.plan", "configs/vlan.yaml");

    private SiteAgentMemoryBench() {
    }

    /** Figures of the agent process at one moment. */
    private record Figures(double heapMiB, double rssMiB, int threads) {
        String row(int switches) {
            return String.format(Locale.ROOT, "%.1f | %.1f | %.0f | %.1f | %d | %.3f", heapMiB, heapMiB * 1024 / switches,
                    rssMiB, rssMiB * 1024 / switches, threads, (double) threads / switches);
        }
    }

    /** Runs every size and appends a table to {@code args[0]}. */
    public static void main(String[] args) throws Exception {
        Path report = Path.of(args[0]);
        List<String> rows = new ArrayList<>();
        for (String size : System.getProperty("bench.sizes", "100,500,1000").split(",")) {
            rows.addAll(measure(Integer.parseInt(size.trim())));
        }
        String table = "| switches | moment | heap after GC (MiB) | heap per switch (KiB) | RSS (MiB)"
                + " | RSS per switch (KiB) | threads | threads per switch |\n"
                + "|---:|---|---:|---:|---:|---:|---:|---:|\n" + String.join("\n", rows) + "\n\n"
                + "Platform threads of the idle agent by name (digits as N), the most common first:\n\n"
                + threadKinds.entrySet().stream().map(e -> "- " + e.getKey() + " switches: " + e.getValue())
                        .collect(java.util.stream.Collectors.joining("\n")) + "\n";
        Files.writeString(report, table);
        System.out.print(table);
    }

    private static List<String> measure(int switches) throws Exception {
        Path dir = Files.createTempDirectory("waldoconf-agent-bench-");
        PrintStream log = System.err;
        log.printf("%d switches: starting the lab%n", switches);
        try (Lab lab = Lab.start(switches, SwitchConfig.named(LabRunner.NAME_PREFIX).withControlPort(-1), null);
             ReservedPorts port = ReservedPorts.reserve(InetAddress.getLoopbackAddress(), 1)) {
            Path inventory = writeInventory(dir, lab, port);
            Process agent = java(dir.resolve("agent.log"), "-Xmx" + HEAP, "serve", "--site", LabRunner.SITE, "-i",
                    inventory.toString(), "--insecure", "--state-dir", dir.resolve("services").toString());
            try {
                long started = System.nanoTime();
                awaitLine(agent, dir.resolve("agent.log"), "Serving " + switches + " of the " + switches);
                log.printf("%d switches: agent serving after %.1f s%n", switches, (System.nanoTime() - started) / 1e9);
                Figures idle = figures(agent.pid());
                threadKinds.put(switches, threadKinds(agent.pid()));
                long applyStart = System.nanoTime();
                Process apply = java(dir.resolve("apply.log"), "-Xmx1g", "apply", PLAN, "-i", inventory.toString(), "--yes", "--insecure");
                boolean applied = apply.waitFor(TIMEOUT_S, TimeUnit.SECONDS) && apply.exitValue() == 0;
                apply.destroyForcibly();
                double applyS = (System.nanoTime() - applyStart) / 1e9;
                // A failed apply is reported, not hidden: the figures after it are still the agent's.
                String moment = applied ? String.format(Locale.ROOT, "after one apply to all (%.1f s)", applyS)
                        : String.format(Locale.ROOT, "after an apply that FAILED (%.1f s; %s)", applyS,
                                firstError(dir.resolve("apply.log")));
                log.printf("%d switches: %s%n", switches, moment);
                Figures afterApply = figures(agent.pid());
                return List.of("| " + switches + " | serving, idle | " + idle.row(switches) + " |",
                        "| " + switches + " | " + moment + " | " + afterApply.row(switches) + " |");
            } finally {
                agent.destroy();
                if (!agent.waitFor(60, TimeUnit.SECONDS)) {
                    agent.destroyForcibly();
                }
            }
        }
    }

    private static Path writeInventory(Path dir, Lab lab, ReservedPorts port) throws IOException {
        Files.writeString(dir.resolve("community"), LabRunner.LAB_COMMUNITY + "\n");
        List<LabSwitch> switches = lab.switches().stream()
                .map(sw -> new LabSwitch(sw.name(), sw.snmpAddress(), sw.spec().portCount())).toList();
        return Files.writeString(dir.resolve("inventory.yaml"), LabRunner.inventoryYaml(switches,
                port.ports().getFirst(), false));
    }

    /** Starts {@code waldoconf} with this JVM's class path in a process of its own, output to {@code log}. */
    private static Process java(Path log, String heap, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), heap, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** The apply's first error line, shortened, for the table. */
    private static String firstError(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return lines.stream().filter(line -> line.startsWith("error:")).findFirst().map(line -> line.strip().replace("|", "/")).map(line -> line.length() > 140
                        ? line.substring(0, 140) + "..." : line).orElse("see apply.log");
    }

    /** Waits (bounded) until {@code log} has a line starting with {@code prefix}. */
    private static void awaitLine(Process process, Path log, String prefix) throws Exception {
        long giveUpAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (System.nanoTime() < giveUpAt) {
            if (Files.readAllLines(log).stream().anyMatch(line -> line.startsWith(prefix))) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the agent exited with " + process.exitValue() + "; see " + log);
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("the agent did not print '" + prefix + "' within " + TIMEOUT_S + " s; see "
                + log);
    }

    /** The agent's idle threads at each size, counted by name with digits taken out, most first. */
    private static final java.util.Map<Integer, String> threadKinds = new java.util.TreeMap<>();

    private static String threadKinds(long pid) throws Exception {
        Matcher name = Pattern.compile("(?m)^\"([^\"]*)\"").matcher(run("jcmd", Long.toString(pid), "Thread.print"));
        java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
        while (name.find()) {
            counts.merge(name.group(1).replaceAll("\\d+", "N"), 1, Integer::sum);
        }
        return counts.entrySet().stream().sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(8).map(e -> "`" + e.getKey() + "` " + e.getValue()).collect(java.util.stream.Collectors
                        .joining(", "));
    }

    private static Figures figures(long pid) throws Exception {
        run("jcmd", Long.toString(pid), "GC.run");
        Matcher used = HEAP_USED.matcher(run("jcmd", Long.toString(pid), "GC.heap_info"));
        if (!used.find()) {
            throw new IllegalStateException("jcmd GC.heap_info printed no 'used ...K'");
        }
        String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        return new Figures(Long.parseLong(used.group(1)) / 1024.0, kib(status, "VmRSS") / 1024.0,
                (int) kib(status, "Threads"));
    }

    private static long kib(String status, String field) {
        Matcher value = Pattern.compile("(?m)^" + field + ":\\s+(\\d+)").matcher(status);
        if (!value.find()) {
            throw new IllegalStateException("/proc status has no " + field);
        }
        return Long.parseLong(value.group(1));
    }

    private static String run(String... command) throws Exception {
        String tool = Path.of(System.getProperty("java.home"), "bin", command[0]).toString();
        List<String> full = new ArrayList<>(List.of(command));
        full.set(0, tool);
        Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
        return output;
    }
}
