package dev.waldo.runtime.bench;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.testing.Node;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Snapshot reads (Walter), not a test: read-only transactions among long writers, with
 * {@link Host#useSnapshotReads} off and on, from one run. Two hosts in one JVM: the clients' host
 * runs every root, the store host holds a map of keys. Each writer bumps a random key on the store
 * and then works inside its transaction (holding the key's lock, as an apply holds a switch's
 * variables through its reads and its slow SNMP push); each reader is a read-only transaction
 * ({@link Host#readOnly}) reading a few random keys on the store. With locking reads a reader waits
 * for a younger writer that holds a key it reads, and an older one wounds it (the writer runs
 * again); snapshot readers take no locks, and pay a refusal (run again) when a writer installed
 * over what they read before they prepared.
 *
 * <p>Run with {@code bench/snapshot/run.sh}; it writes {@code bench/snapshot/RESULTS.md}.
 */
public final class SnapshotReadBenchmark {
    private static final Duration RUN = Duration.ofSeconds(Integer.getInteger("snapshot.seconds", 5));
    private static final Duration WARMUP = Duration.ofSeconds(1);
    private static final int WRITERS = Integer.getInteger("snapshot.writers", 4);
    private static final int READERS = Integer.getInteger("snapshot.readers", 8);
    /** How long a writer works inside its transaction after its write, holding the key. */
    private static final int WRITE_HOLD_MS = Integer.getInteger("snapshot.writeHoldMs", 5);
    /** Keys each reader reads in one transaction. */
    private static final int KEYS_PER_READ = 4;
    private static final int[] KEY_COUNTS = {8, 1_000};

    /** What one configuration achieved. */
    private record Result(double seconds, long reads, long readAttempts, List<Long> readMicros, long writes,
                          long writeAttempts) {
        double readsPerSecond() {
            return reads / seconds;
        }

        double writesPerSecond() {
            return writes / seconds;
        }

        double percentileMs(double fraction) {
            if (readMicros.isEmpty()) {
                return Double.NaN;
            }
            List<Long> sorted = new ArrayList<>(readMicros);
            Collections.sort(sorted);
            return sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * fraction))) / 1000.0;
        }
    }

    private SnapshotReadBenchmark() {
    }

    /** Runs every configuration and writes the report to the path in args[0] (or prints it only). */
    public static void main(String[] args) throws Exception {
        StringBuilder report = new StringBuilder("# Snapshot reads: read-only transactions among long writers\n\n")
                .append("Two in-memory-network hosts in one JVM. ").append(WRITERS).append(" writers each bump a random")
                .append(" key on the store host, then work ").append(WRITE_HOLD_MS).append(" ms inside the transaction")
                .append(" (holding the key); ").append(READERS).append(" readers each read ").append(KEYS_PER_READ)
                .append(" random keys there in a read-only transaction (`Host.readOnly`), with snapshot reads off")
                .append(" (locking reads) and on. Each configuration runs ").append(RUN.toSeconds()).append(" s after ")
                .append(WARMUP.toSeconds()).append(" s of warm-up, all from one run.\n\n- date: ").append(Instant.now())
                .append("\n- cores: ").append(Runtime.getRuntime().availableProcessors()).append("\n- JDK: ")
                .append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.version"))
                .append("\n- load average (1 min) at the start: ").append(loadAverage())
                .append("\n\n| keys | snapshot reads | reads/s | read p50 | read p99 | attempts per read |")
                .append(" writes/s | attempts per write |\n|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (int keys : KEY_COUNTS) {
            for (boolean snapshot : new boolean[] {false, true}) {
                Result result = run(keys, snapshot);
                report.append(String.format("| %,d | %s | %,.0f | %.1f ms | %.1f ms | %.2f | %,.0f | %.2f |%n", keys,
                        snapshot ? "on" : "off", result.readsPerSecond(), result.percentileMs(0.5),
                        result.percentileMs(0.99), result.readAttempts() / (double) Math.max(1, result.reads()),
                        result.writesPerSecond(), result.writeAttempts() / (double) Math.max(1, result.writes())));
                System.err.println("done: " + keys + " keys, snapshot reads " + (snapshot ? "on" : "off"));
            }
        }
        report.append("\n- load average (1 min) at the end: ").append(loadAverage()).append('\n');
        System.out.print(report);
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), report);
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static Result run(int keys, boolean snapshot) throws InterruptedException {
        try (InMemoryNetwork network = new InMemoryNetwork()) {
            Host clients = Host.inMemory(network, "clients");
            Host store = Host.inMemory(network, "store");
            clients.useSnapshotReads(snapshot);
            Host.Connection<Node, Node> pair = clients.connect(Node::create, store, Node::create);
            Node root = pair.local();
            Node data = pair.remote();
            defineFunctions(data);
            data.atomically("fill", ctx -> {
                for (int key = 0; key < keys; key++) {
                    data.table.put(ctx, "k" + key, 0.0);
                }
                return null;
            });
            Counters counters = new Counters();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                threads.add(writer(root, data, keys, new Random(1_000 + i), counters));
            }
            for (int i = 0; i < READERS; i++) {
                threads.add(reader(clients, root, data, keys, new Random(2_000 + i), counters));
            }
            Thread.sleep(WARMUP.toMillis());
            long start = System.nanoTime();
            counters.measuring.set(true);
            Thread.sleep(RUN.toMillis());
            counters.measuring.set(false);
            double seconds = (System.nanoTime() - start) / 1e9;
            counters.stop.set(true);
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(30));
            }
            clients.close();
            store.close();
            if (counters.failure.get() != null) {
                throw new IllegalStateException("a client failed; the run is worthless", counters.failure.get());
            }
            return new Result(seconds, counters.reads.get(), counters.readAttempts.get(),
                    List.copyOf(counters.readMicros), counters.writes.get(), counters.writeAttempts.get());
        }
    }

    /** The store's functions: {@code bumpKey(key)} writes a key, {@code peek(keys)} reads some. */
    private static void defineFunctions(Node data) {
        data.define("bumpKey", (ctx, args) -> {
            String key = (String) args[0];
            data.table.put(ctx, key, data.table.get(ctx, key) + 1);
            return null;
        });
        data.define("peek", (ctx, args) -> {
            double sum = 0;
            for (Object key : (WList<?>) args[0]) {
                sum += data.table.read(ctx, (String) key);
            }
            return sum;
        });
    }

    /** What the clients did while measuring. */
    private static final class Counters {
        final AtomicBoolean measuring = new AtomicBoolean();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong reads = new AtomicLong();
        final AtomicLong readAttempts = new AtomicLong();
        final List<Long> readMicros = Collections.synchronizedList(new ArrayList<>());
        final AtomicLong writes = new AtomicLong();
        final AtomicLong writeAttempts = new AtomicLong();
        /** What ended a client thread, if one failed: the run is then worthless. */
        final java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();

        /** Runs {@code client} until stopped, keeping what ended it if it failed. */
        Thread start(Runnable client) {
            return Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (!stop.get()) {
                        client.run();
                    }
                } catch (RuntimeException | Error e) {
                    failure.compareAndSet(null, e);
                }
            });
        }
    }

    private static Thread writer(Node root, Node data, int keys, Random random, Counters counters) {
        return counters.start(() -> {
            String key = "k" + random.nextInt(keys);
            AtomicLong attempts = new AtomicLong();
            root.atomically("write", ctx -> {
                attempts.incrementAndGet();
                ctx.call(data.ref(), "bumpKey", key);
                pause(WRITE_HOLD_MS);
                return null;
            });
            if (counters.measuring.get()) {
                counters.writes.incrementAndGet();
                counters.writeAttempts.addAndGet(attempts.get());
            }
        });
    }

    private static Thread reader(Host clients, Node root, Node data, int keys, Random random, Counters counters) {
        return counters.start(() -> {
            WList<String> wanted = new WList<>();
            for (int i = 0; i < KEYS_PER_READ; i++) {
                wanted.add("k" + random.nextInt(keys));
            }
            AtomicLong attempts = new AtomicLong();
            long begin = System.nanoTime();
            clients.readOnly(() -> root.atomically("read", ctx -> {
                attempts.incrementAndGet();
                return ctx.call(data.ref(), "peek", wanted);
            }));
            if (counters.measuring.get()) {
                counters.reads.incrementAndGet();
                counters.readAttempts.addAndGet(attempts.get());
                counters.readMicros.add((System.nanoTime() - begin) / 1000);
            }
        });
    }

    private static void pause(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
