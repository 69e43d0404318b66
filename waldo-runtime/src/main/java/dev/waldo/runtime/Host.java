package dev.waldo.runtime;

import dev.waldo.runtime.core.Decision;
import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.HostCore;
import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.core.Outbox;
import dev.waldo.runtime.core.TxnId;
import dev.waldo.runtime.lang.Values;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.storage.Storage;
import dev.waldo.runtime.storage.StorageException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One Waldo host: it owns endpoints and services, runs their parts of
 * transactions, and exchanges protocol messages with other hosts through a
 * transport. A JVM may hold many hosts (tests, simulation) or one (a service).
 *
 * <p>The host layer around the pure {@link HostCore}: it runs transaction
 * bodies and served calls on threads, blocks them on lock grants and replies,
 * and applies the core's decisions (install, discard, wake). Every interaction
 * with the core happens under one lock, and the core's outputs are handled
 * before that lock is released: records persisted to the host's
 * {@link Storage} first, then decisions applied, then messages queued — so a
 * vote, a commit or an acknowledgement never leaves before what it depends
 * on is durable, and an install is always visible before the grant that
 * follows it. The queued messages go to the transport just after the lock
 * is released, in the order the core produced them ({@link #sendOutgoing}).
 * With a storage for group commit ({@link Storage.Commit#GROUP})
 * the same order holds, but the fsync runs outside the lock and covers the
 * drains of many transactions at once (see {@link GroupCommit}).
 */
public final class Host implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Host.class.getName());

    private final String id;
    private final Transport transport;
    private final HostCore core;
    /**
     * The core's tick, made once: the commands run with C1 alone, which allocates a bound method
     * reference through a method handle each time it is evaluated, and a site agent ticks 1,000
     * hosts 20 times a second (2 % of a 1,000-switch lab's CPU during an apply).
     */
    private final Runnable coreTick;
    private final Storage storage;
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * Messages the core produced, in the order it produced them (they are added under the lock),
     * waiting for the transport ({@link #sendOutgoing}).
     */
    private final Queue<Envelope> outgoing = new ConcurrentLinkedQueue<>();
    /** Set while one thread hands {@link #outgoing} to the transport. */
    private final AtomicBoolean sending = new AtomicBoolean();

    /**
     * Set by a tick that left the core with nothing timed ({@link HostCore#needsTicks}), cleared
     * by whatever takes the core's lock next ({@link #wake}): while it is set, ticks skip the core
     * and the transport is told it may stop ticking this host ({@link Transport#wantTicks}). A
     * site agent ticks 1,000 hosts 20 times a second, and each tick took the lock and walked the
     * core's tables (13 % of a 1,000-switch lab's CPU during an apply).
     */
    private volatile boolean quiet;
    /** Group commit's queue and flusher, or null when the storage fsyncs each drain under the lock. */
    private final GroupCommit groupCommit;
    private final Map<Long, WaldoObject> objects = new ConcurrentHashMap<>();
    private final AtomicLong objectIds = new AtomicLong();
    private final AtomicLong frameIds = new AtomicLong();
    private final Map<TxnId, LocalTxn> txns = new ConcurrentHashMap<>();
    private final Map<TxnId, CompletableFuture<Decision.RootDone>> rootOutcomes = new ConcurrentHashMap<>();
    /** Attempts that committed() reads wait for: completed once installed or discarded here. */
    private final Map<TxnId, CompletableFuture<Void>> outcomesApplied = new ConcurrentHashMap<>();
    private final Map<String, Binding> bindings = new ConcurrentHashMap<>();
    /**
     * Public functions ({@code Kind.function}) whose body called again after a call it marked
     * as its last ({@link HostCore#CALLED_AFTER_LAST}): their calls no longer carry the prepare.
     */
    private final Set<String> callAfterLastCall = ConcurrentHashMap.newKeySet();
    /** Journaled transactions of an earlier run whose outcome is being asked ({@link #recoverInDoubt}). */
    private final Map<TxnId, CompletableFuture<Boolean>> recovering = new ConcurrentHashMap<>();
    /** Bindings run on one thread, in the order transactions prepared and ended here. */
    private final ExecutorService bindingWork;
    private volatile PrintStream output = System.out;
    private volatile boolean closed;
    private volatile boolean abstractLocks = true;
    private volatile boolean sharedAppends;
    /** Whether read-only transactions started here read a snapshot ({@link #useSnapshotReads}). */
    private volatile boolean snapshotReads;
    /** True on a thread inside {@link #readOnly}: the roots it starts here are read-only. */
    private final ThreadLocal<Boolean> readOnlyCalls = ThreadLocal.withInitial(() -> false);
    /** Settles distributed outcomes (see {@link DecisionRegister}), or null: this host's core decides alone. */
    private final DecisionRegister register;
    /** Attempts this host is asking the register about now. */
    private final Set<TxnId> registerAsks = ConcurrentHashMap.newKeySet();
    /**
     * The thread delivering the transport's current message, while it holds the core's lock: the
     * calls it serves that may run on it are queued in {@link #receivedCalls} and run once it
     * let the lock go (see {@link #serve}). Null between messages.
     */
    private Thread receiving;
    /** Served calls the receiving thread runs itself after the current message. Its own. */
    private final java.util.ArrayDeque<Decision.RunCall> receivedCalls = new java.util.ArrayDeque<>();
    /** The thread running a served call that must not wait (see {@link WouldBlock}), or null. */
    private volatile Thread servingWithoutWaits;
    /** When a thread wakes the core for commits waiting for real time, or MAX_VALUE. Under the lock. */
    private long commitWaitWake = Long.MAX_VALUE;

    private Host(String id, Transport transport, Scheduling scheduling, Storage storage) {
        this(id, transport, scheduling, storage, null);
    }

    private Host(String id, Transport transport, Scheduling scheduling, Storage storage, DecisionRegister register) {
        this.id = id;
        this.transport = transport;
        this.storage = storage;
        this.register = register;
        this.core = new HostCore(transport.localHost(), HostCore.DEFAULT_RESEND_TICKS,
                scheduling == Scheduling.PRIMARIES, transport.attemptSerialBase());
        this.coreTick = core::tick;
        if (register != null) {
            core.useReplicatedDecisions(); // before the restore: it changes what a restored own part means
        }
        this.bindingWork = Executors.newSingleThreadExecutor(Thread.ofVirtual().name("waldo-bindings-" + id).factory());
        this.groupCommit = storage.commit() == Storage.Commit.GROUP
                ? new GroupCommit(id, lock, storage, this::applyDurableDrain, this::queueDrains, this::storageFailed)
                : null;
        restore();
        transport.start(new Receiver());
    }

    /**
     * Takes up what earlier runs logged in the storage, before any message of
     * this run is received: attempts in doubt ask their peers, logged commits
     * are sent again. A host's variables start afresh with each run, so
     * attempts in doubt hold no locks; their bindings learn the outcome
     * through {@link #recoverInDoubt}.
     */
    private void restore() {
        List<dev.waldo.runtime.core.StorageRecord> records = storage.load();
        if (!records.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "host " + id + ": taking up " + records.size()
                    + " transaction records from storage");
        }
        records.forEach(this::learnPeersOf);
        inCore(() -> core.restore(records, storage.hasEarlierRuns(), false));
    }

    /**
     * Makes the host ids a prepare was logged with known to the transport before the restored
     * attempt asks them: the core logs peers by number, and a wire transport can only name a host
     * whose id it knows. The ids are the payload {@link #prepareLocal} logs with a bindings' yes vote.
     */
    private void learnPeersOf(dev.waldo.runtime.core.StorageRecord record) {
        if (record instanceof dev.waldo.runtime.core.StorageRecord.Prepared prepared && prepared.payload().length > 0) {
            for (String peer : new String(prepared.payload(), StandardCharsets.UTF_8).split("\n")) {
                if (transport.learnHost(peer) < 0) {
                    LOG.log(System.Logger.Level.WARNING, "host " + id + " cannot ask '" + peer + "' about restored"
                            + " transaction " + prepared.txn() + ": the transport cannot name it");
                }
            }
        }
    }

    /**
     * Creates a host named {@code name} on an in-memory network shared by the
     * hosts of one JVM, with storage that lasts as long as the host.
     */
    public static Host inMemory(InMemoryNetwork network, String name) {
        return new Host(name, network.attach(name), Scheduling.PRIMARIES, new InMemoryStorage());
    }

    /**
     * Creates a host named {@code name} on an in-memory network that keeps
     * its transaction records in {@code storage}: hand the same storage to a
     * host of the same name after {@link #close()} to restart it.
     */
    public static Host inMemory(InMemoryNetwork network, String name, Storage storage) {
        return new Host(name, network.attach(name), Scheduling.PRIMARIES, storage);
    }

    /**
     * Creates a host named {@code id} that reaches other hosts through
     * {@code transport}: a wire transport such as waldo-net's. The host
     * starts receiving at once; its transaction records last as long as it
     * does (see {@link #create(String, Transport, Storage)}).
     */
    public static Host create(String id, Transport transport) {
        return new Host(id, transport, Scheduling.PRIMARIES, new InMemoryStorage());
    }

    /**
     * Creates a host as {@link #create(String, Transport)} that keeps its
     * transaction records in {@code storage} (a {@link dev.waldo.runtime.storage.FileStorage} to
     * survive a crash of the process). It first takes up what earlier runs
     * logged there. The host owns the storage and closes it with itself.
     */
    public static Host create(String id, Transport transport, Storage storage) {
        return new Host(id, transport, Scheduling.PRIMARIES, storage);
    }

    /**
     * Creates a host as {@link #create(String, Transport, Storage)} whose distributed transactions
     * have their outcomes settled by {@code register} instead of by their coordinator alone (see
     * {@link DecisionRegister}): a participant whose coordinator is gone for good after every
     * vote was yes learns the outcome from the register instead of waiting for that coordinator
     * to come back. Every host of the network must use the same register.
     */
    public static Host create(String id, Transport transport, Storage storage, DecisionRegister register) {
        return new Host(id, transport, Scheduling.PRIMARIES, storage, Objects.requireNonNull(register, "register"));
    }

    /** As {@link #create(String, Transport, Storage, DecisionRegister)}, on an in-memory network. */
    public static Host inMemory(InMemoryNetwork network, String name, Storage storage, DecisionRegister register) {
        return new Host(name, network.attach(name), Scheduling.PRIMARIES, storage,
                Objects.requireNonNull(register, "register"));
    }

    /** How a host ranks conflicting transactions. */
    public enum Scheduling {
        /** Wound-wait with a primary per endpoint (paper §4.3): no endpoint starves. The default. */
        PRIMARIES,
        /** Plain wound-wait on timestamps: no fairness between endpoints; for comparison only. */
        PLAIN_WOUND_WAIT
    }

    /** Creates an in-memory host that schedules with {@code scheduling}. */
    public static Host inMemory(InMemoryNetwork network, String name, Scheduling scheduling) {
        return new Host(name, network.attach(name), scheduling, new InMemoryStorage());
    }

    /**
     * Turns Claret's abstract locks on (the default) or off for this host's
     * variables: on, reads share a variable, {@code +=}/{@code -=} on a Number
     * takes a commuting mode that concurrent transactions share, {@code append}
     * on a List takes one that reads nothing (shared only with {@link
     * #useSharedAppends}), and map keys are locked by what is done to them
     * (see {@link dev.waldo.runtime.core.LockMode}); off, every access locks
     * exclusively, as the runtime did before (for comparison). Set it before
     * transactions run here.
     */
    public void useAbstractLocks(boolean on) {
        abstractLocks = on;
    }

    /**
     * Lets concurrent appends to one of this host's lists share its lock (with abstract locks on;
     * off by default). They install in the order of their commits' stamps, the same on every host.
     * Stamps then follow real time (a hybrid logical clock), and a commit this host coordinates
     * waits until its stamp passed, so transactions stay strictly serializable (waldo-runtime
     * README, "Shared appends"). This assumes the hosts' clocks agree: on one machine they do; on
     * several, give how far apart they may be with {@link #useSharedAppends(Duration)}. Turn it on
     * on every host of the network alike, clients included; set it before transactions run here.
     */
    public void useSharedAppends(boolean on) {
        sharedAppends = on;
        inCore(() -> core.useRealTimeStamps(on ? Host::realTimeNanos : null, 0));
    }

    /**
     * Shares appends ({@link #useSharedAppends(boolean)}) between hosts whose clocks may be up to
     * {@code clockUncertainty} apart (NTP's bound on the machines, say): every commit with shared
     * appends then waits that long before anyone hears of it, as Spanner's commit wait does.
     */
    public void useSharedAppends(Duration clockUncertainty) {
        sharedAppends = true;
        inCore(() -> core.useRealTimeStamps(Host::realTimeNanos, clockUncertainty.toNanos()));
    }

    /** The machine's real time in nanoseconds since the epoch (its resolution on Linux is about 1 ns). */
    private static long realTimeNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** Whether appends to this host's lists share their lock ({@link #useSharedAppends}). */
    public boolean sharedAppends() {
        return sharedAppends;
    }

    /**
     * Makes this host use optimistic concurrency control (Tribune's OCC) instead of wound-wait
     * with primaries: transaction bodies take no locks here (they wait only for a prepared
     * transaction holding what they touch); when this host is asked to prepare, an attempt
     * whose reads here were overwritten since, or that used what a prepared transaction is
     * committing, votes no before its bindings prepare, and its root retries it. Call it before
     * transactions run here. See the module README for when it pays.
     *
     * @throws IllegalStateException if transactions are already live on this host
     */
    public void useOptimisticConcurrency() {
        inCore(core::useOptimisticConcurrency);
    }

    /**
     * Turns Walter's fast commit at one host on or off for transactions started here (off by
     * default; see {@link HostCore#useFastCommit}): one that holds nothing on this host and took
     * part on exactly one other host has that host commit it alone, without two-phase commit's
     * Prepare, Commit and Ack. Use it where the caller can wait out a link to that host that
     * drops mid-commit (the outcome is unknown here until that host answers again). Set it
     * before transactions run here.
     */
    public void useFastCommit(boolean on) {
        inCore(() -> core.useFastCommit(on));
    }

    /**
     * How many transactions started on this host in this run committed by fast commit
     * ({@link #useFastCommit}); those that went through two-phase commit do not count. Tells
     * whether, and how often, the option applies to a workload.
     */
    public long fastCommits() {
        return inCore(core::fastCommits);
    }

    /**
     * Turns snapshot reads on or off (the default) for the read-only transactions started on this
     * host ({@link #readOnly}): on, such a transaction takes no lock on any host it reads, so it
     * never waits for a writer that is running or preparing (a slow device push, say) and never
     * wounds one; a read waits only for writers that already voted yes and are undecided (they
     * may have committed before it began), and each host validates its reads at prepare, so it
     * stays strictly serializable (see the module README, "Snapshot reads"). One whose validation
     * fails (a writer voted yes or installed over what it read in between) runs again; after
     * {@link #SNAPSHOT_ATTEMPTS} such attempts it runs as an ordinary locking transaction, so
     * that a stream of writers cannot starve it. Off, read-only transactions are ordinary ones.
     * The hosts it reads need no setting of their own.
     */
    public void useSnapshotReads(boolean on) {
        snapshotReads = on;
    }

    /** How many attempts of a read-only transaction read a snapshot before it falls back to locking. */
    public static final int SNAPSHOT_ATTEMPTS = 3;

    /** Whether read-only transactions started here read a snapshot ({@link #useSnapshotReads}). */
    public boolean snapshotReads() {
        return snapshotReads;
    }

    /**
     * Runs {@code calls}, host code that calls Public functions of objects on this host, so that
     * each transaction it starts here is read-only: with {@link #useSnapshotReads snapshot reads}
     * on, it reads a snapshot instead of locking, and a write in it, on any host, raises an
     * {@link ApplicationException} naming the variable (the transaction then fails as with any
     * uncaught application error). With snapshot reads off, they run as ordinary transactions.
     * The read-only choice is the caller's: the runtime checks it but does not guess it.
     *
     * @return what {@code calls} returned
     */
    public <T> T readOnly(Supplier<T> calls) {
        boolean outer = readOnlyCalls.get();
        readOnlyCalls.set(true);
        try {
            return calls.get();
        } finally {
            readOnlyCalls.set(outer);
        }
    }

    /** Whether this host's variables take abstract lock modes ({@link #useAbstractLocks}). */
    public boolean abstractLocks() {
        return abstractLocks;
    }

    /** This host's id, unique on its network. */
    public String id() {
        return id;
    }

    /**
     * Creates an endpoint on this host and one on {@code other} and connects
     * them as partners, in-process.
     */
    public <A extends WaldoEndpoint, B extends WaldoEndpoint> Connection<A, B> connect(
            EndpointFactory<A> local, Host other, EndpointFactory<B> remote) {
        A a = local.create(this);
        B b = remote.create(other);
        pair(a, b);
        return new Connection<>(a, b);
    }

    /** Makes two existing endpoints each other's partner (for endpoints created by services). */
    public static void pair(WaldoEndpoint a, WaldoEndpoint b) {
        a.connectTo(b.ref());
        b.connectTo(a.ref());
    }

    /**
     * Makes {@code remote}, an endpoint on another host, the partner of
     * {@code local}; the other host pairs its endpoint the same way (a wire
     * transport does this as it connects two endpoints).
     */
    public static void pair(WaldoEndpoint local, EndpointRef remote) {
        local.connectTo(remote);
    }

    /** Where Waldo's {@code print} writes committed output; System.out unless changed. */
    public void setOutput(PrintStream output) {
        this.output = output;
    }

    /**
     * Binds the variables annotated {@code @annotationName(...)} on this host
     * to {@code binding}, which then takes part in two-phase commit for them
     * (see {@link Binding}). One binding per annotation name; a later call replaces it.
     */
    public void bind(String annotationName, Binding binding) {
        bindings.put(annotationName, binding);
    }

    /**
     * The binding of {@code @annotationName} variables, or null if there is none: so that host
     * code can wrap it (to check who may change the device, say) and {@link #bind} the wrapper.
     */
    public Binding binding(String annotationName) {
        return bindings.get(annotationName);
    }

    /**
     * Waits, at most {@code limit}, until every commit or backout this host decided reached the
     * reachable hosts it concerns and they acknowledged it (decisions are re-sent meanwhile, as
     * always). Call it before {@link #close()} to stop gracefully: {@code close} stops at once,
     * as a crash would, and a participant that voted yes and had not heard the decision then keeps
     * its locks until this host runs again under the same id with the same storage.
     *
     * @return the number of decisions still owed when it returned: 0 unless {@code limit} passed
     */
    public int awaitDecisionsDelivered(java.time.Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        int owed = decisionsOwed();
        while (owed > 0 && System.nanoTime() < deadline && !closed) {
            Thread.sleep(DELIVERY_POLL_MS); // acknowledgements arrive on the transport's thread
            owed = decisionsOwed();
        }
        return owed;
    }

    /** How many decisions this host still owes to hosts it can reach (see {@link #awaitDecisionsDelivered}). */
    public int decisionsOwed() {
        return inCore(core::decisionsOwed);
    }

    /** How often {@link #awaitDecisionsDelivered} looks again: a few of the transport's ticks. */
    private static final long DELIVERY_POLL_MS = 10;

    /** Stops the host: its partners see a NetworkException from then on. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        transport.close();
        bindingWork.shutdown();
        lockCore();
        try {
            if (groupCommit != null) {
                groupCommit.stop(); // drains still waiting for their fsync are never applied, as in a crash
            }
            storage.close(); // under the lock: no append is half done
            outcomesApplied.values().forEach(waiting -> waiting.complete(null)); // nothing will be applied now
            outcomesApplied.clear();
        } finally {
            unlockCore();
        }
    }

    /** The endpoint or service with object id {@code objectId} on this host, or null. */
    public WaldoObject object(long objectId) {
        return objects.get(objectId);
    }

    /**
     * Number of transaction attempts with state, locks or threads on this host,
     * including those decided here whose bindings are still committing or
     * aborting (0 when idle: every binding finished its work).
     */
    public int liveTransactions() {
        return inCore(core::liveAttempts);
    }

    /**
     * Ends a transaction that prepared on this host and whose coordinator is
     * unreachable, without the coordinator's decision: commits it here if
     * {@code commit}, else backs it out (bindings get commit or abort as
     * usual). Only for programs whose effects converge either way — see
     * {@link dev.waldo.runtime.core.HostCore#resolveInDoubt}.
     *
     * @param transaction the id a {@link Binding} saw as {@link BoundTransaction#id()}
     * @return whether such an in-doubt transaction existed and was ended
     */
    public boolean resolveInDoubt(String transaction, boolean commit) {
        return inCore(() -> core.inDoubt().stream().filter(txn -> txn.toString().equals(transaction))
                .findFirst().map(txn -> core.resolveInDoubt(txn, commit)).orElse(false));
    }

    /**
     * Takes up a transaction that prepared on an earlier run of this host
     * (its bindings journaled a yes vote, then the process died) and learns
     * its outcome: the coordinator (the id's host) and {@code peerHostIds}
     * are asked now and again on every resend interval until one of them
     * knows it, or the coordinator's own decision arrives. A peer that never
     * voted yes vetoes, so the future completes as soon as one such answers.
     * It stays pending while every peer asked voted yes and none has learned
     * the outcome, or none can be reached.
     *
     * <p>On a host whose storage holds its earlier runs' log, a transaction
     * that log has no prepare of is backed out at once without asking: every
     * yes vote is logged before it leaves, so none left (the binding
     * journaled its work, then the process died before the vote).
     *
     * <p>A host started with the storage its earlier run logged to took the
     * transaction up at start already (and may have learned its outcome
     * since): this call then only attaches to it. Bindings that still keep
     * their own vote journal call it either way.
     *
     * <p>Every id is made known to the transport ({@link Transport#learnHost}),
     * so that messages can name it; but a wire transport can only ask a host
     * it has, or can make, a link to: connect to the peers first. The
     * coordinator's id must be among {@code peerHostIds} (as
     * {@link BoundTransaction#peers()} has it) unless the transport knows it.
     *
     * @param transactionId the id the binding journaled ({@link BoundTransaction#id()}, "host.serial")
     * @param peerHostIds the host ids journaled with it ({@link BoundTransaction#peers()})
     * @return completes with true if the transaction committed, false if it was backed out;
     *     the binding then commits or undoes its journaled work itself
     * @throws IllegalArgumentException if {@code transactionId} is not of the form "host.serial",
     *     or no id names its coordinator
     */
    public CompletableFuture<Boolean> recoverInDoubt(String transactionId, Collection<String> peerHostIds) {
        TxnId txn = TxnId.parse(transactionId);
        Set<Integer> peers = new TreeSet<>();
        for (String peer : peerHostIds) {
            int number = transport.learnHost(peer);
            if (number < 0) {
                LOG.log(System.Logger.Level.WARNING, "host " + id + " cannot ask '" + peer + "' about transaction "
                        + transactionId + ": the transport cannot name it");
            } else {
                peers.add(number);
            }
        }
        if (!peers.contains(txn.host()) && !knowsHost(txn.host()) && !inCore(() -> core.knownFromStorage(txn))) {
            throw new IllegalArgumentException("host " + id + " cannot ask about transaction " + transactionId
                    + ": its coordinator, host number " + txn.host() + ", is not among " + peerHostIds
                    + "; pass the host ids BoundTransaction.peers() gave for it");
        }
        return inCore(() -> {
            CompletableFuture<Boolean> earlier = recovering.get(txn);
            if (earlier != null) {
                return earlier;  // asked twice (a second binding journaled it too): both learn the one outcome
            }
            CompletableFuture<Boolean> outcome = new CompletableFuture<>();
            recovering.put(txn, outcome);  // before recover(), whose decision may settle it at once
            if (!core.recover(txn, peers)) {
                recovering.remove(txn);
                outcome.completeExceptionally(new IllegalStateException("transaction " + transactionId
                        + " is live on host " + id + " in this run; it is not a journaled one to recover"));
            }
            return outcome;
        });
    }

    /**
     * A transaction an earlier run of this host voted yes on, taken up from its storage at start,
     * whose outcome this run has not learned yet.
     *
     * @param id the transaction's id, as its bindings saw it ({@link BoundTransaction#id()})
     * @param peers whom the host asks for the outcome: the coordinator and the other participants
     *     the prepared record names, by host id, or as {@code "host number N"} while the transport
     *     knows no id for that number (a restarted host learns ids as links come up)
     */
    public record RestoredInDoubt(String id, List<String> peers) {
        /** Copies the peers. */
        public RestoredInDoubt {
            peers = List.copyOf(peers);
        }
    }

    /**
     * The transactions an earlier run of this host voted yes on and that are still in doubt: its
     * storage logged each prepare with its peers before the vote left, so bindings keep no peers of
     * their own. Call {@link #recoverInDoubt(String)} to learn each one's outcome.
     */
    public List<RestoredInDoubt> restoredInDoubt() {
        return inCore(() -> core.restoredInDoubt().entrySet().stream()
                .map(entry -> new RestoredInDoubt(entry.getKey().toString(),
                        entry.getValue().stream().map(this::nameOf).toList()))
                .toList());
    }

    private String nameOf(int hostNumber) {
        String hostId = transport.hostId(hostNumber);
        return hostId != null ? hostId : "host number " + hostNumber;
    }

    /**
     * Learns the outcome of a transaction an earlier run of this host journaled as prepared,
     * asking the peers its storage logged with the prepare (see {@link #restoredInDoubt()}): as
     * {@link #recoverInDoubt(String, Collection)} with no peers of the caller's. A transaction the
     * log holds no prepare of was never voted yes on, and is backed out at once.
     *
     * @throws IllegalArgumentException if {@code transactionId} is not of the form "host.serial",
     *     or the storage knows nothing of it and the transport does not know its coordinator
     */
    public CompletableFuture<Boolean> recoverInDoubt(String transactionId) {
        return recoverInDoubt(transactionId, List.of());
    }

    private boolean knowsHost(int number) {
        String hostId = transport.hostId(number);
        return hostId != null && transport.hostNumber(hostId) == number;
    }

    /**
     * The outcome of a recovered transaction is known: tell whoever asked, on
     * the binding thread (what they do next is binding work, such as undoing
     * the journaled changes, and must not run under the core's lock). Lock held.
     */
    private void settleRecovered(TxnId txn, boolean committed) {
        CompletableFuture<Boolean> outcome = recovering.remove(txn);
        if (outcome != null && !runBindingWork(() -> outcome.complete(committed))) {
            outcome.complete(committed);
        }
    }

    /** How many heuristic decisions ({@link #resolveInDoubt}) disagreed with the coordinator's. */
    public int heuristicHazards() {
        return inCore(core::heuristicHazards);
    }

    /** Number of variables with lock holders or waiters on this host (0 when idle). */
    public int lockedVariables() {
        return inCore(core::busyVariables);
    }

    /**
     * True unless the transport reported host {@code hostId} unreachable (a
     * closed host, a cut link). Status only: a call may still fail if the link
     * drops right after.
     */
    public boolean canReach(String hostId) {
        int other = transport.hostNumber(hostId);
        return other >= 0 && inCore(() -> core.canReach(other));
    }

    /** Number of lock requests waiting on this host (tests use it to set up a conflict). */
    public int waitingLockRequests() {
        return inCore(core::waitingRequests);
    }

    /**
     * Who holds and who waits for each busy variable here, one line per variable, with each
     * attempt's state and lock mode: what to look at when a transaction waits and never ends.
     */
    public String describeLocks() {
        return inCore(core::describeLocks);
    }

    /** The current priority of the attempt behind {@code ctx}, for tests of the scheduling rules. */
    dev.waldo.runtime.core.Priority priorityOf(Ctx ctx) {
        return inCore(() -> core.priorityOf(((LocalTxn) ctx).id));
    }

    /**
     * Waits until no attempt that voted yes here and holds a lock of the
     * variable {@code object}.{@code variable} is still undecided here: a
     * commit returns to its caller at the decision, before participants
     * install it, so a read of the last committed value outside any
     * transaction waits for such writers to be installed (or discarded)
     * here, and then sees every call that returned before it. Writers whose
     * coordinator is lost (in doubt) are not waited for
     * ({@link HostCore#undecidedWriters}), nor does a read made under the
     * host's own lock wait (it would wait for itself).
     */
    void awaitUndecidedWriters(long object, String variable) {
        if (lock.isHeldByCurrentThread()) {
            return; // inside the host's own handling of the core: waiting here would wait for itself
        }
        if (servingWithoutWaits()) {
            throw new WouldBlock(); // the installs it would wait for are applied by this very thread
        }
        List<CompletableFuture<Void>> waits = new ArrayList<>();
        lockCore();
        try {
            if (closed) {
                return;
            }
            if (groupCommit != null) {
                groupCommit.awaitApplied(); // an install the core decided may still wait for its fsync
            }
            for (TxnId writer : core.undecidedWriters(LockId.whole(object, variable))) {
                waits.add(outcomesApplied.computeIfAbsent(writer, txn -> new CompletableFuture<>()));
            }
        } finally {
            unlockCore();
        }
        for (CompletableFuture<Void> wait : waits) {
            wait.join();
        }
    }

    /**
     * Wakes the committed() reads that wait for an attempt which has since gone in doubt here (its
     * coordinator was lost after this host voted yes): they read the value from before it, as a
     * read that starts now does, since an attempt in doubt is not waited for. Without this, a read
     * that began waiting while the coordinator was still there waited for good when the
     * coordinator died: a service's trial timer blocked so never reverted its trial at the
     * deadline (the chaos run's stall). Lock held.
     */
    private void releaseReadsOfAttemptsInDoubt() {
        if (outcomesApplied.isEmpty()) {
            return;
        }
        core.inDoubt().forEach(this::outcomeApplied);
    }

    /** Wakes the committed() reads that wait for {@code txn}'s outcome here. Lock held. */
    private void outcomeApplied(TxnId txn) {
        CompletableFuture<Void> waiting = outcomesApplied.remove(txn);
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    /** The attempt behind {@code ctx}, for tests. */
    static TxnId attemptOf(Ctx ctx) {
        return ((LocalTxn) ctx).id;
    }

    // ---- what the rest of the runtime calls ------------------------------------------------

    long register(WaldoObject object) {
        if (closed) {
            throw new IllegalStateException("host " + id + " is closed");
        }
        long objectId = objectIds.incrementAndGet();
        objects.put(objectId, object);
        return objectId;
    }

    long newFrameId() {
        return ((long) core.host() << 40) | frameIds.incrementAndGet();
    }

    /** Runs a root transaction to its end: commit (returning the body's value), or a final abort. */
    <T> T runRoot(WaldoObject object, String function, TxnBody<T> body) {
        if (closed) {
            throw new IllegalStateException("host " + id + " is closed; cannot run " + function);
        }
        String root = object.kind() + "." + function;
        boolean snapshot = snapshotReads && readOnlyCalls.get();
        int snapshotAttempts = 1;
        TxnId attempt = startAttempt(root, () -> core.begin(object.objectId()), snapshot);
        while (true) {
            LocalTxn txn = txns.get(attempt);
            T value = null;
            Throwable failure = null;
            HostCore.Ending ending;
            try {
                value = Values.copy(body.run(txn));
                ending = HostCore.Ending.DONE;
            } catch (BackoutSignal wounded) {
                ending = HostCore.Ending.WOUNDED;
            } catch (AbortSignal aborted) {
                ending = HostCore.Ending.FAILED;
                failure = new TransactionAbortedException(TransactionAbortedException.Reason.ABORT_CALLED,
                        object.kind() + "." + function + ": the program called abort()");
            } catch (RuntimeException | Error uncaught) {
                ending = HostCore.Ending.FAILED;
                failure = uncaught;
            }
            Decision.RootDone done = finishRoot(attempt, ending);
            switch (done.result()) {
                case COMMITTED -> {
                    return value;
                }
                case RETRY -> {
                    TxnId previous = attempt;
                    boolean again = snapshot && snapshotAttempts++ < SNAPSHOT_ATTEMPTS;
                    attempt = startAttempt(root, () -> core.retry(previous), again);
                }
                case REFUSED -> throw new TransactionAbortedException(TransactionAbortedException.Reason.VOTED_NO,
                        object.kind() + "." + function + ": " + done.reason());
                case FAILED -> throw rethrown(failure);
            }
        }
    }

    /** Starts an attempt of root {@code root}; with {@code snapshot}, one that reads a snapshot. */
    private TxnId startAttempt(String root, Supplier<TxnId> start, boolean snapshot) {
        lockCore();
        try {
            TxnId attempt = start.get();
            if (snapshot) {
                core.readSnapshot(attempt);
            }
            txns.put(attempt, new LocalTxn(this, attempt, root, snapshot));
            rootOutcomes.put(attempt, new CompletableFuture<>());
            applyOutbox();
            return attempt;
        } finally {
            unlockCore();
        }
    }

    private Decision.RootDone finishRoot(TxnId attempt, HostCore.Ending ending) {
        CompletableFuture<Decision.RootDone> outcome = rootOutcomes.get(attempt);
        inCore(() -> core.finishRoot(attempt, ending));
        return LocalTxn.await(outcome);
    }

    private static RuntimeException rethrown(Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        return (RuntimeException) failure;
    }

    /** Takes {@code lock} for {@code txn}, blocking (or unwinding if wounded) until the core grants it. */
    void acquire(LocalTxn txn, LockId lockId) {
        if (servingWithoutWaits()) {
            acquireWithoutWaiting(txn, lockId);
            return;
        }
        CompletableFuture<Void> grant = null;
        lockCore();
        try {
            if (core.lock(txn.id, lockId)) {
                txn.heldNow(lockId);
            } else {
                grant = txn.awaitGrant(lockId);
            }
            applyOutbox();
        } finally {
            unlockCore();
        }
        if (grant != null) {
            LocalTxn.await(grant);
        }
    }

    /** Takes a lock for a served call that must not wait, or unwinds it ({@link WouldBlock}). */
    private void acquireWithoutWaiting(LocalTxn txn, LockId lockId) {
        lockCore();
        try {
            if (!core.tryLock(txn.id, lockId)) {
                throw new WouldBlock();
            }
            txn.heldNow(lockId);
            applyOutbox();
        } finally {
            unlockCore();
        }
    }

    /**
     * Sends a call for {@code txn} to host {@code hostId} and waits for its response. With
     * {@code last}, the body marked it as the root body's last call (the last partner step of
     * a sequence, or {@link Ctx#lastCall} of a Public function): it carries the prepare, unless
     * this root's body was seen calling again after such a call, or another call of the
     * attempt still waits for its reply here (a body making calls in parallel): the prepare
     * names the hosts known to take part so far, and a call in flight may reveal more, so
     * such a call goes plain and the attempt prepares after its body.
     */
    Requests.Response call(LocalTxn txn, String hostId, Object request, boolean last) {
        if (servingWithoutWaits()) {
            throw new WouldBlock(); // nothing sent yet: the rerun on a thread of its own makes the call
        }
        int to = transport.hostNumber(hostId);
        if (to < 0) {
            throw new NetworkException("no host '" + hostId + "' on the network");
        }
        CompletableFuture<Requests.Response> reply;
        lockCore();
        try {
            boolean carriesPrepare = last && txn.root != null && !callAfterLastCall.contains(txn.root)
                    && !txn.awaitingReplies();
            long callId = core.call(txn.id, to, request, carriesPrepare);
            if (callId == HostCore.CALLED_AFTER_LAST) {
                callAfterLastCall.add(txn.root);
            }
            if (callId < 0) {
                applyOutbox();
                throw new BackoutSignal();
            }
            reply = txn.awaitReply(callId);
            applyOutbox();
        } finally {
            unlockCore();
        }
        return LocalTxn.await(reply);
    }

    // ---- the core and its outputs ----------------------------------------------------------

    private void inCore(Runnable action) {
        lockCore();
        try {
            action.run();
            applyOutbox();
            wakeWhenCommitWaitsEnd();
        } finally {
            unlockCore();
        }
    }

    private <T> T inCore(Supplier<T> action) {
        lockCore();
        try {
            T result = action.get();
            applyOutbox();
            wakeWhenCommitWaitsEnd();
            return result;
        } finally {
            unlockCore();
        }
    }

    /**
     * A commit with shared appends waits until real time passed its stamp ({@link
     * #useSharedAppends(Duration)}): a virtual thread wakes the core then, unless one already
     * wakes it sooner. Lock held.
     */
    private void wakeWhenCommitWaitsEnd() {
        long ends = core.commitWaitEnds();
        if (ends == Long.MAX_VALUE || ends >= commitWaitWake) {
            return;
        }
        commitWaitWake = ends;
        Thread.ofVirtual().name("waldo-commit-wait-" + id).start(() -> {
            for (long left = ends - realTimeNanos(); left > 0; left = ends - realTimeNanos()) {
                LockSupport.parkNanos(left);
            }
            inCoreFromTransport(() -> {
                commitWaitWake = Long.MAX_VALUE;
                core.releaseWaitingCommits();
            });
        });
    }

    /**
     * Like {@link #inCore(Runnable)} for the transport's events, which never wait for group
     * commit's fsync: the transport's thread goes on stepping the messages that arrive
     * meanwhile, and their records join the next fsync. It touches no host state the queued
     * drains would change.
     */
    private void inCoreFromTransport(Runnable action) {
        lockCore();
        try {
            runFromTransport(action);
        } finally {
            unlockCore();
        }
    }

    /** A tick from the transport, unless the core has had nothing timed since the last one. */
    private void tick() {
        if (quiet) {
            return;
        }
        lockCore();
        try {
            runFromTransport(coreTick);
            if (!core.needsTicks()) {
                quiet = true;
                transport.wantTicks(false);
            }
        } finally {
            unlockCore();
        }
    }

    /** Runs a transport's event in the core and applies what it produced. Lock held. */
    private void runFromTransport(Runnable action) {
        action.run();
        if (groupCommit == null) {
            applyOutbox();
        } else {
            queueDrains();
        }
        wakeWhenCommitWaitsEnd();
    }

    /** Takes the core's lock. Whatever the holder does may give the core timed work, so ticks resume. */
    private void lockCore() {
        lock.lock();
        wake();
    }

    /** Lets the core's lock go, then hands the messages the core produced to the transport. */
    private void unlockCore() {
        lock.unlock();
        sendOutgoing();
    }

    /**
     * Hands the queued messages to the transport in the order the core produced them: one thread
     * at a time sends, and a thread that finds another sending leaves its messages to it (which
     * looks again once it stopped, so none is left behind). Sending after the lock is released
     * keeps a peer's quick answer from finding the lock still held by the thread that sent the
     * question: in memory, one transaction in two met that and parked for it.
     */
    private void sendOutgoing() {
        while (!outgoing.isEmpty() && sending.compareAndSet(false, true)) {
            try {
                for (Envelope envelope = outgoing.poll(); envelope != null; envelope = outgoing.poll()) {
                    transport.send(envelope);
                }
            } finally {
                sending.set(false);
            }
        }
    }

    /** Ticks resume, if a tick had found the core with nothing timed. Lock held. */
    private void wake() {
        if (quiet) {
            quiet = false;
            transport.wantTicks(true);
        }
    }

    /**
     * Applies and sends what the core produced, until applying produces
     * nothing more. Decisions go first so that, for example, a commit is
     * installed here before the acknowledgement that lets the root's caller
     * return is sent. With group commit, the drains wait for their fsync in
     * {@link GroupCommit}, and the caller waits until every install and
     * discard queued so far was applied, so that it sees the variables as
     * the core decided them, as it would have without. Lock held.
     */
    private void applyOutbox() {
        if (groupCommit != null) {
            queueDrains();
            groupCommit.awaitApplied();
            return;
        }
        for (Outbox out = core.drain(); !out.isEmpty(); out = core.drain()) {
            if (!persist(out)) {
                return;
            }
            applyDrain(out);
        }
    }

    /** Group commit: writes the records of what the core produced and queues it for its fsync. Lock held. */
    private void queueDrains() {
        for (Outbox out = core.drain(); !out.isEmpty() && !closed; out = core.drain()) {
            try {
                groupCommit.enqueue(out);
            } catch (StorageException failure) {
                storageFailed(failure);
            }
        }
    }

    /** Applies one drain whose records are durable: its decisions, then queues its messages. Lock held. */
    private void applyDrain(Outbox out) {
        wake(); // group commit's flusher applies drains under the lock without lockCore
        for (Decision decision : out.decisions()) {
            apply(decision);
        }
        outgoing.addAll(out.messages());
    }

    /**
     * Group commit's flusher applies a drain its fsync covered and sends its messages at once, under
     * the lock: it keeps the lock until it waits for the next fsync. Lock held.
     */
    private void applyDurableDrain(Outbox out) {
        applyDrain(out);
        sendOutgoing();
    }

    /**
     * Persist before you send: makes the drain's records durable before its
     * decisions are applied or its messages leave. Lock held.
     */
    private boolean persist(Outbox out) {
        if (out.persist().isEmpty()) {
            return true;
        }
        try {
            storage.append(out.persist());
            return true;
        } catch (StorageException failure) {
            storageFailed(failure);
            return false;
        }
    }

    /**
     * A storage that fails leaves the host unable to keep its word, so it stops as if it
     * crashed (its peers see it go; a restart takes up what was durable). Lock held.
     */
    private void storageFailed(StorageException failure) {
        if (closed) {
            return;
        }
        LOG.log(System.Logger.Level.ERROR, "host " + id + " stops: " + failure.getMessage()
                + "; restart it once the storage works again", failure);
        closed = true;
        if (groupCommit != null) {
            groupCommit.stop();
        }
        transport.close();
        bindingWork.shutdown();
    }

    private void apply(Decision decision) {
        LocalTxn txn = txns.get(decision.txn());
        switch (decision) {
            case Decision.Granted granted -> {
                if (txn != null) {
                    txn.granted(granted.lock());
                }
            }
            case Decision.Wounded wounded -> {
                if (txn != null) {
                    txn.wound();
                }
            }
            case Decision.RunCall run -> serve(run);
            case Decision.Replied replied -> {
                if (txn != null) {
                    txn.replied(replied.callId(), (Requests.Response) replied.response(), replied.wounded());
                }
            }
            case Decision.CallFailed failed -> {
                if (txn != null) {
                    txn.callFailed(failed.callId(), transport.hostId(failed.host()));
                }
            }
            case Decision.PrepareLocal prepare -> prepareLocal(prepare.txn(), txn);
            case Decision.Install install -> {
                install(install.txn());
                outcomeApplied(install.txn());
                settleRecovered(install.txn(), true);
            }
            case Decision.Discard discard -> {
                discard(discard.txn());
                outcomeApplied(discard.txn());
                settleRecovered(discard.txn(), false);
            }
            case Decision.Register ask -> askRegister(ask);
            case Decision.RootDone done -> {
                CompletableFuture<Decision.RootDone> outcome = rootOutcomes.remove(done.txn());
                if (outcome != null) {
                    outcome.complete(done);
                }
            }
        }
    }

    /**
     * Asks the decision register to settle an attempt and reports what it settled to the core,
     * from a thread of its own (the register's answer may come at once, and this runs under the
     * host's lock). A failed ask is only logged: the core asks again on a later tick.
     */
    private void askRegister(Decision.Register ask) {
        if (!registerAsks.add(ask.txn())) {
            return; // still asking: the core asks again on every few ticks, the register answers once
        }
        String attempt = nameOf(ask.txn().host()) + "#" + ask.txn().serial();
        register.settle(attempt, ask.commitStamp()).whenCompleteAsync((commitStamp, failure) -> {
            registerAsks.remove(ask.txn());
            if (failure != null) {
                LOG.log(System.Logger.Level.DEBUG, "host " + id + ": the decision register did not settle "
                        + attempt + " (asked again later): " + failure.getMessage());
                return;
            }
            inCoreFromTransport(() -> {
                if (!closed) {
                    core.registered(ask.txn(), commitStamp);
                }
            });
        }, work -> Thread.ofVirtual().name("waldo-register-" + id).start(work));
    }

    /**
     * Runs a call that arrived for a transaction, then reports its end to the core. A call that
     * is the attempt's first work here, of an object whose code waits only through the runtime,
     * runs on the thread that received it, once that thread let the core's lock go: no thread
     * hand-off, and its reply leaves from the thread that received the call. If it would wait,
     * it is unwound ({@link WouldBlock}) and run again from the start on a thread of its own,
     * with fresh working state: nothing it did can have left this host, and the locks it took
     * stay the attempt's. Any other call runs on a thread of its own at once. Lock held.
     */
    private void serve(Decision.RunCall run) {
        boolean fresh = !txns.containsKey(run.txn());
        LocalTxn txn = txns.computeIfAbsent(run.txn(), attempt -> new LocalTxn(this, attempt, null,
                core.readsSnapshot(attempt)));
        if (fresh && receiving == Thread.currentThread() && servesOnReceivingThread(run.request())) {
            txn.startedOnReceivingThread = true;
            receivedCalls.add(run);
            return;
        }
        // A second call of the attempt may use its working state: the first must not be rerun afresh.
        txn.startedOnReceivingThread = false;
        serveOnThread(run, txn);
    }

    private boolean servesOnReceivingThread(Object request) {
        return switch (request) {
            case Requests.Invocation call -> objects.get(call.object()) instanceof WaldoObject target
                    && target.servesOnReceivingThread(call.function());
            case Requests.StepInvocation step -> objects.get(step.object()) instanceof WaldoObject target
                    && target.servesOnReceivingThread(step.sequence());
            default -> false;
        };
    }

    /** Runs the calls the receiving thread queued for itself (see {@link #serve}). Lock not held. */
    private void runReceivedCalls() {
        for (Decision.RunCall run = receivedCalls.poll(); run != null; run = receivedCalls.poll()) {
            LocalTxn txn = txns.get(run.txn()); // a served call keeps its attempt live here until it finished
            if (!txn.startedOnReceivingThread) {
                serveOnThread(run, txn);
                continue;
            }
            servingWithoutWaits = Thread.currentThread();
            try {
                Served served = served(txn, copyOf(run.request()));
                finishServed(run, served);
            } catch (WouldBlock waits) {
                serveOnThread(run, restarted(run.txn(), txn));
            } finally {
                servingWithoutWaits = null;
            }
        }
    }

    /** A fresh LocalTxn for a served call run again from the start, wounded if the one it replaces was. */
    private LocalTxn restarted(TxnId attempt, LocalTxn replaced) {
        lockCore();
        try {
            LocalTxn fresh = new LocalTxn(this, attempt, null, replaced.snapshot);
            if (!txns.replace(attempt, replaced, fresh)) {
                return replaced; // not its attempt's state any more: the run on a thread finds it ended
            }
            if (replaced.wounded()) {
                fresh.wound();
            }
            return fresh;
        } finally {
            unlockCore();
        }
    }

    /** Whether this thread runs a served call that must not wait ({@link WouldBlock} instead). */
    boolean servingWithoutWaits() {
        return servingWithoutWaits == Thread.currentThread();
    }

    /** The request as a run that may be unwound gets it: its values copied, so a rerun sees them unchanged. */
    private static Object copyOf(Object request) {
        return switch (request) {
            case Requests.Invocation call -> {
                Object[] args = new Object[call.args().length];
                for (int i = 0; i < args.length; i++) {
                    args[i] = Values.copy(call.args()[i]);
                }
                yield new Requests.Invocation(call.object(), call.function(), args);
            }
            case Requests.StepInvocation step -> {
                if (step.changes().isEmpty()) {
                    yield step;
                }
                Map<String, Object> changes = new java.util.LinkedHashMap<>();
                step.changes().forEach((name, value) -> changes.put(name, Values.copy(value)));
                yield new Requests.StepInvocation(step.object(), step.frame(), step.sequence(), step.step(), changes);
            }
            default -> request;
        };
    }

    /** Runs a served call on a virtual thread of its own. */
    private void serveOnThread(Decision.RunCall run, LocalTxn txn) {
        Thread.ofVirtual().name("waldo-call-" + id).start(() -> finishServed(run, served(txn, run.request())));
    }

    /** How a served call ended: its response, or backed out. */
    private record Served(Requests.Response response, boolean backedOut) {
    }

    private Served served(LocalTxn txn, Object request) {
        try {
            return new Served(execute(txn, request), false);
        } catch (BackoutSignal signal) {
            return new Served(null, true);
        } catch (AbortSignal signal) {
            return new Served(Requests.Response.failure(Requests.Kind.ABORTED, "abort() called"), false);
        } catch (ApplicationException error) {
            return new Served(Requests.Response.failure(Requests.Kind.APPLICATION_ERROR, error.getMessage()), false);
        } catch (NetworkException error) {
            return new Served(Requests.Response.failure(Requests.Kind.NETWORK_ERROR, error.getMessage()), false);
        } catch (WouldBlock waits) {
            throw waits;
        } catch (RuntimeException | Error bug) {
            LOG.log(System.Logger.Level.WARNING, "internal error serving a call on host " + id, bug);
            return new Served(Requests.Response.failure(Requests.Kind.APPLICATION_ERROR,
                    "internal error on host " + id + ": " + bug), false);
        }
    }

    private void finishServed(Decision.RunCall run, Served served) {
        inCore(() -> core.finishCall(run.txn(), run.callId(), served.response(), served.backedOut()));
    }

    private Requests.Response execute(LocalTxn txn, Object request) {
        return switch (request) {
            case Requests.Invocation invocation -> {
                WaldoObject target = existing(invocation.object());
                yield Requests.Response.value(Values.copy(target.dispatch(txn, invocation.function(), invocation.args())));
            }
            case Requests.StepInvocation step -> runStep(txn, step);
            default -> throw new IllegalArgumentException("unknown request " + request);
        };
    }

    private Requests.Response runStep(LocalTxn txn, Requests.StepInvocation step) {
        if (!(existing(step.object()) instanceof WaldoEndpoint endpoint)) {
            throw new ApplicationException("object " + id + "/" + step.object() + " is not an endpoint");
        }
        SequenceFrame frame = txn.partnerFrame(step.frame(), step.sequence());
        frame.absorb(step.changes());
        endpoint.runStep(txn, frame, step.step());
        Map<String, Object> changes = frame.changesSinceSync();
        frame.markSynced();
        return Requests.Response.step(changes, frame.returned(), Values.copy(frame.returnedValue()));
    }

    private WaldoObject existing(long objectId) {
        WaldoObject object = objects.get(objectId);
        if (object == null) {
            throw new ApplicationException("no endpoint or service " + id + "/" + objectId);
        }
        return object;
    }

    // ---- commit and backout here -----------------------------------------------------------

    /** A binding that was asked to prepare a transaction, with what it was given. */
    record PreparedBinding(String annotation, Binding binding, BoundTransaction transaction) {
    }

    private void prepareLocal(TxnId attempt, LocalTxn txn) {
        Map<String, List<BoundTransaction.Change>> changes = txn == null || txn.snapshot || bindings.isEmpty()
                ? Map.of() : txn.boundChanges(bindings.keySet());
        if (changes.isEmpty()) {
            if (txn != null && !txn.snapshot && txn.printed().isEmpty()) {
                core.voteReadOnly(attempt); // the core knows whether it only read here (its locks)
            } else {
                core.vote(attempt, true, null);
            }
            return;
        }
        List<String> peers = core.participantsToAsk(attempt).stream().map(transport::hostId).toList();
        List<PreparedBinding> prepared = new ArrayList<>();
        changes.forEach((name, list) -> prepared.add(
                new PreparedBinding(name, bindings.get(name), new BoundTransaction(attempt.toString(), list, peers))));
        txn.preparedBindings = prepared;
        byte[] peerIds = String.join("\n", peers).getBytes(StandardCharsets.UTF_8);
        if (!runBindingWork(() -> {
            String refusal = prepareBindings(prepared);
            inCore(() -> core.vote(attempt, refusal == null, refusal, true, peerIds));
        })) {
            core.vote(attempt, false, "host " + id + " is closing", true);
        }
    }

    /** Runs every binding's prepare; returns why one refused, or null if all voted yes. */
    private String prepareBindings(List<PreparedBinding> prepared) {
        for (PreparedBinding work : prepared) {
            try {
                Binding.Vote vote = work.binding().prepare(work.transaction());
                if (vote == null || !vote.accepted()) {
                    return "binding '" + work.annotation() + "' on host " + id + " voted no: "
                            + (vote == null ? "no vote" : vote.reason());
                }
            } catch (Exception error) {
                return "binding '" + work.annotation() + "' on host " + id + " failed in prepare: " + error.getMessage();
            }
        }
        return null;
    }

    private void install(TxnId attempt) {
        LocalTxn txn = txns.remove(attempt);
        if (txn == null) {
            core.finished(attempt); // restored from storage: its bindings finish through their own recovery
            return;
        }
        if (!txn.snapshot) {
            txn.install(); // a snapshot reader's working copies are what it read, not to be written back
        }
        PrintStream out = output;
        for (String line : txn.printed()) {
            out.println(line);
        }
        finishBindings(txn, true);
    }

    private void discard(TxnId attempt) {
        LocalTxn txn = txns.remove(attempt);
        if (txn == null) {
            core.finished(attempt);
            return;
        }
        txn.wound(); // a thread of it still waiting here (a reply the core now drops) unwinds
        finishBindings(txn, false);
    }

    /**
     * Commits or aborts every binding that prepared {@code txn}, in order on the
     * binding thread, then lets the core release the attempt's locks here and
     * acknowledge: no transaction here loads a bound variable the attempt
     * locked while its bindings still change the outside system, and the
     * root's caller returns only after bindings everywhere finished.
     */
    private void finishBindings(LocalTxn txn, boolean commit) {
        if (txn.preparedBindings.isEmpty()) {
            core.finished(txn.id); // applied: the core may log its end and acknowledge
            return;
        }
        boolean queued = runBindingWork(() -> {
            try {
                for (PreparedBinding work : txn.preparedBindings) {
                    finishBinding(work, txn.id, commit);
                }
            } finally {
                inCore(() -> core.finished(txn.id)); // even after an Error: the locks must not stay held
            }
        });
        if (!queued) {
            core.finished(txn.id);
        }
    }

    private void finishBinding(PreparedBinding work, TxnId attempt, boolean commit) {
        try {
            if (commit) {
                work.binding().commit(work.transaction());
            } else {
                work.binding().abort(work.transaction());
            }
        } catch (Exception error) {
            LOG.log(System.Logger.Level.ERROR, "binding '" + work.annotation() + "' failed to "
                    + (commit ? "commit" : "abort") + " transaction " + attempt + " on host " + id, error);
        }
    }

    /** Queues binding work behind what is queued already; false if the host is closing and runs no more. */
    private boolean runBindingWork(Runnable work) {
        try {
            bindingWork.execute(work);
            return true;
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            LOG.log(System.Logger.Level.WARNING, "host " + id + " is closing; binding work for a transaction was dropped");
            return false;
        }
    }

    /** Feeds the transport's events into the core. */
    private final class Receiver implements Transport.Receiver {
        @Override
        public void onMessage(Envelope envelope) {
            receiving = Thread.currentThread();
            try {
                inCoreFromTransport(() -> core.step(envelope));
            } finally {
                receiving = null;
            }
            runReceivedCalls();
        }

        @Override
        public void onLinkDown(int host) {
            inCoreFromTransport(() -> {
                core.linkDown(host);
                releaseReadsOfAttemptsInDoubt();
            });
        }

        @Override
        public void onLinkUp(int host) {
            inCoreFromTransport(() -> core.linkUp(host));
        }

        @Override
        public void onPeerRestarted(int host) {
            inCoreFromTransport(() -> {
                core.peerRestarted(host);
                releaseReadsOfAttemptsInDoubt();
            });
        }

        @Override
        public void onTick() {
            tick();
        }
    }

    /**
     * A connected pair of partner endpoints.
     *
     * @param local the endpoint created on the host that connected
     * @param remote its partner on the other host
     */
    public record Connection<A extends WaldoEndpoint, B extends WaldoEndpoint>(A local, B remote) {
    }
}
