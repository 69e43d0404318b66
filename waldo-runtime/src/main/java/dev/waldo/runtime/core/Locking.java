package dev.waldo.runtime.core;

import dev.waldo.runtime.core.TxnRecord.State;
import java.util.List;

/**
 * The scheduling role of a host's core: an attempt's wounds and its
 * promotion as a primary (paper §4.3), over a {@link ConcurrencyControl}
 * chosen per host that decides how attempts using the same state are kept
 * apart: {@link WoundWait} (the lock table and wound-wait, the default) or
 * {@link Optimistic} (validation at prepare). Read-only attempts that read a snapshot take
 * no locks under either: {@link SnapshotReads} serves them.
 */
final class Locking {
    private final CoreState state;
    private ConcurrencyControl control;
    final Primaries primaries;
    private Participant participant;
    /** The read-only attempts that read a snapshot here, whichever the concurrency control. */
    final SnapshotReads snapshots;

    Locking(CoreState state, boolean primaries) {
        this.state = state;
        this.primaries = new Primaries(primaries);
        this.control = new WoundWait(state, this::markWounded);
        this.snapshots = new SnapshotReads(state, lock -> control.holders(lock));
    }

    void wire(Participant participant) {
        this.participant = participant;
        snapshots.wire(participant);
    }

    /**
     * After how many refusals on a host a root's attempts run pessimistically there, when the
     * host chose OCC without saying: the system property {@code waldo.occ.lockAfterRefusals}
     * (0 turns the fallback off) as it is when the host chooses, else 3. Read at each choice, so
     * that a benchmark can compare settings in one JVM through {@code Host}.
     */
    static int defaultLockAfterRefusals() {
        return Integer.getInteger("waldo.occ.lockAfterRefusals", 3);
    }

    /**
     * Switches this host to optimistic concurrency control ({@link Optimistic}). Only while
     * nothing is live here: the policies cannot share attempts.
     *
     * @param lockAfterRefusals after how many refusals here a root's attempts run pessimistically
     *     here (see {@link Optimistic}); 0 for never
     */
    void useOptimistic(int lockAfterRefusals) {
        if (!state.txns.isEmpty() || control.busyVariables() > 0) {
            throw new IllegalStateException("host " + state.host + " has " + state.txns.size()
                    + " live attempts: choose its concurrency control before transactions run there");
        }
        control = new Optimistic(state, this::markWounded, lockAfterRefusals);
    }

    /** How many attempts ran pessimistically on this optimistic host so far (0 on a locking host). */
    long pessimisticAttempts() {
        return control instanceof Optimistic optimistic ? optimistic.pessimisticAttempts() : 0;
    }

    /** True if this host validates optimistically instead of locking. */
    boolean optimistic() {
        return control instanceof Optimistic;
    }

    /** See {@link HostCore#lock}. */
    boolean lock(TxnId txn, LockId lock) {
        TxnRecord record = state.txns.get(txn);
        if (record == null || record.state != State.ACTIVE) {
            state.decide(new Decision.Wounded(txn));
            return false;
        }
        return record.snapshot ? snapshots.read(record, lock) : control.access(record, lock);
    }

    /**
     * Takes {@code lock} for an active attempt if that needs no wait (held already, or
     * grantable now); returns false, queueing nothing and wounding no one, otherwise. A
     * read-only attempt that reads a snapshot always gets false: after the root's last call
     * carried the prepare, a read after the callee's validation would escape it (see {@link
     * SnapshotReads}), so the attempt retries with its calls unmarked; for a call served on the
     * receiving thread ({@link HostCore#tryLock}), the call runs again on a thread of its own,
     * where its read may wait for writers that voted yes.
     */
    boolean lockWithoutWaiting(TxnRecord record, LockId lock) {
        return !record.snapshot && control.accessWithoutWaiting(record, lock);
    }

    /** See {@link ConcurrencyControl#validate}: null if the attempt may prepare here, else why not. */
    String validate(TxnRecord record) {
        return record.snapshot ? snapshots.validate(record) : control.validate(record);
    }

    /** The attempt's writes are being installed here. */
    void installed(TxnRecord record) {
        control.installed(record);
        snapshots.installed(record);
    }

    /** Time passed (see {@link ConcurrencyControl#tick}). */
    void tick() {
        control.tick();
        snapshots.tick();
    }

    /** Whether {@link #tick} has anything to do: a lock phase to age or a snapshot check to repeat. */
    boolean needsTicks() {
        return control.needsTicks() || snapshots.needsTicks();
    }

    /** Takes {@code lock} for an attempt restored from storage, before any attempt of this run runs. */
    void retake(TxnRecord record, LockId lock) {
        control.retake(record, lock);
    }

    /** The attempts holding a lock that conflicts with {@code lock} (for a whole lock: any lock of its variable). */
    List<TxnRecord> holders(LockId lock) {
        return control.holders(lock);
    }

    void releaseLocks(TxnRecord record) {
        control.release(record);
        snapshots.release(record);
    }

    /** Withdraws the attempt's lock requests, granting what they held up. */
    void cancelWaits(TxnRecord record) {
        control.cancelWaits(record);
        snapshots.cancelWaits(record);
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
        control.priorityRaised(record);
    }

    int busyVariables() {
        return control.busyVariables();
    }

    int waitingRequests() {
        return control.waitingRequests() + snapshots.waitingReads();
    }

    String describeLocks() {
        return control.describeLocks() + snapshots.describe();
    }
}
