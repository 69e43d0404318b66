package dev.waldo.runtime.core;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 * <p>A body waits only for a prepared attempt that holds what it asks for
 * (see {@link #access}); nothing is wounded here, and priorities and
 * primaries play no part: a long attempt that conflicts with a stream of
 * short ones can fail its validation again and again (the starvation the
 * Waldo paper argues primaries prevent).
 */
final class Optimistic implements ConcurrencyControl {
    /** What an install's stamp on a {@link Part} records. */
    private enum Change {
        /** Any change to the variable, as a whole or to a key: what a whole read checks. */
        ANY,
        /** A change to one key. */
        KEY,
        /** A change to the variable as a whole: every key read checks it. */
        WHOLE,
        /**
         * A WRITE to one key, or to the whole variable (no key): what adds and appends check. They
         * read nothing but whether the key is there, which only a put or remove changes.
         */
        REPLACED
    }

    /** A piece of state an install changed, stamped with the install in {@link #changedAt}. */
    private record Part(long object, String variable, Object key, Change change) {
        static Part of(LockId lock, Change change) {
            return new Part(lock.object(), lock.variable(), change == Change.KEY ? lock.key() : null, change);
        }

        static Part replaced(LockId lock) {
            return new Part(lock.object(), lock.variable(), lock.isWhole() ? null : lock.key(), Change.REPLACED);
        }

        static Part wholeReplaced(LockId lock) {
            return new Part(lock.object(), lock.variable(), null, Change.REPLACED);
        }
    }

    private final CoreState state;
    /** Bodies waiting for a prepared attempt's validation lock to go, with the piece they asked for. */
    private final Map<TxnRecord, LockId> waiting = new LinkedHashMap<>();

    Optimistic(CoreState state) {
        this.state = state;
    }

    /** Prepared attempts' validation locks: checked at validation, and waited for by bodies (see {@link #access}). */
    private final LockTable validated = new LockTable(false);
    /** The number of installs here so far: the stamp of the newest. */
    private long installs;
    /**
     * The stamp of the last install that changed each part. Only stamps newer than a live
     * attempt's reads matter, so it is emptied whenever no attempt has read anything.
     */
    private final Map<Part, Long> changedAt = new HashMap<>();
    /** Per live attempt, what it used and the install stamp when it first did. */
    private final Map<TxnId, Map<LockId, Long>> footprints = new HashMap<>();

    /**
     * Notes the use and lets the body go on, unless a prepared attempt holds a conflicting
     * validation lock: then the body waits until that attempt ended here (a {@link
     * Decision.Granted} follows), so that it reads the outcome rather than what that attempt
     * is replacing (which could not pass validation), and never state a binding is still
     * changing on its device. A prepared attempt waits for nothing but its decision, so such
     * waits close no cycle; retrying at once instead would spin until the decision came.
     */
    @Override
    public boolean access(TxnRecord record, LockId lock) {
        if (accessWithoutWaiting(record, lock)) {
            return true;
        }
        waiting.put(record, lock);
        return false;
    }

    @Override
    public boolean accessWithoutWaiting(TxnRecord record, LockId lock) {
        if (!validated.blockers(record, lock).isEmpty()) {
            return false;
        }
        footprints.computeIfAbsent(record.id, id -> new LinkedHashMap<>()).putIfAbsent(lock, installs);
        return true;
    }

    @Override
    public String validate(TxnRecord record) {
        Map<LockId, Long> used = footprints.getOrDefault(record.id, Map.of());
        for (Map.Entry<LockId, Long> use : used.entrySet()) {
            String change = changeSince(use.getKey(), use.getValue());
            if (change != null) {
                return "optimistic validation failed: " + describe(use.getKey()) + change
                        + " by a transaction that committed after attempt " + record.id
                        + (reads(use.getKey()) ? " read it" : " appended or added to it");
            }
        }
        for (LockId lock : used.keySet()) {
            if (!WoundWait.holdsCovering(record, lock) && !validated.tryHold(record, lock)) {
                TxnRecord holder = validated.blockers(record, lock).getFirst();
                dropValidationLocks(record);
                return "optimistic validation failed: " + describe(lock) + " is being committed by attempt "
                        + holder.id + " while attempt " + record.id + " used it";
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

    /**
     * How the piece a use saw changed since {@code stamp} (" was changed", " was replaced"), or
     * null if it did not. A read or write saw the value, so any change counts. An add or append
     * commutes with other adds and appends, but found the key there (or, for a map, missing, and
     * created it with a put): a put or remove since would make the attempt act on what is no
     * longer so, for example replace a list another attempt created meanwhile.
     */
    private String changeSince(LockId lock, long stamp) {
        if (reads(lock)) {
            boolean changed = lock.isWhole() ? after(Part.of(lock, Change.ANY), stamp)
                    : after(Part.of(lock, Change.KEY), stamp) || after(Part.of(lock, Change.WHOLE), stamp);
            return changed ? " was changed" : null;
        }
        boolean replaced = after(Part.replaced(lock), stamp) || after(Part.wholeReplaced(lock), stamp);
        return replaced ? " was replaced" : null;
    }

    private boolean after(Part part, long stamp) {
        return changedAt.getOrDefault(part, 0L) > stamp;
    }

    private static String describe(LockId lock) {
        return "variable '" + lock.variable() + "'" + (lock.isWhole() ? "" : " key " + lock.key())
                + " of object " + lock.object();
    }

    @Override
    public void installed(TxnRecord record) {
        long stamp = ++installs;
        for (LockId lock : record.held) {
            if (lock.mode() == LockMode.READ) {
                continue;
            }
            changedAt.put(Part.of(lock, Change.ANY), stamp);
            changedAt.put(Part.of(lock, lock.isWhole() ? Change.WHOLE : Change.KEY), stamp);
            if (lock.mode() == LockMode.WRITE) {
                changedAt.put(Part.replaced(lock), stamp);
            }
        }
    }

    @Override
    public void release(TxnRecord record) {
        waiting.remove(record);
        dropValidationLocks(record);
        footprints.remove(record.id);
        if (footprints.isEmpty()) {
            changedAt.clear();
        }
        grantWaiters();
    }

    /** Lets every waiting body whose piece no prepared attempt holds any more go on. */
    private void grantWaiters() {
        for (Map.Entry<TxnRecord, LockId> waiter : List.copyOf(waiting.entrySet())) {
            if (accessWithoutWaiting(waiter.getKey(), waiter.getValue())) {
                waiting.remove(waiter.getKey());
                state.decide(new Decision.Granted(waiter.getKey().id, waiter.getValue()));
            }
        }
    }

    @Override
    public void cancelWaits(TxnRecord record) {
        waiting.remove(record);
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
    public void priorityRaised(TxnRecord record) {
        // A wait here ends with a prepared attempt's decision, whatever the priorities: nothing to wound.
    }

    @Override
    public int busyVariables() {
        Set<Part> busy = new HashSet<>();
        for (Map<LockId, Long> used : footprints.values()) {
            for (LockId lock : used.keySet()) {
                busy.add(Part.of(lock, Change.ANY));
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
