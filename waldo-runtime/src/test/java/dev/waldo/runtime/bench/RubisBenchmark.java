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
 * A RUBiS-style bid workload (Claret's second benchmark, Holt et al.), not a test: clients on 4
 * client hosts place bids on auction items of one store host, the item drawn from a Zipf
 * distribution so that a few hot items take most bids. A bid is one transaction of three calls
 * to the store, each after a think time that stands in for the client-store network hop:
 * {@code bids[item].append(amount)}, {@code count[item] += 1}, and
 * {@code if (amount > max[item]) { max[item] = amount; }}. Abstract locks (boosting) off: each
 * call locks its item's entry exclusively; on: the increment takes the commuting ADD mode, the
 * append the APPEND mode (a delta, exclusive: see LockMode), and only the max is read (shared)
 * and, when the bid is higher, written.
 * Off and on run one after the other in one JVM for the same bounded time; the report prints
 * throughput and abort ratios side by side, and checks each run's final state (every item's
 * count equals its list of bids, its max the highest of them, and the counts add up to the
 * committed bids).
 *
 * <p>Run with {@code bench/rubis/run.sh}; it writes {@code bench/rubis/RESULTS.md}.
 * {@code -Drubis.seconds}, {@code -Drubis.clients} and {@code -Drubis.items} change the setting;
 * {@code -Drubis.zipf} and {@code -Drubis.thinkMicros} are comma-separated lists, and each pair of
 * values is a pair of runs.
 */
public final class RubisBenchmark {
    private static final Duration RUN = Duration.ofSeconds(Integer.getInteger("rubis.seconds", 5));
    private static final int CLIENTS = Integer.getInteger("rubis.clients", 32);
    private static final int CLIENT_HOSTS = 4;
    private static final int ITEMS = Integer.getInteger("rubis.items", 1_000);
    private static final String ZIPF = System.getProperty("rubis.zipf", "0.99,1.4");
    private static final String THINK_MICROS = System.getProperty("rubis.thinkMicros", "2000,500");
    /** Bids are uniform below this, so a hot item's max soon stops rising and most bids only read it. */
    private static final double HIGHEST_BID = 1_000;

    /** What one mode achieved in one run; {@code problem} is null if the final state checked out. */
    private record Result(long commits, long attempts, double seconds, String problem) {
        double perSecond() {
            return commits / seconds;
        }

        /** Attempts that did not commit (wounded, or stopped at the end of the run), of all attempts. */
        double abortRatio() {
            return attempts == 0 ? 0 : (double) (attempts - commits) / attempts;
        }
    }

    /**
     * The auction store, as a hand-written endpoint in the shape the compiler emits for
     * {@code Map(from: Text, to: Number) max; Map(from: Text, to: Number) count;
     * Map(from: Text, to: List(element: Number)) bids;} with one Public function per step of a bid.
     */
    static final class Auction extends WaldoEndpoint {
        final TMap<String, Double> max;
        final TMap<String, Double> count;
        final TMap<String, WList<Double>> bids;

        Auction(Host host) {
            super(host, "Auction");
            max = mapVar("max");
            count = mapVar("count");
            bids = mapVar("bids");
        }

        void open() {
            transact("open", ctx -> {
                for (int item = 0; item < ITEMS; item++) {
                    max.put(ctx, item(item), 0.0);
                    count.put(ctx, item(item), 0.0);
                    bids.put(ctx, item(item), new WList<>());
                }
                return null;
            });
        }

        @Override
        protected Object dispatch(Ctx ctx, String function, Object[] args) {
            String item = (String) args[0];
            double amount = (Double) args[1];
            switch (function) {
                case "recordBid" -> bids.appendAt(ctx, item, amount);
                case "countBid" -> count.addAt(ctx, item, 1);
                case "raiseMax" -> {
                    if (amount > max.read(ctx, item)) {
                        max.put(ctx, item, amount);
                    }
                }
                default -> throw new ApplicationException("Auction has no Public function " + function);
            }
            return null;
        }

        @Override
        protected void runStep(Ctx ctx, SequenceFrame frame, int step) {
            throw new ApplicationException("Auction has no sequences");
        }
    }

    private RubisBenchmark() {
    }

    static String item(int item) {
        return "item" + item;
    }

    /** Runs every setting with abstract locks off and on and writes the report to args[0] (or only prints it). */
    public static void main(String[] args) throws Exception {
        Zipf warmUp = new Zipf(0.99, ITEMS);
        run(false, 500, warmUp, Duration.ofSeconds(1)); // the JIT's warm-up; discarded
        run(true, 500, warmUp, Duration.ofSeconds(1));
        StringBuilder report = new StringBuilder("# RUBiS-style bids: abstract locks off and on\n\n")
                .append(CLIENTS).append(" clients on ").append(CLIENT_HOSTS).append(" in-memory client hosts bid on ")
                .append(ITEMS).append(" items of one store host, the item drawn from a Zipf distribution (exponent s).")
                .append(" A bid is one transaction of three calls: `bids[item].append(amount)`, `count[item] += 1`,")
                .append(" `if (amount > max[item]) { max[item] = amount; }`, amounts uniform below ")
                .append(String.format("%,.0f", HIGHEST_BID)).append(", each call after a think time that stands in")
                .append(" for the client-store network hop. Each mode runs ").append(RUN.toSeconds())
                .append(" s; off and on alternate in one JVM.\n\n")
                .append(BenchReport.machine())
                .append("| Zipf s | think time per call | abstract locks | bids/s | abort ratio | retries per bid |")
                .append(" state checks | on / off |\n|---:|---:|---|---:|---:|---:|---|---:|\n");
        for (String zipf : ZIPF.split(",")) {
            Zipf skew = new Zipf(Double.parseDouble(zipf.strip()), ITEMS);
            for (String think : THINK_MICROS.split(",")) {
                long thinkMicros = Long.parseLong(think.strip());
                Result off = run(false, thinkMicros, skew, RUN);
                Result on = run(true, thinkMicros, skew, RUN);
                String setting = "| " + zipf.strip() + " | " + thinkMicros + " µs ";
                row(report, setting, "off (exclusive)", off, "");
                row(report, setting, "on (ADD, APPEND shared)", on,
                        String.format("**%.1f×**", on.perSecond() / off.perSecond()));
            }
        }
        report.append("""

                Abort ratio: attempts that did not commit (wounded and retried, or stopped when the run
                ended) of all attempts. "state checks": after the run, every item's count equals the
                length of its list of bids, its max is the highest of them, and the counts add up to the
                committed bids.

                Reading: with exclusive locks every bid on a hot item waits for (or wounds) the bid
                before it for as long as that one holds the item (its later calls, think times and
                commit); with abstract locks the appends and increments of concurrent bids commute
                (the appends install in the order of their commits' stamps, see AppendOrder) and the
                max is only read unless the bid is higher, which on a hot item soon is rare.
                """);
        BenchReport.publish(report.toString(), args);
    }

    private static void row(StringBuilder report, String setting, String mode, Result result, String ratio) {
        report.append(String.format("%s| %s | %,.0f | %.1f%% | %.2f | %s | %s |%n", setting, mode,
                result.perSecond(), 100 * result.abortRatio(),
                (double) (result.attempts() - result.commits()) / Math.max(1, result.commits()),
                result.problem() == null ? "yes" : "**NO**: " + result.problem(), ratio));
    }

    private static Result run(boolean abstractLocks, long thinkMicros, Zipf skew, Duration length)
            throws InterruptedException {
        try (InMemoryNetwork network = new InMemoryNetwork()) {
            Host storeHost = Host.inMemory(network, "store");
            storeHost.useAbstractLocks(abstractLocks);
            storeHost.useSharedAppends(abstractLocks);
            Auction auction = new Auction(storeHost);
            auction.open();
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
                threads.add(startClient(clients.get(c % CLIENT_HOSTS), auction, new Random(c), skew, thinkMicros,
                        stop, commits, attempts));
            }
            Thread.sleep(length.toMillis());
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(60));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Result(commits.get(), attempts.get(), seconds, check(auction, commits.get()));
        }
    }

    /** Null if the committed state is what the committed bids make it, else what is wrong. */
    private static String check(Auction auction, long committedBids) {
        long counted = 0;
        for (int i = 0; i < ITEMS; i++) {
            String item = item(i);
            WList<Double> bids = auction.bids.committed().get(item);
            double count = auction.count.committed().get(item);
            double highest = 0;
            for (int b = 0; b < bids.size(); b++) {
                highest = Math.max(highest, bids.get(b));
            }
            if (count != bids.size() || auction.max.committed().get(item) != highest) {
                return item + " has count " + count + " and max " + auction.max.committed().get(item) + " but "
                        + bids.size() + " bids, the highest " + highest;
            }
            counted += (long) count;
        }
        return counted == committedBids ? null : counted + " bids counted, " + committedBids + " committed";
    }

    private static Thread startClient(Node client, Auction auction, Random random, Zipf skew, long thinkMicros,
            AtomicBoolean stop, AtomicLong commits, AtomicLong attempts) {
        return Thread.ofPlatform().daemon().start(() -> {
            while (!stop.get()) {
                String item = item(skew.next(random));
                double amount = Math.floor(random.nextDouble() * HIGHEST_BID * 100) / 100;
                try {
                    client.atomically("bid", ctx -> {
                        attempts.incrementAndGet();
                        if (stop.get()) {
                            throw ctx.abort(); // the run is over: end the retries
                        }
                        for (String step : new String[] {"recordBid", "countBid", "raiseMax"}) {
                            BenchReport.think(thinkMicros);
                            ctx.call(auction.ref(), step, item, amount);
                        }
                        return null;
                    });
                    commits.incrementAndGet();
                } catch (RuntimeException stopped) {
                    if (!stop.get()) {
                        throw stopped;
                    }
                }
            }
        });
    }
}
