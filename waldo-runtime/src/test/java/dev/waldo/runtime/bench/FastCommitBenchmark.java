package dev.waldo.runtime.bench;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.storage.FileStorage;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.storage.Storage;
import dev.waldo.runtime.testing.Node;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Fast commit against two-phase commit for single-host transactions, not a test: a root on host
 * "client" whose data all live on host "store" (it adds to a variable there through a Public
 * function call) commits in one of three ways, taking turns round by round so that each meets
 * the same machine load:
 * <ul>
 *   <li>2PC: the call goes plain, then Prepare/Vote and, after the caller returned, Commit/Ack;</li>
 *   <li>fast commit ({@code Host.useFastCommit}): the call, then Delegate/Vote, nothing after;</li>
 *   <li>2PC with the prepare on the call ({@code ctx.lastCall}): the call carries the prepare and
 *       its reply the vote, then Commit/Ack after the caller returned.</li>
 * </ul>
 * Each with durability off (in-memory storage) and on (a {@link FileStorage} per host, an fsync
 * per write). Latency is the caller's: from the call of the root to its return.
 *
 * <p>Run with {@code bench/fastcommit/run.sh}; it writes {@code bench/fastcommit/RESULTS.md}.
 */
public final class FastCommitBenchmark {
    private static final int ROUNDS = Integer.getInteger("fastcommit.rounds", 5);
    private static final int PER_ROUND = Integer.getInteger("fastcommit.transactions", 2_000);
    private static final int PER_ROUND_DURABLE = Integer.getInteger("fastcommit.durableTransactions", 200);

    /** How the single-host transaction commits. */
    private enum Mode {
        TWO_PC("2PC (call, then Prepare/Vote; Commit/Ack after the return)"),
        FAST("fast commit (call, then Delegate/Vote)"),
        LAST_CALL("2PC, prepare on the last call (Commit/Ack after the return)");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    private FastCommitBenchmark() {
    }

    /** Runs every configuration and writes the report to args[0]; args[1] is where the durable logs go. */
    public static void main(String[] args) throws Exception {
        Path logs = Files.createTempDirectory(Path.of(args.length > 1 ? args[1] : "."), "fast-commit-logs");
        StringBuilder report = new StringBuilder("# Fast commit vs 2PC latency for single-host transactions\n\n")
                .append("Two hosts on the in-memory network in one JVM; a root on `client` adds to a variable on")
                .append(" `store` through one Public function call, serially. The three ways take turns round by")
                .append(" round (").append(ROUNDS).append(" rounds of ").append(PER_ROUND).append(" transactions, ")
                .append(PER_ROUND_DURABLE).append(" with durability on, after a warm-up round). Microseconds.\n\n")
                .append(BenchReport.machine())
                .append("| durability | commit | p50 | p99 | max | transactions |\n|---|---|---:|---:|---:|---:|\n");
        for (boolean durable : new boolean[] {false, true}) {
            int perRound = durable ? PER_ROUND_DURABLE : PER_ROUND;
            List<List<Long>> samples = new ArrayList<>();
            for (Mode mode : Mode.values()) {
                samples.add(new ArrayList<>());
            }
            for (int round = 0; round <= ROUNDS; round++) {
                for (Mode mode : Mode.values()) {
                    List<Long> run = run(mode, durable, perRound, logs.resolve(mode + "-" + durable + "-" + round));
                    if (round > 0) {
                        samples.get(mode.ordinal()).addAll(run);
                    }
                }
            }
            for (Mode mode : Mode.values()) {
                long[] sorted = samples.get(mode.ordinal()).stream().mapToLong(Long::longValue).sorted().toArray();
                report.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1f | %d |%n",
                        durable ? "on (fsync per write)" : "off (in memory)", mode.label, percentile(sorted, 50),
                        percentile(sorted, 99), sorted[sorted.length - 1] / 1e3, sorted.length));
            }
        }
        BenchReport.publish(report.toString(), args);
    }

    /** One round of one mode on fresh hosts; returns each transaction's latency in nanoseconds. */
    private static List<Long> run(Mode mode, boolean durable, int transactions, Path logs) throws Exception {
        try (InMemoryNetwork network = new InMemoryNetwork()) {
            Host client = Host.inMemory(network, "client", storage(durable, logs.resolve("client")));
            Host store = Host.inMemory(network, "store", storage(durable, logs.resolve("store")));
            client.useFastCommit(mode == Mode.FAST);
            Host.Connection<Node, Node> pair = client.connect(Node::create, store, Node::create);
            Node root = pair.local();
            Node remote = pair.remote();
            List<Long> latencies = new ArrayList<>(transactions);
            for (int i = 0; i < transactions; i++) {
                long start = System.nanoTime();
                root.atomically("addThere", ctx -> mode == Mode.LAST_CALL
                        ? ctx.lastCall(remote.ref(), "add", "y", 1.0) : ctx.call(remote.ref(), "add", "y", 1.0));
                latencies.add(System.nanoTime() - start);
            }
            if (remote.y.committed() != transactions) {
                throw new IllegalStateException(mode + ": " + remote.y.committed() + " of " + transactions + " counted");
            }
            client.close();
            store.close();
            return latencies;
        }
    }

    private static Storage storage(boolean durable, Path dir) throws Exception {
        if (!durable) {
            return new InMemoryStorage();
        }
        Files.createDirectories(dir);
        return FileStorage.open(dir);
    }

    private static double percentile(long[] sorted, int percent) {
        int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e3;
    }
}
