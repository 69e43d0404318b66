package dev.waldoconf.service;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one device-journal write costs (not a test; {@code waldoconf/bench/run-journal.sh}): a
 * {@link SnapshotLog} append against a {@link DurableFile#replace} of the same text, one journal
 * per switch as a site agent keeps them, in alternating rounds so both meet the same disk and load.
 * Prints CPU and wall time per write, and their ratio.
 */
public final class JournalWriteBenchmark {
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private JournalWriteBenchmark() {
    }

    /** Arguments: switches (default 1000), rounds (default 5), journal bytes (default 1500). */
    public static void main(String[] args) throws IOException {
        int switches = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int bytes = args.length > 2 ? Integer.parseInt(args[2]) : 1500;
        Path root = Files.createTempDirectory("journal-bench");
        try {
            run(root, switches, rounds, bytes);
        } finally {
            try (var files = Files.walk(root)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static void run(Path root, int switches, int rounds, int bytes) throws IOException {
        List<Path> files = new ArrayList<>();
        List<SnapshotLog> logs = new ArrayList<>();
        for (int i = 0; i < switches; i++) {
            Path directory = Files.createDirectories(root.resolve("sw-" + i));
            files.add(directory.resolve("replaced.journal"));
            logs.add(SnapshotLog.open(directory.resolve(DeviceJournal.FILE)));
        }
        String journal = "waldoconf-device-journal 3\n" + "committed.intended tagged 10 1-24\n".repeat(bytes / 34);
        double[][] cpu = new double[2][rounds];
        double[][] wall = new double[2][rounds];
        for (int round = 0; round < rounds; round++) {
            String version = journal + "end " + round + "\n";
            measure(cpu[0], wall[0], round, switches, i -> DurableFile.replace(files.get(i), version.getBytes()));
            measure(cpu[1], wall[1], round, switches, i -> logs.get(i).write(version));
        }
        System.out.printf("%d journals of %d bytes, %d rounds of one write each, load %s%n", switches,
                journal.length(), rounds, Files.readString(Path.of("/proc/loadavg")).trim());
        print("replace (temporary file, fsync, rename, directory fsync)", cpu[0], wall[0]);
        print("SnapshotLog append (frame, fdatasync)", cpu[1], wall[1]);
        System.out.printf("append / replace, median CPU per write: %.2f%n", median(cpu[1]) / median(cpu[0]));
    }

    private interface Write {
        void to(int journal) throws IOException;
    }

    private static void measure(double[] cpu, double[] wall, int round, int switches, Write write) throws IOException {
        long cpuBefore = OS.getProcessCpuTime();
        long wallBefore = System.nanoTime();
        for (int i = 0; i < switches; i++) {
            write.to(i);
        }
        cpu[round] = (OS.getProcessCpuTime() - cpuBefore) / 1e3 / switches;
        wall[round] = (System.nanoTime() - wallBefore) / 1e3 / switches;
    }

    private static void print(String what, double[] cpu, double[] wall) {
        System.out.printf("%-58s CPU µs/write median %6.0f (rounds %s), wall µs/write median %6.0f%n", what,
                median(cpu), Arrays.toString(Arrays.stream(cpu).mapToLong(Math::round).toArray()), median(wall));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
