package dev.waldo.runtime.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Optimistic concurrency control (Tribune, Weber et al.), chosen per host: an
 * attempt's body takes no locks here. It reads the committed values and
 * buffers its writes (the host layer's working copies, as under locks), while
 * this class notes when it first used each piece of state. When the attempt is
 * about to prepare here (before its bindings push anything), it is validated: every piece it read must not
 * have been changed by an install since, nor any key it added or appended to replaced by a put or
 * remove (see {@link #changeSince}), and it takes validation locks on
 * everything it used, in the mode it used it, without waiting. A prepared
 * attempt holding a conflicting validation lock (it may be committing now)
 * fails it too. A failed attempt votes WOUNDED and its root retries it, as
 * after a wound. The validation locks stay held until the attempt ends here,
 * so the attempt's serialization point lies between its validation and its install,
 * as a locking host's lies between its last lock and its release: hosts of
 * either kind agree on the order of a distributed transaction.
 *
 * <p><b>Pessimistic fallback.</b> Alone, this lets a long attempt that conflicts with a stream
 * of short ones fail its validation again and again (the starvation the Waldo paper argues
 * primaries prevent). So once this host has refused a root's attempts {@code lockAfterRefusals}
 * times, that root's later attempts run <em>pessimistically</em> here: each use takes its
 * validation lock at once, before the body goes on, and keeps it to the attempt's end (strict
 * two-phase locking in the validation lock table). What such an attempt read can then not change
 * before it ends (a conflicting install needs a conflicting validation lock), so its own
 * validation here always passes; an optimistic attempt that used the same state fails its
 * validation instead (the lock conflicts), and a body that asks for it waits, as for a prepared
 * attempt. Waits for a running pessimistic attempt follow wound-wait on the roots' priorities
 * (primaries included, kept across retries): a request wounds the running pessimistic holders
 * it outranks and waits for the others, and a pessimistic request does not overtake a waiting
 * one that outranks it, so no wait cycle forms (prepared holders wait for nothing but their
 * decision) and the oldest root gets through. A root's refusals are counted per host (they are
 * keyed by the priority's host and root serial, which its retries keep), so only the hosts
 * that refused it lock for it, and it is forgotten when one of its attempts installs here.
 *
 * <p>Outside that fallback, a body waits only for a validation lock's holder (see {@link
 * #access}); priorities play no part.
 */
final class Optimistic implements ConcurrencyControl {
    /** A root transaction, as its attempts' priorities name it on every host (retries keep it). */
    private record Root(int host, long serial) {
        static Root of(TxnRecord record) {
            return new Root(record.priority.host(), record.priority.root());
        }
    }

    /**
     * How many roots' refusal counts a host remembers. A root that ends without committing here
     * (given up, or committed without touching this host again) is never told to this host, so
     * the oldest are dropped beyond this: such a root would only start counting afresh.
     */
    private static final int REMEMBERED_ROOTS = 4096;

    private final CoreState state;
    private final Consumer<TxnRecord> wound;
    private final int lockAfterRefusals;
    /** Bodies waiting for a validation lock's holder to go, with the piece they asked for. */
    private final Map<TxnRecord, LockId> waiting = new LinkedHashMap<>();
    /** Per root, how often this host refused its attempts at validation; the least recently looked up first. */
    private final Map<Root, Integer> refusals = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Root, Integer> eldest) {
            return size() > REMEMBERED_ROOTS;
        }
    };
    /** Live attempts that run pessimistically here (their root was refused often enough). */
    private final Set<TxnId> pessimistic = new HashSet<>();
    /** Attempts that ran pessimistically here so far. */
    private long pessimisticAttempts;

    /**
     * @param wound wounds an active attempt that a request outranks (see {@link Locking#markWounded})
     * @param lockAfterRefusals after how many refusals here a root's attempts run pessimistically
     *     here; 0 for never (plain OCC, which can starve a long attempt)
     */
    Optimistic(CoreState state, Consumer<TxnRecord> wound, int lockAfterRefusals) {
        if (lockAfterRefusals < 0) {
            throw new IllegalArgumentException("host " + state.host + ": the refusals after which a root locks"
                    + " (HostCore.useOptimisticConcurrencyLockingAfter, or the system property"
                    + " waldo.occ.lockAfterRefusals) must be 0 (never lock) or more, not " + lockAfterRefusals);
        }
        this.state = state;
        this.wound = wound;
        this.lockAfterRefusals = lockAfterRefusals;
    }

    /**
     * Validation locks: a prepared attempt's, taken at its validation, and a pessimistic one's,
     * taken as it uses state. Checked at validation, and waited for by bodies (see {@link #access}).
     */
    private final LockTable validated = new LockTable(false);
    /** Which piece each install changed, emptied whenever no attempt has used anything here. */
    private final InstallStamps stamps = new InstallStamps();
    /** Per live attempt, what it used and the install stamp when it first did. */
    private final Map<TxnId, Map<LockId, Long>> footprints = new HashMap<>();

    /**
     * Notes the use and lets the body go on, unless the piece is held by a validation lock that
     * conflicts (a prepared attempt's, or a running pessimistic attempt's): then the body waits
     * until that holder ended here (a {@link Decision.Granted} follows), so that it reads the
     * outcome rather than what that attempt is replacing (which could not pass validation), and
     * never state a binding is still changing on its device. Before waiting it wounds the running
     * pessimistic holders it outranks (wound-wait); a prepared holder waits for nothing but its
     * decision, so waiting for one closes no cycle; retrying at once instead would spin until the
     * decision came.
     */
    @Override
    public boolean access(TxnRecord record, LockId lock) {
        if (accessWithoutWaiting(record, lock)) {
            return true;
        }
        waiting.put(record, lock);
        woundOutranked(record, lock);
        return false;
    }

    /** Wound-wait: every running holder of a conflicting validation lock that {@code record} outranks is wounded. */
    private void woundOutranked(TxnRecord record, LockId lock) {
        for (TxnRecord holder : validated.blockers(record, lock)) {
            if (holder.woundable() && record.priority.beats(holder.priority)) {
                wound.accept(holder);
            }
        }
    }

    @Override
    public boolean accessWithoutWaiting(TxnRecord record, LockId lock) {
        if (runsPessimistically(record)) {
            if (WoundWait.holdsCovering(record, lock)) {
                return true;
            }
            if (outrankedByWaiter(record, lock) || !validated.tryHold(record, lock)) {
                return false;
            }
        } else if (!validated.blockers(record, lock).isEmpty()) {
            return false;
        }
        footprints.computeIfAbsent(record.id, id -> new LinkedHashMap<>()).putIfAbsent(lock, stamps.now());
        return true;
    }

    /**
     * True if the attempt runs pessimistically here: decided at its first use of anything here,
     * from how often its root was refused here, and kept to its end.
     */
    private boolean runsPessimistically(TxnRecord record) {
        if (pessimistic.contains(record.id)) {
            return true;
        }
        if (lockAfterRefusals == 0 || footprints.containsKey(record.id)
                || refusals.getOrDefault(Root.of(record), 0) < lockAfterRefusals) {
            return false;
        }
        pessimistic.add(record.id);
        pessimisticAttempts++;
        return true;
    }

    /**
     * True if a waiting request that outranks {@code record}'s wants a piece that conflicts with
     * {@code lock}: a pessimistic request does not overtake it, so that a stream of newcomers
     * sharing a lock cannot starve an older attempt waiting to write.
     */
    private boolean outrankedByWaiter(TxnRecord record, LockId lock) {
        for (Map.Entry<TxnRecord, LockId> waiter : waiting.entrySet()) {
            if (waiter.getKey() != record && waiter.getValue().conflictsWith(lock)
                    && waiter.getKey().priority.beats(record.priority)) {
                return true;
            }
        }
        return false;
    }

    /** Validates the attempt (see {@link #check}); a refusal counts against its root here. */
    @Override
    public String validate(TxnRecord record) {
        String refusal = check(record);
        if (refusal != null) {
            refusals.merge(Root.of(record), 1, Integer::sum);
        }
        return refusal;
    }

    /**
     * Null if nothing the attempt used changed since it did and it now holds a validation lock
     * on each piece; else why not, having taken no validation lock.
     */
    private String check(TxnRecord record) {
        Map<LockId, Long> used = footprints.getOrDefault(record.id, Map.of());
        for (Map.Entry<LockId, Long> use : used.entrySet()) {
            String change = stamps.changeSince(use.getKey(), use.getValue());
            if (change != null) {
                return "optimistic validation failed: " + InstallStamps.describe(use.getKey()) + change
                        + " by a transaction that committed after attempt " + record.id
                        + (reads(use.getKey()) ? " read it" : " appended or added to it");
            }
        }
        for (LockId lock : used.keySet()) {
            if (!WoundWait.holdsCovering(record, lock) && !validated.tryHold(record, lock)) {
                TxnRecord holder = validated.blockers(record, lock).getFirst();
                dropValidationLocks(record);
                return "optimistic validation failed: " + InstallStamps.describe(lock)
                        + (holder.prepared() ? " is being committed by attempt " + holder.id
                                : " is locked by attempt " + holder.id + ", which runs pessimistically here"
                                        + " after repeated refusals,")
                        + " while attempt " + record.id + " used it";
            }
        }
        return null;
    }

    /** Drops the attempt's validation locks (waiting bodies are granted by {@link #grantWaiters}). */
    private void dropValidationLocks(TxnRecord record) {
        for (Object variable : validated.releaseAll(record)) {
            validated.grantWaiters(variable); // nothing queues in this table: it only forgets the variable once idle
        }
    }

    /** True if a use in this mode saw the value (adds and appends are deltas applied at install). */
    private static boolean reads(LockId lock) {
        return lock.mode() == LockMode.READ || lock.mode() == LockMode.WRITE;
    }

    @Override
    public void installed(TxnRecord record) {
        refusals.remove(Root.of(record)); // the root committed: its refusals here are over
        stamps.installed(record);
    }

    @Override
    public void release(TxnRecord record) {
        waiting.remove(record);
        dropValidationLocks(record);
        footprints.remove(record.id);
        pessimistic.remove(record.id);
        if (footprints.isEmpty()) {
            stamps.forget();
        }
        grantWaiters();
    }

    /**
     * Lets every waiting body whose piece no validation lock that conflicts holds any more go on,
     * the highest priority first (a pessimistic waiter granted its lock keeps those after it
     * waiting).
     */
    private void grantWaiters() {
        List<Map.Entry<TxnRecord, LockId>> byRank = new ArrayList<>();
        waiting.forEach((body, lock) -> byRank.add(Map.entry(body, lock)));
        byRank.sort((a, b) -> a.getKey().priority.beats(b.getKey().priority) ? -1
                : b.getKey().priority.beats(a.getKey().priority) ? 1 : 0);
        for (Map.Entry<TxnRecord, LockId> waiter : byRank) {
            if (accessWithoutWaiting(waiter.getKey(), waiter.getValue())) {
                waiting.remove(waiter.getKey());
                state.decide(new Decision.Granted(waiter.getKey().id, waiter.getValue()));
            }
        }
    }

    /** Withdraws the attempt's wait; a waiter it outranked (see {@link #outrankedByWaiter}) may go on now. */
    @Override
    public void cancelWaits(TxnRecord record) {
        if (waiting.remove(record) != null) {
            grantWaiters();
        }
    }

    @Override
    public void retake(TxnRecord record, LockId lock) {
        validated.hold(record, lock);
    }

    @Override
    public List<TxnRecord> holders(LockId lock) {
        return validated.blockers(null, lock);
    }

    @Override
    public void tick() {
        // No phases, no waiters.
    }

    @Override
    public boolean needsTicks() {
        return false;
    }

    /** A waiting body that now outranks a running pessimistic holder wounds it (wound-wait). */
    @Override
    public void priorityRaised(TxnRecord record) {
        LockId lock = waiting.get(record);
        if (lock != null) {
            woundOutranked(record, lock);
        }
    }

    /** How many attempts ran pessimistically here so far (see the class comment). */
    long pessimisticAttempts() {
        return pessimisticAttempts;
    }

    @Override
    public int busyVariables() {
        Set<LockId> busy = new HashSet<>();
        for (Map<LockId, Long> used : footprints.values()) {
            for (LockId lock : used.keySet()) {
                busy.add(lock.wholeLock());
            }
        }
        return Math.max(busy.size(), validated.busyVariables());
    }

    @Override
    public int waitingRequests() {
        return waiting.size();
    }

    /** The validation locks of prepared attempts, and the bodies waiting for them. */
    @Override
    public String describeLocks() {
        StringBuilder report = new StringBuilder(validated.describe());
        waiting.forEach((body, lock) -> report.append(lock.object()).append('.').append(lock.variable())
                .append(": body waiting ").append(body.id).append('/').append(body.state).append('/')
                .append(lock.mode()).append('\n'));
        return report.toString();
    }
}
