package dev.waldo.check;

import dev.waldo.check.program.ClientDesk;
import dev.waldo.check.program.ListClient;
import dev.waldo.check.program.Op;
import dev.waldo.check.program.Structs;
import dev.waldo.net.NetHost;
import dev.waldo.runtime.DecisionRegister;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.storage.FileStorage;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.storage.Storage;
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
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients of the list-append workload, on one Waldo host (this JVM's, or a
 * {@link ClientProcess}'s). Every invocation and completion is timed by
 * {@link System#nanoTime()}, which on Linux reads the system-wide monotonic
 * clock, so histories of client processes on one machine share one clock.
 * Each client runs one transaction at a time: a few appends of unique values
 * and reads, on keys spread over the store hosts (each key,
 * {@code s<store>r<incarnation>k<slot>g<generation>}, lives on one run of one
 * store), through {@code ClientDesk.run} on the desk connected to the store of
 * its last operation: one transaction across every store it touches, whose
 * last operation is the sequence step that carries the prepare.
 *
 * <p>With {@link Settings#readOnlyPercent} above 0, that share of the transactions only
 * reads, and runs read-only ({@code Host.readOnly}) on a client host with snapshot reads on:
 * it takes no locks on the stores and validates its reads at prepare.
 *
 * <p>With {@link Settings#byCallsPercent} above 0, that share of the transactions runs through
 * {@code ClientDesk.runByCalls} (Public calls only, no early vote) on a client host with
 * Walter's fast commit on: half of them on one store, which commits them alone, half across
 * stores, which fall back to two-phase commit ({@link Route}).
 *
 * <p>An outcome is {@code FAILED} only when the runtime said the transaction
 * was backed out ({@link TransactionAbortedException}). A
 * {@link NetworkException} is indeterminate, as an "info" operation is in
 * Elle: a commit may have been decided while the link went down, so the
 * transaction is recorded {@code UNKNOWN} (it may or may not have happened).
 */
public final class ListAppendWorkload implements AutoCloseable {
    /** How long to wait at the end for a client whose transaction still runs before calling its outcome unknown. */
    private static final Duration STRAGGLER_PATIENCE = Duration.ofSeconds(15);
    /** How long {@link #storeRestarted} waits for the transport's own redial of a restarted store. */
    private static final Duration RELINK_PATIENCE = Duration.ofSeconds(5);

    /**
     * The shape of the load.
     *
     * @param clients concurrent clients, each one transaction at a time
     * @param keysPerStore keys in use on each store at a time (fewer keys: more conflicts)
     * @param maxOpsPerTxn operations per transaction, from 2 up to this
     * @param appendsPerKey appends after which a key is retired for a fresh one (as Elle does), so
     *     that lists, and the history's reads of them, stay short however long the run
     * @param seed seeds every client's choices
     * @param idBase transaction ids start above this, and client numbers ({@link Txn#process}) at it
     *     divided by 10,000: distinct bases keep the histories of several client hosts apart
     * @param valueBase appended values start above this (they must be unique across client hosts, and
     *     below 2^53: Waldo numbers are doubles)
     * @param readOnlyPercent the share of transactions, in percent, that only read and run
     *     read-only with snapshot reads (0: none, and snapshot reads stay off)
     * @param byCallsPercent the share of the other transactions, in percent, that end on a Public
     *     call instead of the one-round-trip sequence, half of them on one store, with fast commit
     *     on in the client host (0: none, and fast commit stays off)
     * @param groupCommit whether the client host's storage group-commits ({@code Storage.Commit.GROUP})
     * @param sharedAppends whether the client host shares appends ({@code Host.useSharedAppends}), as
     *     stores started with {@code --shared-appends} do: it coordinates their commits
     */
    public record Settings(int clients, int keysPerStore, int maxOpsPerTxn, int appendsPerKey, long seed,
                           int idBase, long valueBase, int readOnlyPercent, int byCallsPercent,
                           boolean groupCommit, boolean sharedAppends) {
        /** Settings for the only client host of a run. */
        public Settings(int clients, int keysPerStore, int maxOpsPerTxn, int appendsPerKey, long seed) {
            this(clients, keysPerStore, maxOpsPerTxn, appendsPerKey, seed, 0, 0, 0, 0, false, false);
        }

        /** These settings with {@code percent} of the transactions read-only, read through snapshot reads. */
        public Settings withReadOnly(int percent) {
            return new Settings(clients, keysPerStore, maxOpsPerTxn, appendsPerKey, seed, idBase, valueBase, percent,
                    byCallsPercent, groupCommit, sharedAppends);
        }

        /**
         * These settings with {@code percent} of the transactions ending on Public calls, half of them on
         * one store, and fast commit on.
         */
        public Settings withByCalls(int percent) {
            return new Settings(clients, keysPerStore, maxOpsPerTxn, appendsPerKey, seed, idBase, valueBase,
                    readOnlyPercent, percent, groupCommit, sharedAppends);
        }

        /** These settings with the client host's storage group-committing, or not. */
        public Settings withGroupCommit(boolean on) {
            return new Settings(clients, keysPerStore, maxOpsPerTxn, appendsPerKey, seed, idBase, valueBase,
                    readOnlyPercent, byCallsPercent, on, sharedAppends);
        }

        /** These settings with the client host sharing appends, or not. */
        public Settings withSharedAppends(boolean on) {
            return new Settings(clients, keysPerStore, maxOpsPerTxn, appendsPerKey, seed, idBase, valueBase,
                    readOnlyPercent, byCallsPercent, groupCommit, on);
        }
    }

    /** How a transaction ends, and so how it commits. */
    public enum Route {
        /** {@code ClientDesk.run}: the last operation is the sequence step that carries the prepare. */
        LAST_OP,
        /** {@code ClientDesk.runByCalls} on one store: fast commit applies, that store decides alone. */
        CALLS_ONE_STORE,
        /** {@code ClientDesk.runByCalls} on two stores or more: two-phase commit, no early vote. */
        CALLS_ACROSS_STORES
    }

    /**
     * Where a client host writes each transaction as it starts (outcome unknown) and again as it
     * ends, so that the history of a client killed mid-transaction survives it
     * ({@link History#readJournals}).
     */
    public interface Journal {
        /** Records {@code txn}; a later record of the same id supersedes it. Called by many threads. */
        void record(Txn txn);
    }

    private record Pending(int id, int process, long invokedAt, List<MicroOp> ops) {
    }

    /** One transaction's operations, whether it runs read-only, and how it ends. */
    private record Drawn(List<MicroOp> ops, boolean readOnly, Route route) {
    }

    /** {@code stores[i]} is store i's ListStore; {@code desks[i]} this host's ClientDesk connected to store i. */
    private record Links(WList<EndpointRef> stores, List<ClientDesk> desks) {
        Links with(int store, Links replacement) {
            WList<EndpointRef> newStores = new WList<>();
            newStores.addAll(stores);
            newStores.set(store, replacement.stores.get(0));
            List<ClientDesk> newDesks = new ArrayList<>(desks);
            newDesks.set(store, replacement.desks.get(0));
            return new Links(newStores, List.copyOf(newDesks));
        }
    }

    private final NetHost net;
    /**
     * The ListStore of each store host and this host's ClientDesk connected to it, replaced
     * together (copy on write) when a store is restarted.
     */
    private volatile Links links;
    /** The run of each store that new transactions choose keys of. */
    private final AtomicIntegerArray incarnations;
    private final Settings settings;
    private final Journal journal;
    /** Appends issued so far to each key slot ("s{store}r{incarnation}k{slot}"); its current key follows. */
    private final Map<String, AtomicInteger> slotAppends = new ConcurrentHashMap<>();
    private final AtomicLong nextValue;
    private final AtomicInteger nextId;
    private final ConcurrentLinkedQueue<Txn> finished = new ConcurrentLinkedQueue<>();
    private final Map<Integer, Pending> running = new ConcurrentHashMap<>();
    private final AtomicInteger committed = new AtomicInteger();
    private final AtomicInteger readOnlyCommitted = new AtomicInteger();
    private final Map<Route, AtomicInteger> committedByRoute = new java.util.EnumMap<>(Map.of(
            Route.LAST_OP, new AtomicInteger(), Route.CALLS_ONE_STORE, new AtomicInteger(),
            Route.CALLS_ACROSS_STORES, new AtomicInteger()));
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger indeterminate = new AtomicInteger();
    /** How many transactions ended without committing, by why: the abort reason, or "unreachable". */
    private final Map<String, Integer> reasons = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();

    private ListAppendWorkload(NetHost net, Links links, Settings settings, Journal journal) {
        this.net = net;
        this.links = links;
        this.incarnations = new AtomicIntegerArray(links.stores().size());
        this.settings = settings;
        this.journal = journal;
        this.nextValue = new AtomicLong(settings.valueBase() + 1);
        this.nextId = new AtomicInteger(settings.idBase());
        net.host().useSnapshotReads(settings.readOnlyPercent() > 0);
        net.host().useFastCommit(settings.byCallsPercent() > 0);
        net.host().useSharedAppends(settings.sharedAppends());
    }

    /**
     * Connects a client host named "client" (state in {@code stateDir}, transaction records in
     * memory) to every store at {@code storeAddresses}, each in its first run.
     */
    public static ListAppendWorkload connect(List<InetSocketAddress> storeAddresses, Path stateDir, boolean tls,
            Settings settings) {
        return connect("client", storeAddresses, stateDir, tls, false, settings, txn -> { });
    }

    /**
     * Connects a client host {@code hostId} to every store at {@code storeAddresses}, each in its
     * first run. With {@code durable} the host logs its transactions to {@code stateDir/transactions}
     * ({@code FileStorage}), so that, killed and started again on that directory, it resends the
     * commits it decided and answers "backed out" for the rest: the stores need that to settle the
     * attempts it left prepared. Every transaction is given to {@code journal} as it starts and ends.
     */
    public static ListAppendWorkload connect(String hostId, List<InetSocketAddress> storeAddresses, Path stateDir,
            boolean tls, boolean durable, Settings settings, Journal journal) {
        NetHost net = NetHost.start(StoreServer.hostConfig(hostId, stateDir, tls), Structs::create,
                storage(stateDir, durable, settings));
        return connect(net, storeAddresses, settings, journal);
    }

    /**
     * As {@link #connect(String, List, Path, boolean, boolean, Settings, Journal)}, with the outcomes
     * of the host's transactions settled by {@code register} (the stores' register: see
     * StoreServer's {@code --decisions}).
     */
    public static ListAppendWorkload connect(String hostId, List<InetSocketAddress> storeAddresses, Path stateDir,
            boolean tls, boolean durable, Settings settings, Journal journal, DecisionRegister register) {
        NetHost net = NetHost.start(StoreServer.hostConfig(hostId, stateDir, tls), Structs::create,
                storage(stateDir, durable, settings), register);
        return connect(net, storeAddresses, settings, journal);
    }

    /**
     * The client host's transaction records: {@code stateDir/transactions} if {@code durable}, else
     * in memory; group-committed if the settings say so (in memory, the host's group commit runs
     * as on a disk, its fsyncs modelled).
     */
    private static Storage storage(Path stateDir, boolean durable, Settings settings) {
        Storage.Commit commit = settings.groupCommit() ? Storage.Commit.GROUP : Storage.Commit.EACH;
        return durable ? FileStorage.open(stateDir.resolve("transactions"), commit) : new InMemoryStorage(commit);
    }

    /**
     * Connects a client host named "client" (state in {@code stateDir}, transaction records in
     * memory) to every store at {@code storeAddresses}, each in its first run, with the outcomes of
     * its transactions settled by {@code register}.
     */
    public static ListAppendWorkload connect(List<InetSocketAddress> storeAddresses, Path stateDir,
            DecisionRegister register, Settings settings) {
        return connect("client", storeAddresses, stateDir, false, false, settings, txn -> { }, register);
    }

    private static ListAppendWorkload connect(NetHost net, List<InetSocketAddress> storeAddresses, Settings settings,
            Journal journal) {
        try {
            WList<EndpointRef> stores = new WList<>();
            List<ClientDesk> desks = new ArrayList<>();
            for (InetSocketAddress address : storeAddresses) {
                Links one = linksTo(net, address);
                stores.add(one.stores().get(0));
                desks.add(one.desks().get(0));
            }
            return new ListAppendWorkload(net, new Links(stores, List.copyOf(desks)), settings, journal);
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
    }

    /** Connects a ClientDesk to the store at {@code address}: the links to that one store. */
    private static Links linksTo(NetHost net, InetSocketAddress address) {
        ClientDesk desk = net.connect(address, ClientDesk::create);
        WList<EndpointRef> storeDesk = new WList<>();
        storeDesk.add(desk.partner());
        return new Links(ListClient.create(net.host()).services(storeDesk), List.of(desk));
    }

    /**
     * Store {@code store} was started again, in run {@code incarnation}, at {@code address}:
     * connects to its new ListStore, and new transactions choose keys of that run from now on.
     *
     * <p>It first waits (up to {@link #RELINK_PATIENCE}) for the transport to have dialed the
     * store again by itself: a connection opened while that redial is under way can be replaced
     * by it, and the request that creates the partner endpoint, sent on the replaced one, is then
     * never answered (the connect gives up only after 10 s).
     *
     * @throws NetworkException if the store cannot be reached yet (the caller may try again)
     */
    public void storeRestarted(int store, InetSocketAddress address, int incarnation) throws InterruptedException {
        String hostId = links.stores().get(store).host();
        long giveUpAt = System.nanoTime() + RELINK_PATIENCE.toNanos();
        while (net.peer(hostId).isEmpty() && System.nanoTime() < giveUpAt) {
            Thread.sleep(50);
        }
        Links replacement = linksTo(net, address);
        synchronized (this) {
            links = links.with(store, replacement);
        }
        incarnations.set(store, incarnation);
    }

    /** The run of store {@code store} that new transactions use. */
    public int incarnation(int store) {
        return incarnations.get(store);
    }

    /** Transactions committed so far. */
    public int committed() {
        return committed.get();
    }

    /** Read-only transactions committed so far (see {@link Settings#readOnlyPercent}). */
    public int readOnlyCommitted() {
        return readOnlyCommitted.get();
    }

    /** Transactions committed so far that ended by {@code route}. */
    public int committed(Route route) {
        return committedByRoute.get(route).get();
    }

    /**
     * Transactions of this host (and of this workload's connections, {@link #storeRestarted}) that
     * committed by fast commit so far: {@code Host.fastCommits()}.
     */
    public long fastCommits() {
        return net.host().fastCommits();
    }

    /** Transactions that failed so far. */
    public int failed() {
        return failed.get();
    }

    /** Transactions whose outcome the client could not learn (a {@link NetworkException}) so far. */
    public int indeterminate() {
        return indeterminate.get();
    }

    /** How many transactions ended without committing so far, by why (abort reason, or "unreachable"). */
    public Map<String, Integer> failureReasons() {
        return new java.util.TreeMap<>(reasons);
    }

    /** Errors other than the runtime's "backed out" and "unreachable" ones (their transactions count as unknown). */
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
            Random random = new Random(settings.seed() * 1_000 + c);
            int process = settings.idBase() / 10_000 + c;
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
        Drawn drawn = generate(random);
        List<MicroOp> ops = drawn.ops();
        WList<Op> program = new WList<>();
        for (MicroOp op : ops) {
            Op step = new Op();
            step.append = op.append();
            step.store = storeOf(op.key());
            step.incarnation = incarnationOf(op.key());
            step.key = op.key();
            step.value = op.value();
            program.add(step);
        }
        Links current = links;
        Pending pending = new Pending(nextId.incrementAndGet(), process, System.nanoTime(), ops);
        running.put(pending.id, pending);
        // Journaled before it is invoked: a client killed from here on leaves it in the history, unknown.
        journal.record(new Txn(pending.id, process, pending.invokedAt, Txn.NEVER, Outcome.UNKNOWN, ops));
        Outcome outcome;
        List<MicroOp> observed = ops;
        try {
            WList<WList<Double>> results = invoke(drawn, program, current);
            observed = withResults(ops, results);
            outcome = Outcome.OK;
            committed.incrementAndGet();
            committedByRoute.get(drawn.route()).incrementAndGet();
            if (drawn.readOnly()) {
                readOnlyCommitted.incrementAndGet();
            }
        } catch (TransactionAbortedException backedOut) {
            outcome = Outcome.FAILED;
            failed.incrementAndGet();
            reasons.merge(backedOut.reason().toString(), 1, Integer::sum);
        } catch (NetworkException unreachable) {
            outcome = Outcome.UNKNOWN;
            indeterminate.incrementAndGet();
            reasons.merge("unreachable", 1, Integer::sum);
        } catch (RuntimeException other) {
            outcome = Outcome.UNKNOWN;
            unexpected.add(other.toString());
        }
        long completedAt = System.nanoTime();
        Txn txn = new Txn(pending.id, process, pending.invokedAt, completedAt, outcome, observed);
        journal.record(txn);
        running.remove(pending.id);
        finished.add(txn);
    }

    /**
     * Runs {@code program} as {@code drawn} says: on the desk connected to the store of its last
     * operation, through {@code run} (read-only, or not) or {@code runByCalls}.
     */
    private WList<WList<Double>> invoke(Drawn drawn, WList<Op> program, Links current) {
        List<MicroOp> ops = drawn.ops();
        ClientDesk desk = current.desks().get(storeOf(ops.get(ops.size() - 1).key()));
        if (drawn.readOnly()) {
            return net.host().readOnly(() -> desk.run(program, current.stores()));
        }
        return drawn.route() == Route.LAST_OP ? desk.run(program, current.stores())
                : desk.runByCalls(program, current.stores());
    }

    /**
     * 2 to maxOpsPerTxn operations, each an append or a read of a random key, in each store's
     * current run; a read-only transaction's ({@link Settings#readOnlyPercent} of them) only reads.
     * Of the others, {@link Settings#byCallsPercent} end on Public calls, half of them on one
     * store and half on two or more.
     */
    private Drawn generate(Random random) {
        List<MicroOp> ops = new ArrayList<>();
        boolean readOnly = random.nextInt(100) < settings.readOnlyPercent();
        Route route = readOnly ? Route.LAST_OP : route(random);
        int count = 2 + random.nextInt(Math.max(1, settings.maxOpsPerTxn() - 1));
        int first = random.nextInt(incarnations.length());
        for (int i = 0; i < count; i++) {
            int store = storeFor(route, i, first, random);
            String slot = "s" + store + "r" + incarnations.get(store) + "k" + random.nextInt(settings.keysPerStore());
            AtomicInteger appends = slotAppends.computeIfAbsent(slot, s -> new AtomicInteger());
            if (!readOnly && random.nextBoolean()) {
                String key = slot + "g" + appends.getAndIncrement() / settings.appendsPerKey();
                ops.add(MicroOp.append(key, nextValue.getAndIncrement()));
            } else {
                ops.add(MicroOp.read(slot + "g" + appends.get() / settings.appendsPerKey(), null));
            }
        }
        return new Drawn(ops, readOnly, route);
    }

    /** How a transaction that writes ends (nothing drawn while {@link Settings#byCallsPercent} is 0). */
    private Route route(Random random) {
        if (settings.byCallsPercent() == 0 || random.nextInt(100) >= settings.byCallsPercent()) {
            return Route.LAST_OP;
        }
        return random.nextBoolean() || incarnations.length() < 2 ? Route.CALLS_ONE_STORE : Route.CALLS_ACROSS_STORES;
    }

    /**
     * The store of operation {@code index}: {@code first} for every one of a transaction on one
     * store; another than {@code first} for the second of one across stores; else any.
     */
    private int storeFor(Route route, int index, int first, Random random) {
        int stores = incarnations.length();
        return switch (route) {
            case CALLS_ONE_STORE -> first;
            case CALLS_ACROSS_STORES -> index == 0 ? first
                    : index == 1 ? (first + 1 + random.nextInt(stores - 1)) % stores : random.nextInt(stores);
            case LAST_OP -> index == 0 ? first : random.nextInt(stores);
        };
    }

    private static int storeOf(String key) {
        return Integer.parseInt(key.substring(1, key.indexOf('r')));
    }

    private static int incarnationOf(String key) {
        return Integer.parseInt(key.substring(key.indexOf('r') + 1, key.indexOf('k')));
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
