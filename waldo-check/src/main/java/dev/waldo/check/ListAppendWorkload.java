package dev.waldo.check;

import dev.waldo.check.program.ClientDesk;
import dev.waldo.check.program.ListClient;
import dev.waldo.check.program.Op;
import dev.waldo.check.program.Structs;
import dev.waldo.net.NetHost;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.WaldoException;
import dev.waldo.runtime.lang.WList;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients of the list-append workload, all in this JVM on one Waldo host, so
 * that one clock ({@link System#nanoTime()}) times every invocation and
 * completion of the history. Each client runs one transaction at a time: a
 * few appends of unique values and reads, on keys spread over the store hosts
 * (each key, {@code s<store>k<slot>g<generation>}, lives on one store), through {@code ListClient.run}, which is one
 * transaction across every store it touches.
 */
public final class ListAppendWorkload implements AutoCloseable {
    /** How long to wait at the end for a client whose transaction still runs before calling its outcome unknown. */
    private static final Duration STRAGGLER_PATIENCE = Duration.ofSeconds(15);

    /**
     * The shape of the load.
     *
     * @param clients concurrent clients, each one transaction at a time
     * @param keysPerStore keys in use on each store at a time (fewer keys: more conflicts)
     * @param maxOpsPerTxn operations per transaction, from 2 up to this
     * @param appendsPerKey appends after which a key is retired for a fresh one (as Elle does), so
     *     that lists, and the history's reads of them, stay short however long the run
     * @param seed seeds every client's choices
     */
    public record Settings(int clients, int keysPerStore, int maxOpsPerTxn, int appendsPerKey, long seed) {
    }

    private record Pending(int id, int process, long invokedAt, List<MicroOp> ops) {
    }

    private final NetHost net;
    private final ListClient client;
    private final WList<EndpointRef> stores;
    private final Settings settings;
    private final Set<Integer> down = ConcurrentHashMap.newKeySet();
    /** Appends issued so far to each key slot ("s{store}k{slot}"); the slot's current key follows from it. */
    private final Map<String, AtomicInteger> slotAppends = new ConcurrentHashMap<>();
    private final AtomicLong nextValue = new AtomicLong(1);
    private final AtomicInteger nextId = new AtomicInteger();
    private final ConcurrentLinkedQueue<Txn> finished = new ConcurrentLinkedQueue<>();
    private final Map<Integer, Pending> running = new ConcurrentHashMap<>();
    private final AtomicInteger committed = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();

    private ListAppendWorkload(NetHost net, WList<EndpointRef> stores, Settings settings) {
        this.net = net;
        this.client = ListClient.create(net.host());
        this.stores = stores;
        this.settings = settings;
    }

    /** Connects a client host (state in {@code stateDir}) to every store at {@code storeAddresses}. */
    public static ListAppendWorkload connect(List<InetSocketAddress> storeAddresses, Path stateDir, boolean tls,
            Settings settings) {
        NetHost net = NetHost.start(StoreServer.hostConfig("client", stateDir, tls), Structs::create);
        try {
            WList<EndpointRef> desks = new WList<>();
            for (InetSocketAddress address : storeAddresses) {
                desks.add(net.connect(address, ClientDesk::create).partner());
            }
            return new ListAppendWorkload(net, ListClient.create(net.host()).services(desks), settings);
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
    }

    /** From now on no new transaction touches store {@code store} (it was killed). */
    public void markDown(int store) {
        down.add(store);
    }

    /** Transactions committed so far. */
    public int committed() {
        return committed.get();
    }

    /** Transactions that failed so far. */
    public int failed() {
        return failed.get();
    }

    /** Errors other than the runtime's "backed out" ones (their transactions count as unknown). */
    public List<String> unexpectedErrors() {
        return List.copyOf(unexpected);
    }

    /**
     * Runs the clients until {@code duration} passed or {@code maxTxns} were
     * started, waits (bounded) for the last ones, and returns the history of
     * this run and every earlier one of this workload (so a run can be
     * extended); a transaction still running then is recorded with an unknown
     * outcome.
     */
    public History run(Duration duration, int maxTxns) throws InterruptedException {
        long stopAt = System.nanoTime() + duration.toNanos();
        AtomicInteger started = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < settings.clients(); c++) {
            int process = c;
            Random random = new Random(settings.seed() * 1_000 + c);
            threads.add(Thread.ofPlatform().daemon().name("list-append-client-" + c).start(() -> {
                while (System.nanoTime() < stopAt && started.incrementAndGet() <= maxTxns) {
                    runOne(process, random);
                }
            }));
        }
        long patienceUntil = stopAt + STRAGGLER_PATIENCE.toNanos();
        for (Thread thread : threads) {
            long leftMs = Math.max(1, (patienceUntil - System.nanoTime()) / 1_000_000);
            thread.join(leftMs);
        }
        // Running ones first: one that finishes in between is then in both lists, and its outcome wins.
        List<Pending> stragglers = List.copyOf(running.values());
        List<Txn> txns = new ArrayList<>(finished);
        Set<Integer> known = new java.util.HashSet<>();
        txns.forEach(t -> known.add(t.id()));
        for (Pending pending : stragglers) {
            if (!known.contains(pending.id)) {
                txns.add(new Txn(pending.id, pending.process, pending.invokedAt, Txn.NEVER, Outcome.UNKNOWN,
                        pending.ops));
            }
        }
        return new History(txns);
    }

    private void runOne(int process, Random random) {
        List<MicroOp> ops = generate(random);
        WList<Op> program = new WList<>();
        for (MicroOp op : ops) {
            Op step = new Op();
            step.append = op.append();
            step.store = storeOf(op.key());
            step.key = op.key();
            step.value = op.value();
            program.add(step);
        }
        Pending pending = new Pending(nextId.incrementAndGet(), process, System.nanoTime(), ops);
        running.put(pending.id, pending);
        Outcome outcome;
        List<MicroOp> observed = ops;
        try {
            WList<WList<Double>> results = client.run(program, stores);
            observed = withResults(ops, results);
            outcome = Outcome.OK;
            committed.incrementAndGet();
        } catch (WaldoException backedOut) {
            outcome = Outcome.FAILED;
            failed.incrementAndGet();
        } catch (RuntimeException other) {
            outcome = Outcome.UNKNOWN;
            unexpected.add(other.toString());
        }
        long completedAt = System.nanoTime();
        running.remove(pending.id);
        finished.add(new Txn(pending.id, process, pending.invokedAt, completedAt, outcome, observed));
    }

    /** 2 to maxOpsPerTxn operations, each an append or a read of a random key on a store that is up. */
    private List<MicroOp> generate(Random random) {
        List<Integer> up = new ArrayList<>();
        for (int s = 0; s < stores.size(); s++) {
            if (!down.contains(s)) {
                up.add(s);
            }
        }
        List<MicroOp> ops = new ArrayList<>();
        int count = 2 + random.nextInt(Math.max(1, settings.maxOpsPerTxn() - 1));
        for (int i = 0; i < count; i++) {
            String slot = "s" + up.get(random.nextInt(up.size())) + "k" + random.nextInt(settings.keysPerStore());
            AtomicInteger appends = slotAppends.computeIfAbsent(slot, s -> new AtomicInteger());
            if (random.nextBoolean()) {
                String key = slot + "g" + appends.getAndIncrement() / settings.appendsPerKey();
                ops.add(MicroOp.append(key, nextValue.getAndIncrement()));
            } else {
                ops.add(MicroOp.read(slot + "g" + appends.get() / settings.appendsPerKey(), null));
            }
        }
        return ops;
    }

    private static int storeOf(String key) {
        return Integer.parseInt(key.substring(1, key.indexOf('k')));
    }

    private static List<MicroOp> withResults(List<MicroOp> ops, WList<WList<Double>> results) {
        List<MicroOp> observed = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            MicroOp op = ops.get(i);
            if (op.append()) {
                observed.add(op);
            } else {
                observed.add(MicroOp.read(op.key(), results.get(i).stream().map(Double::longValue).toList()));
            }
        }
        return observed;
    }

    /** Closes the client host. */
    @Override
    public void close() {
        net.close();
    }
}
