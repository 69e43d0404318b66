package dev.waldo.runtime.bench;

import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.SequenceFrame;
import dev.waldo.runtime.TMap;
import dev.waldo.runtime.WaldoEndpoint;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.testing.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Claret's contended microbenchmark (Holt et al.), not a test: 32 clients on
 * 4 client hosts run transactions of 4 operations each against one store
 * host; every operation increments a counter ({@code m[k] += 1}) or appends
 * to a list ({@code l[k].append(v)}) under a key drawn from a Zipf
 * distribution over 1,000 keys, so a few hot keys take most operations. Each
 * operation is a call to the store host inside the transaction, preceded by
 * a client think time that stands in for the network hop between a client
 * and its store in a data centre (the in-memory network has none). Abstract
 * locks off (every operation locks its key exclusively) and on (commuting
 * ADD mode; APPEND reads nothing but no longer shares, see LockMode) run for the same bounded time, one after the other
 * in one JVM, and the report prints them side by side.
 *
 * <p>Run with {@code bench/claret/run.sh}; it writes {@code bench/claret/RESULTS.md}.
 * {@code -Dclaret.seconds} and {@code -Dclaret.clients} change the setting; {@code -Dclaret.zipf}
 * and {@code -Dclaret.thinkMicros} are comma-separated lists, and each pair of values is a pair of runs.
 */
public final class ClaretBenchmark {
    private static final Duration RUN = Duration.ofSeconds(Integer.getInteger("claret.seconds", 5));
    private static final int CLIENTS = Integer.getInteger("claret.clients", 32);
    private static final int CLIENT_HOSTS = 4;
    private static final int KEYS = 1_000;
    private static final int OPS_PER_TXN = 4;
    private static final String ZIPF = System.getProperty("claret.zipf", "0.99,1.4");
    private static final String THINK_MICROS = System.getProperty("claret.thinkMicros", "2000,500,0");

    private static final String READING = """

            Reading: exclusive locks serialize the transactions that share a hot key for as long as
            each holds it (its remaining calls, think times and commit), and wound-wait retries the
            younger ones; abstract locks let the increments and the appends run together, so the
            gain grows with the skew and with the time a transaction holds its keys. Appends to one
            list install in the order of their commits' stamps (see AppendOrder): a commit that
            reaches the store before an earlier-stamped one waits for it, and its root for its
            install. With no think time both are bound by the CPU of the shared 2-core machine,
            not by locks, and the gain is small.
            """;

    /** What one mode achieved in one run. */
    private record Result(long commits, long retries, double seconds, long keyTotal, long expectedTotal) {
        double perSecond() {
            return commits / seconds;
        }
    }

    /**
     * The store: a counter and a list per key, as a hand-written endpoint in the
     * shape the compiler emits for
     * {@code Map(from: Text, to: Number) counters; Map(from: Text, to: List(element: Number)) lists;}
     * with {@code incr(k) { counters[k] += 1; }} and {@code push(k, v) { lists[k].append(v); }}.
     */
    static final class Store extends WaldoEndpoint {
        final TMap<String, Double> counters;
        final TMap<String, WList<Double>> lists;

        Store(Host host) {
            super(host, "Store");
            counters = mapVar("counters");
            lists = mapVar("lists");
        }

        void fill() {
            transact("fill", ctx -> {
                for (int k = 0; k < KEYS; k++) {
                    counters.put(ctx, key(k), 0.0);
                    lists.put(ctx, key(k), new WList<>());
                }
                return null;
            });
        }

        @Override
        protected Object dispatch(Ctx ctx, String function, Object[] args) {
            String key = (String) args[0];
            switch (function) {
                case "incr" -> counters.addAt(ctx, key, 1);
                case "push" -> lists.appendAt(ctx, key, args[1]);
                default -> throw new ApplicationException("Store has no Public function " + function);
            }
            return null;
        }

        @Override
        protected void runStep(Ctx ctx, SequenceFrame frame, int step) {
            throw new ApplicationException("Store has no sequences");
        }
    }

    private ClaretBenchmark() {
    }

    static String key(int k) {
        return "k" + k;
    }

    /** Runs every think time with abstract locks off and on and writes the report to args[0] (or only prints it). */
    public static void main(String[] args) throws Exception {
        StringBuilder report = new StringBuilder("# Claret's abstract locks: contended increments and appends\n\n")
                .append(CLIENTS).append(" clients on ").append(CLIENT_HOSTS).append(" in-memory client hosts; each")
                .append(" transaction makes ").append(OPS_PER_TXN).append(" calls to one store host, each an")
                .append(" increment (`m[k] += 1`) or an append (`l[k].append(v)`), half and half, on a key drawn")
                .append(" from a Zipf distribution (exponent s) over ").append(KEYS)
                .append(" keys. A think time before each call stands in for the client-store network hop.")
                .append(" Each mode runs ").append(RUN.toSeconds()).append(" s; off and on alternate in one JVM.\n\n")
                .append(BenchReport.machine())
                .append("| Zipf s | think time per call | abstract locks | commits/s | retries per commit |")
                .append(" counted ops | on / off |\n|---:|---:|---|---:|---:|---|---:|\n");
        for (String zipf : ZIPF.split(",")) {
            Zipf skew = new Zipf(Double.parseDouble(zipf.strip()), KEYS);
            for (String think : THINK_MICROS.split(",")) {
                long thinkMicros = Long.parseLong(think.strip());
                Result off = run(false, thinkMicros, skew);
                Result on = run(true, thinkMicros, skew);
                String setting = "| " + zipf.strip() + " | " + thinkMicros + " µs ";
                row(report, setting, "off (exclusive)", off, "");
                row(report, setting, "on (ADD, APPEND shared)", on,
                        String.format("**%.1f×**", on.perSecond() / off.perSecond()));
            }
        }
        report.append("\n\"counted ops\" checks each run: the counters' sum and the lists' lengths equal the")
                .append(" operations of the committed transactions (every concurrent delta counted once).\n")
                .append(READING);
        BenchReport.publish(report.toString(), args);
    }

    private static void row(StringBuilder report, String setting, String mode, Result result, String ratio) {
        report.append(String.format("%s| %s | %,.0f | %.2f | %s | %s |%n", setting, mode, result.perSecond(),
                (double) result.retries() / Math.max(1, result.commits()),
                result.keyTotal() == result.expectedTotal() ? "yes (" + result.keyTotal() + ")"
                        : "**NO**: " + result.keyTotal() + " of " + result.expectedTotal(), ratio));
    }

    private static Result run(boolean abstractLocks, long thinkMicros, Zipf skew) throws InterruptedException {
        try (InMemoryNetwork network = new InMemoryNetwork()) {
            Host storeHost = Host.inMemory(network, "store");
            storeHost.useAbstractLocks(abstractLocks);
            storeHost.useSharedAppends(abstractLocks);
            Store store = new Store(storeHost);
            store.fill();
            List<Node> clients = new ArrayList<>();
            for (int h = 0; h < CLIENT_HOSTS; h++) {
                Host host = Host.inMemory(network, "client" + h);
                host.useAbstractLocks(abstractLocks);
                host.useSharedAppends(abstractLocks);
                clients.add(Node.create(host));
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong commits = new AtomicLong();
            AtomicLong attempts = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            long start = System.nanoTime();
            for (int c = 0; c < CLIENTS; c++) {
                threads.add(startClient(clients.get(c % CLIENT_HOSTS), store, new Random(c), skew, thinkMicros,
                        stop, commits, attempts));
            }
            Thread.sleep(RUN.toMillis());
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(60));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Result(commits.get(), attempts.get() - commits.get(), seconds, total(store),
                    commits.get() * OPS_PER_TXN);
        }
    }

    /** Every increment and every appended element, committed: what the committed transactions must add up to. */
    private static long total(Store store) {
        long total = 0;
        for (int k = 0; k < KEYS; k++) {
            total += store.counters.committed().get(key(k)).longValue();
            total += store.lists.committed().get(key(k)).size();
        }
        return total;
    }

    private static Thread startClient(Node client, Store store, Random random, Zipf skew, long thinkMicros,
            AtomicBoolean stop, AtomicLong commits, AtomicLong attempts) {
        return Thread.ofPlatform().daemon().start(() -> {
            while (!stop.get()) {
                String[] keys = new String[OPS_PER_TXN];
                boolean[] increments = new boolean[OPS_PER_TXN];
                for (int i = 0; i < OPS_PER_TXN; i++) {
                    keys[i] = key(skew.next(random));
                    increments[i] = random.nextBoolean();
                }
                client.atomically("ops", ctx -> {
                    attempts.incrementAndGet();
                    for (int i = 0; i < OPS_PER_TXN; i++) {
                        BenchReport.think(thinkMicros);
                        if (increments[i]) {
                            ctx.call(store.ref(), "incr", keys[i]);
                        } else {
                            ctx.call(store.ref(), "push", keys[i], (double) i);
                        }
                    }
                    return null;
                });
                commits.incrementAndGet();
            }
        });
    }
}
