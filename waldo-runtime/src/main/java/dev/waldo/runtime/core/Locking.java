package dev.waldo.runtime.core;

import dev.waldo.runtime.core.TxnRecord.State;
import java.util.List;
import java.util.Map;

/**
 * The scheduling role of a host's core: the lock table, wound-wait between
 * conflicting attempts, and primaries with their promotion (paper §4.3).
 */
final class Locking {
    private final CoreState state;
    private final LockTable locks = new LockTable(true);
    final Primaries primaries;
    private Participant participant;

    Locking(CoreState state, boolean primaries) {
        this.state = state;
        this.primaries = new Primaries(primaries);
    }

    void wire(Participant participant) {
        this.participant = participant;
    }

    /** See {@link HostCore#lock}. */
    boolean lock(TxnId txn, LockId lock) {
        TxnRecord record = state.txns.get(txn);
        if (record == null || record.state != State.ACTIVE) {
            state.decide(new Decision.Wounded(txn));
            return false;
        }
        if (holdsCovering(record, lock)) {
            return true;
        }
        if (locks.tryHold(record, lock)) {
            return true;
        }
        // An upgrade (say READ to WRITE) waits like any request: wound-wait decides between upgraders.
        locks.enqueue(record, lock);
        woundBlockers(record, lock);
        return false;
    }

    private static boolean holdsCovering(TxnRecord record, LockId lock) {
        for (LockId covering : lock.coveredBy()) {
            if (record.held.contains(covering)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Takes {@code lock} for an active attempt if that needs no wait (held already, or
     * grantable now); returns false, queueing nothing and wounding no one, otherwise.
     */
    boolean lockWithoutWaiting(TxnRecord record, LockId lock) {
        return holdsCovering(record, lock) || locks.tryHold(record, lock);
    }

    /** Time passed: waiters that a phase of commuting holders overtook long enough wound those they outrank. */
    void tick() {
        for (Map.Entry<TxnRecord, LockId> overdue : locks.agePhases()) {
            woundBlockers(overdue.getKey(), overdue.getValue());
        }
    }

    /** Takes {@code lock} for an attempt restored from storage, before any attempt of this run runs. */
    void retake(TxnRecord record, LockId lock) {
        locks.hold(record, lock);
    }

    /** Wound-wait: every holder of a conflicting lock that {@code record} outranks is wounded. */
    private void woundBlockers(TxnRecord record, LockId lock) {
        for (TxnRecord holder : locks.blockers(record, lock)) {
            if (record.priority.beats(holder.priority) && holder.woundable()) {
                markWounded(holder);
            }
        }
    }

    /** The attempts holding a lock that conflicts with {@code lock} (for a whole lock: any lock of its variable). */
    List<TxnRecord> holders(LockId lock) {
        return locks.blockers(null, lock);
    }

    void releaseLocks(TxnRecord record) {
        for (Object variable : locks.releaseAll(record)) {
            grant(variable);
        }
    }

    /** Withdraws the attempt's lock requests, granting what they held up. */
    void cancelWaits(TxnRecord record) {
        for (Object variable : locks.cancelWaits(record)) {
            grant(variable);
        }
    }

    private void grant(Object variable) {
        for (Map.Entry<TxnRecord, LockId> granted : locks.grantWaiters(variable)) {
            state.decide(new Decision.Granted(granted.getKey().id, granted.getValue()));
        }
    }

    /**
     * Wounds an active attempt here: wakes its threads, tells every other
     * host that may hold state or threads of it (so that a thread blocked on
     * another host stops too), and backs it out here once no thread of it runs.
     */
    void markWounded(TxnRecord record) {
        if (record.state != State.ACTIVE) {
            return;
        }
        record.state = State.WOUNDED;
        state.decide(new Decision.Wounded(record.id));
        for (int neighbour : record.neighbours(state.host)) {
            state.send(neighbour, new Message.Wound(record.id));
        }
        cancelWaits(record);
        if (record.active == 0) {
            participant.backoutLocal(record);
        }
    }

    void onWound(TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        if (record == null) {
            // The call that would create the record may still be on its way; refuse it when it comes.
            state.ended.putIfAbsent(txn, false);
            return;
        }
        markWounded(record);
    }

    /** The root became its endpoint's primary: its running attempt outranks every standard from now on. */
    void promote(RootRecord root) {
        TxnRecord record = state.txns.get(root.attempt);
        if (record == null) {
            return; // between attempts: the next attempt starts as primary
        }
        raisePriority(record, primaries.priorityOf(root, state.host), -1);
    }

    void onPromote(int from, Message.Promote promote) {
        TxnRecord record = state.txns.get(promote.txn());
        if (record != null) {
            raisePriority(record, promote.priority(), from);
        }
    }

    private void raisePriority(TxnRecord record, Priority priority, int from) {
        if (!priority.beats(record.priority)) {
            return;
        }
        record.priority = priority;
        for (int neighbour : record.neighbours(state.host)) {
            if (neighbour != from) {
                state.send(neighbour, new Message.Promote(record.id, priority));
            }
        }
        for (LockId lock : List.copyOf(record.waiting)) {
            woundBlockers(record, lock);
        }
    }

    int busyVariables() {
        return locks.busyVariables();
    }

    int waitingRequests() {
        return locks.waitingRequests();
    }

    String describeLocks() {
        return locks.describe();
    }
}
