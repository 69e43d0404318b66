package dev.waldo.runtime.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/** What the contended benchmarks share besides {@link Zipf}: the machine lines of a report, think times, and writing it. */
final class BenchReport {
    private BenchReport() {
    }

    /** The date, core count and JDK, as a Markdown list ending with a blank line. */
    static String machine() {
        return "- date: " + Instant.now() + "\n- cores: " + Runtime.getRuntime().availableProcessors()
                + "\n- JDK: " + System.getProperty("java.vm.name") + ' ' + System.getProperty("java.version") + "\n\n";
    }

    /**
     * Sleeps {@code micros} (none if 0): a client's think time, standing in for the network hop
     * between a client and its store that the in-memory network does not have.
     */
    static void think(long micros) {
        if (micros > 0) {
            try {
                Thread.sleep(Duration.ofNanos(micros * 1_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Prints the report and writes it to {@code args[0]} if given. */
    static void publish(String report, String[] args) throws IOException {
        System.out.print(report);
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), report);
        }
    }
}
