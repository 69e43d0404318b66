package dev.waldo.runtime.core;

import java.util.List;

/**
 * How one host keeps concurrent attempts on its variables apart, chosen per
 * host: {@link WoundWait} (locks held while the body runs, wound-wait between
 * conflicting attempts, primaries; the default) or {@link Optimistic}
 * (Tribune's OCC: run without locks, validate at prepare; a root refused
 * there repeatedly takes its validation locks as it goes instead).
 *
 * <p>{@link Locking} owns the rest of an attempt's scheduling life (wounds,
 * promotion) and calls this at four points: when the body uses a piece of
 * state ({@link #access}), when the attempt is about to prepare here, before
 * its bindings do ({@link #validate}), when the attempt's writes are installed
 * ({@link #installed}), and when the attempt is over here ({@link #release}).
 * Whatever a policy holds is recorded in the attempt's {@code held} locks, so
 * that a prepared attempt logs them and {@link #holders} finds the undecided
 * writers that reads outside transactions wait for.
 */
interface ConcurrencyControl {
    /**
     * An active attempt asks to use {@code lock}'s piece of state in its mode. Returns true if
     * the body may go on now; otherwise a {@link Decision.Granted} or {@link Decision.Wounded}
     * follows.
     */
    boolean access(TxnRecord record, LockId lock);

    /** Like {@link #access}, but returns false, queueing and wounding nothing, if it would wait. */
    boolean accessWithoutWaiting(TxnRecord record, LockId lock);

    /**
     * The attempt is about to prepare here (before its bindings do): may it commit, as far as
     * this host's variables go?
     * Returns null if so (what it takes stays held until {@link #release}), else why not, having
     * taken nothing.
     */
    String validate(TxnRecord record);

    /** The attempt commits here: its writes become the committed values now. */
    void installed(TxnRecord record);

    /** The attempt is over here: drop what it holds and waits for; grants it held up follow. */
    void release(TxnRecord record);

    /** Withdraws the attempt's waiting requests (it was wounded); grants they held up follow. */
    void cancelWaits(TxnRecord record);

    /** Holds {@code lock} for an attempt restored in doubt, before any attempt of this run runs. */
    void retake(TxnRecord record, LockId lock);

    /** The attempts holding something that conflicts with {@code lock}. */
    List<TxnRecord> holders(LockId lock);

    /** Time passed. */
    void tick();

    /** Whether {@link #tick} could do anything now (false lets an idle host skip its ticks). */
    boolean needsTicks();

    /** The attempt's priority rose (it became a primary): it may now outrank what blocks it. */
    void priorityRaised(TxnRecord record);

    /** Number of variables with holders or waiters, for tests that check everything was released. */
    int busyVariables();

    /** Number of requests waiting, for tests that wait until a conflict is set up. */
    int waitingRequests();

    /** Who holds and who waits for each busy variable, one line per variable (see {@code LockTable#describe}). */
    String describeLocks();
}
