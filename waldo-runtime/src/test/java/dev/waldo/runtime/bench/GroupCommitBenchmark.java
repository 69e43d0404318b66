package dev.waldo.runtime.bench;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.storage.FileStorage;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.storage.Storage;
import dev.waldo.runtime.testing.Node;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Group commit, not a test: commits per second of the same two-host workload
 * with durability off (in-memory storage), on with one fsync per drain
 * ({@link Storage.Commit#EACH}) and on with group commit
 * ({@link Storage.Commit#GROUP}), all from one run. Each client thread owns a
 * pair of partner endpoints (one on each host) and runs the two-step sequence
 * {@code bump} on it in a loop, so transactions never conflict and only the
 * log stands between them: the coordinator logs its prepare and its commit,
 * the participant its prepare, both their ends.
 *
 * <p>Run with {@code bench/walter/run.sh}; it writes {@code bench/walter/RESULTS.md}.
 */
public final class GroupCommitBenchmark {
    private static final Duration RUN = Duration.ofSeconds(Integer.getInteger("groupcommit.seconds", 5));
    private static final Duration WARMUP = Duration.ofSeconds(1);
    private static final int[] CLIENTS = {1, 16};

    /** How the two hosts keep their logs. */
    private enum Durability {
        OFF("off (in memory)"), EACH("on, fsync per drain"), GROUP("on, group commit");

        final String label;

        Durability(String label) {
            this.label = label;
        }
    }

    /** What one configuration achieved. */
    private record Result(long commits, double seconds, long fsyncs, long longestMicros) {
        double perSecond() {
            return commits / seconds;
        }
    }

    private GroupCommitBenchmark() {
    }

    /** Runs every configuration and writes the report to the path in args[0] (or prints it only). */
    public static void main(String[] args) throws Exception {
        Path scratch = Files.createTempDirectory(Path.of(args.length > 1 ? args[1] : "."), "group-commit-logs");
        StringBuilder report = new StringBuilder("# Group commit: commits per second\n\n")
                .append("Two in-memory-network hosts in one JVM; each client thread runs a two-host sequence")
                .append(" (`bump`) on a pair of endpoints of its own, so nothing conflicts but the log. Logs in ")
                .append(scratch.getParent()).append(" (").append(Files.getFileStore(scratch).type())
                .append("). Each configuration runs ").append(RUN.toSeconds()).append(" s after ")
                .append(WARMUP.toSeconds()).append(" s of warm-up.\n\n- date: ").append(Instant.now())
                .append("\n- cores: ").append(Runtime.getRuntime().availableProcessors()).append("\n- JDK: ")
                .append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.version"))
                .append("\n\n| clients | durability | commits/s | fsyncs (coordinator) | commits per fsync |")
                .append(" longest commit |\n|---:|---|---:|---:|---:|---:|\n");
        try {
            for (int clients : CLIENTS) {
                for (Durability durability : Durability.values()) {
                    Result result = run(durability, clients, scratch.resolve(durability + "-" + clients));
                    report.append(String.format("| %d | %s | %.0f | %s | %s | %.1f ms |%n", clients, durability.label,
                            result.perSecond(), durability == Durability.OFF ? "-" : Long.toString(result.fsyncs()),
                            durability == Durability.OFF ? "-"
                                    : String.format("%.2f", result.commits() / (double) Math.max(1, result.fsyncs())),
                            result.longestMicros() / 1000.0));
                    System.err.println("done: " + clients + " clients, " + durability.label);
                }
            }
        } finally {
            deleteTree(scratch);
        }
        report.append("\nThe coordinator logs each two-host transaction's prepare, commit, end and forgetting (the")
                .append(" participant its prepare, end and forgetting), and each drain that holds records waits for")
                .append(" an fsync. With an fsync per drain they are made under the host's lock, one at a time; with")
                .append(" group commit one fsync covers whatever every transaction wrote before it began, so the")
                .append(" commits per fsync rise with the clients. A lone client gains nothing: its fsyncs follow")
                .append(" one another (prepare here, prepare there, commit) and nothing else shares them.\n");
        System.out.print(report);
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), report);
        }
    }

    private static Result run(Durability durability, int clients, Path logs) throws InterruptedException {
        Storage coordinatorLog = storage(durability, logs.resolve("front"));
        try (InMemoryNetwork network = new InMemoryNetwork()) {
            Host front = Host.inMemory(network, "front", coordinatorLog);
            Host back = Host.inMemory(network, "back", storage(durability, logs.resolve("back")));
            List<Node> pairs = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                pairs.add(front.connect(Node::create, back, Node::create).local());
            }
            AtomicBoolean measuring = new AtomicBoolean();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong commits = new AtomicLong();
            AtomicLong longest = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (Node pair : pairs) {
                threads.add(startClient(pair, measuring, stop, commits, longest));
            }
            Thread.sleep(WARMUP.toMillis());
            long fsyncsBefore = fsyncs(coordinatorLog);
            long start = System.nanoTime();
            measuring.set(true);
            Thread.sleep(RUN.toMillis());
            measuring.set(false);
            double seconds = (System.nanoTime() - start) / 1e9;
            long fsyncs = fsyncs(coordinatorLog) - fsyncsBefore;
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(30));
            }
            front.close();
            back.close();
            return new Result(commits.get(), seconds, fsyncs, longest.get());
        }
    }

    private static Storage storage(Durability durability, Path directory) {
        return switch (durability) {
            case OFF -> new InMemoryStorage();
            case EACH -> FileStorage.open(directory, Storage.Commit.EACH);
            case GROUP -> FileStorage.open(directory, Storage.Commit.GROUP);
        };
    }

    private static long fsyncs(Storage storage) {
        return storage instanceof FileStorage file ? file.syncs() : 0;
    }

    /** One client: bumps its own pair of endpoints until told to stop, counting what ends while measuring. */
    private static Thread startClient(Node pair, AtomicBoolean measuring, AtomicBoolean stop, AtomicLong commits,
            AtomicLong longestMicros) {
        return Thread.ofPlatform().daemon().start(() -> {
            while (!stop.get()) {
                long begin = System.nanoTime();
                pair.bump(1);
                if (measuring.get()) {
                    commits.incrementAndGet();
                    longestMicros.accumulateAndGet((System.nanoTime() - begin) / 1000, Math::max);
                }
            }
        });
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
