package dev.waldo.runtime;

import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.core.LockMode;
import dev.waldo.runtime.core.TxnId;
import dev.waldo.runtime.lang.Values;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One transaction attempt on one host, as the threads running it see it: its
 * working copies, the locks it holds here, the waits it is blocked in, its
 * buffered output. It is the {@link Ctx} generated code receives.
 *
 * <p>Several threads may run one attempt at once: a body that makes its calls
 * in parallel (each call is synchronous on its own thread), or calls of the
 * attempt served here side by side. So each wait is kept on its own, a reply
 * by its call's id and a lock grant by the lock, and a wound or the attempt's
 * end fails every one of them: none is left waiting for good. The host wakes
 * a wounded attempt's waits from its mailbox thread.
 */
final class LocalTxn implements Ctx {
    final Host host;
    final TxnId id;
    /** The Public function ({@code Kind.function}) whose root body this attempt runs here; null for a served call. */
    final String root;
    /**
     * A read-only attempt that reads a snapshot instead of locking ({@link Host#readOnly}): its
     * reads take READ locks, which the core serves without locking, it loads nothing from
     * bindings (it reads what the host committed), it writes nothing, and it installs nothing.
     */
    final boolean snapshot;
    private volatile boolean wounded;
    private final Set<LockId> held = ConcurrentHashMap.newKeySet();
    private final Map<Cell, Object> working = new LinkedHashMap<>();
    /** What bindings loaded for cells this attempt touched: their before values in prepare. Guarded by {@code working}. */
    private final Map<Cell, Object> loadedBefore = new HashMap<>();
    private final Map<Long, SequenceFrame> partnerFrames = new HashMap<>();
    private final List<String> printed = new ArrayList<>();
    /** The threads waiting for a lock here, by lock (threads asking for the same lock share its wait). Guarded by the host's lock. */
    private final Map<LockId, CompletableFuture<Void>> lockWaits = new HashMap<>();
    /** Guarded by the host's lock. */
    private final Map<Long, CompletableFuture<Requests.Response>> replies = new HashMap<>();
    /**
     * True while a served call that is this attempt's first work here is queued for, or runs on,
     * the thread that received it (see {@code Host.serve}): it may still be unwound and run again
     * afresh. Cleared when a second call of the attempt arrives, which may share its state.
     */
    volatile boolean startedOnReceivingThread;
    /** The bindings that were asked to prepare this attempt, for commit or abort. */
    List<Host.PreparedBinding> preparedBindings = List.of();

    LocalTxn(Host host, TxnId id, String root, boolean snapshot) {
        this.host = host;
        this.id = id;
        this.root = root;
        this.snapshot = snapshot;
    }

    /** The attempt behind {@code ctx}, which must be running on {@code owner}'s host. */
    static LocalTxn on(Ctx ctx, WaldoObject owner) {
        if (!(ctx instanceof LocalTxn txn)) {
            throw new IllegalArgumentException("not a Ctx handed out by the Waldo runtime: " + ctx);
        }
        if (txn.host != owner.host()) {
            throw new IllegalStateException(owner + " was touched from a transaction running on host "
                    + txn.host.id() + "; state is reachable only on its own host");
        }
        return txn;
    }

    // ---- Ctx -------------------------------------------------------------------------------

    @Override
    public Object call(EndpointRef target, String function, Object... args) {
        return invoke(target, function, args, false);
    }

    @Override
    public Object lastCall(EndpointRef target, String function, Object... args) {
        return invoke(target, function, args, true);
    }

    private Object invoke(EndpointRef target, String function, Object[] args, boolean last) {
        checkLive();
        if (target == null) {
            throw new ApplicationException("call of " + function + " on an Endpoint that was never set");
        }
        Object[] copies = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            copies[i] = Values.copy(args[i]);
        }
        Requests.Invocation invocation = new Requests.Invocation(target.object(), function, copies);
        return host.call(this, target.host(), invocation, last).unwrap();
    }

    @Override
    public void partnerStep(WaldoEndpoint self, SequenceFrame frame, int step) {
        runPartnerStep(self, frame, step, false);
    }

    @Override
    public void lastPartnerStep(WaldoEndpoint self, SequenceFrame frame, int step) {
        runPartnerStep(self, frame, step, true);
    }

    private void runPartnerStep(WaldoEndpoint self, SequenceFrame frame, int step, boolean last) {
        checkLive();
        EndpointRef partner = self.partner();
        if (partner == null) {
            throw new NetworkException(self + " has no connected partner to run step " + step
                    + " of " + frame.sequence());
        }
        if (frame.id == 0) {
            frame.id = host.newFrameId();
        }
        Map<String, Object> changes = frame.changesSinceSync();
        frame.markSynced();
        Requests.StepInvocation invocation =
                new Requests.StepInvocation(partner.object(), frame.id, frame.sequence(), step, changes);
        Requests.Response response = host.call(this, partner.host(), invocation, last);
        response.unwrap();
        frame.absorb(response.changes());
        if (response.returned()) {
            frame.markReturned(response.value());
        }
    }

    @Override
    public RuntimeException abort() {
        return new AbortSignal();
    }

    @Override
    public void print(String text) {
        synchronized (printed) {
            printed.add(text);
        }
    }

    // ---- state -----------------------------------------------------------------------------

    /** Throws the backout signal if the attempt was wounded: every state access is a point where it stops. */
    void checkLive() {
        if (wounded) {
            throw new BackoutSignal();
        }
    }

    /**
     * Takes {@code lock} for the attempt, blocking until it is granted.
     *
     * @throws ApplicationException if the attempt is read-only and would write
     */
    void acquire(LockId lock) {
        checkLive();
        if (snapshot && lock.mode() != LockMode.READ) {
            throw new ApplicationException("read-only transaction " + id + " tried to change variable '"
                    + lock.variable() + "' on host " + host.id() + " (a " + lock.mode() + "); a transaction run"
                    + " through Host.readOnly may only read: call this function as an ordinary transaction");
        }
        for (LockId covering : lock.coveredBy()) {
            if (held.contains(covering)) {
                return;
            }
        }
        host.acquire(this, lock);
    }

    /**
     * Whether accesses to {@code cell} take abstract lock modes (shared reads,
     * commuting adds and appends): unless the host turned them off, or a
     * binding loads and pushes the cell as a whole.
     */
    boolean boosted(Cell cell) {
        return host.abstractLocks() && !bound(cell);
    }

    /**
     * The mode in which this attempt locks {@code cell} for a use in {@code mode}: that mode when
     * the cell is {@link #boosted}, or for a read-only attempt (whose reads read a snapshot and
     * whose writes {@link #acquire} refuses); else exclusively. An append is exclusive too
     * unless the host shares appends ({@link Host#useSharedAppends}).
     */
    LockMode modeFor(Cell cell, LockMode mode) {
        if (snapshot) {
            return mode;
        }
        boolean commuting = boosted(cell) && (mode != LockMode.APPEND || host.sharedAppends());
        return commuting ? mode : LockMode.WRITE;
    }

    /**
     * The mode in which this attempt locks a key of map {@code cell}, or the whole map, for a use in
     * {@code mode}: as {@link #modeFor}, except that a map its binding locks per key ({@link
     * Binding#keyed}) shares reads.
     */
    LockMode mapMode(Cell cell, LockMode mode) {
        return mode == LockMode.READ && keyed(cell) ? LockMode.READ : modeFor(cell, mode);
    }

    /** Whether {@code cell} is a bound Map that its binding locks per key ({@link Binding#keyed}). */
    boolean keyed(Cell cell) {
        return BoundLoads.keyed(host, cell);
    }

    /**
     * The attempt's working state of {@code cell}, made on first touch: from
     * what a binding loads ({@link Binding#load}), or else from {@code initial}.
     * The caller holds the cell's lock, so the load happens under it.
     */
    Object working(Cell cell, Supplier<Object> initial) {
        synchronized (working) {
            if (working.containsKey(cell)) {
                return working.get(cell);
            }
        }
        // A snapshot reader reads what the host committed: a load would read the outside system,
        // which a writer's binding may be changing right now (it takes no lock to keep it out).
        boolean loads = bound(cell) && !snapshot;
        if (loads && host.servingWithoutWaits()) {
            throw new WouldBlock(); // a binding's load may wait on its device
        }
        Object loaded = loads ? BoundLoads.load(host, cell, id.toString()) : null;
        synchronized (working) {
            if (working.containsKey(cell)) {
                // Another thread of this attempt touched the cell first (both hold its lock, as
                // the same attempt): keep its copy, which it may have changed already.
                return working.get(cell);
            }
            if (loaded != null) {
                loadedBefore.put(cell, loaded);
                working.put(cell, cell.workingFrom(loaded));
            } else {
                working.put(cell, initial.get());
            }
            return working.get(cell);
        }
    }

    /** Whether a binding of this host is bound to {@code cell} (it may then load it). */
    boolean bound(Cell cell) {
        return BoundLoads.bound(host, cell);
    }

    /** The frame of a sequence whose partner runs steps here, kept for the attempt's later steps. */
    SequenceFrame partnerFrame(long frameId, String sequence) {
        synchronized (partnerFrames) {
            return partnerFrames.computeIfAbsent(frameId, f -> new SequenceFrame(sequence));
        }
    }

    /** Installs every working copy; the attempt holds the cells' locks until the core releases them after this. */
    void install() {
        synchronized (working) {
            working.forEach(Cell::install);
        }
    }

    List<String> printed() {
        synchronized (printed) {
            return List.copyOf(printed);
        }
    }

    /** The annotated variables this attempt changed, per annotation name among {@code boundNames}. */
    Map<String, List<BoundTransaction.Change>> boundChanges(Set<String> boundNames) {
        Map<String, List<BoundTransaction.Change>> changes = new LinkedHashMap<>();
        synchronized (working) {
            for (Map.Entry<Cell, Object> entry : working.entrySet()) {
                Cell cell = entry.getKey();
                for (Annotation annotation : cell.annotations()) {
                    if (!boundNames.contains(annotation.name())) {
                        continue;
                    }
                    Object before = loadedBefore.containsKey(cell)
                            ? Values.copy(loadedBefore.get(cell)) : cell.committedCopy();
                    Object after = cell.afterValue(entry.getValue());
                    if (!SameValue.of(before, after)) {
                        changes.computeIfAbsent(annotation.name(), n -> new ArrayList<>())
                                .add(new BoundTransaction.Change(cell.owner(), cell.name(), annotation, before, after));
                    }
                }
            }
        }
        return changes;
    }

    // ---- waits (called with the host's lock held) -------------------------------------------

    CompletableFuture<Void> awaitGrant(LockId lock) {
        if (wounded) {
            return endedWait(); // the wound that woke the others came before this wait
        }
        return lockWaits.computeIfAbsent(lock, l -> new CompletableFuture<>());
    }

    /**
     * A wait that a thread of the attempt starts after the attempt was wounded or ended here:
     * the wound already woke the waits it found, and a wake for an attempt that ended finds no
     * attempt to wake, so this one fails at once instead of waiting for good.
     */
    private static <T> CompletableFuture<T> endedWait() {
        return CompletableFuture.failedFuture(new BackoutSignal());
    }

    void granted(LockId lock) {
        held.add(lock);
        CompletableFuture<Void> wait = lockWaits.remove(lock);
        if (wait != null) {
            wait.complete(null);
        }
    }

    void heldNow(LockId lock) {
        held.add(lock);
    }

    CompletableFuture<Requests.Response> awaitReply(long callId) {
        if (wounded) {
            return endedWait();
        }
        CompletableFuture<Requests.Response> reply = new CompletableFuture<>();
        replies.put(callId, reply);
        return reply;
    }

    void replied(long callId, Requests.Response response, boolean backedOut) {
        CompletableFuture<Requests.Response> reply = replies.remove(callId);
        if (reply == null) {
            return;
        }
        if (backedOut) {
            reply.completeExceptionally(new BackoutSignal());
        } else {
            reply.complete(response);
        }
    }

    void callFailed(long callId, String hostId) {
        CompletableFuture<Requests.Response> reply = replies.remove(callId);
        if (reply != null) {
            reply.completeExceptionally(new NetworkException("host '" + hostId + "' is unreachable"));
        }
    }

    /** The attempt was wounded or cut off: every wait of it here ends with the backout signal. */
    void wound() {
        wounded = true;
        for (CompletableFuture<Void> wait : lockWaits.values()) {
            wait.completeExceptionally(new BackoutSignal());
        }
        lockWaits.clear();
        for (CompletableFuture<Requests.Response> reply : replies.values()) {
            reply.completeExceptionally(new BackoutSignal());
        }
        replies.clear();
    }

    /** Whether a call of this attempt made here still waits for its reply. */
    boolean awaitingReplies() {
        return !replies.isEmpty();
    }

    boolean wounded() {
        return wounded;
    }

    /** Blocks until {@code future} completes and rethrows, on this thread, what ended it. */
    static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException ended) {
            Throwable cause = ended.getCause();
            if (cause instanceof NetworkException network) {
                throw new NetworkException(network.getMessage());
            }
            if (cause instanceof BackoutSignal) {
                throw new BackoutSignal();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw ended;
        }
    }
}
