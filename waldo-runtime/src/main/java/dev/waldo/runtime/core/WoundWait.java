package dev.waldo.runtime.core;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Pessimistic concurrency control, the default: an attempt locks what it uses
 * before using it (in Claret's abstract modes, {@link LockMode}) and keeps its
 * locks until it ends here (strict two-phase locking). A request that
 * conflicts waits, after wounding every holder it outranks (wound-wait, paper
 * §4.3, with the priorities {@link Primaries} gives). A prepared attempt
 * cannot be wounded, so validation has nothing left to check.
 */
final class WoundWait implements ConcurrencyControl {
    private final CoreState state;
    private final LockTable locks = new LockTable(true);
    private final Consumer<TxnRecord> wound;

    /** @param wound wounds an active attempt that a request outranks (see {@link Locking#markWounded}) */
    WoundWait(CoreState state, Consumer<TxnRecord> wound) {
        this.state = state;
        this.wound = wound;
    }

    @Override
    public boolean access(TxnRecord record, LockId lock) {
        if (accessWithoutWaiting(record, lock)) {
            return true;
        }
        // An upgrade (say READ to WRITE) waits like any request: wound-wait decides between upgraders.
        locks.enqueue(record, lock);
        woundBlockers(record, lock);
        return false;
    }

    @Override
    public boolean accessWithoutWaiting(TxnRecord record, LockId lock) {
        return holdsCovering(record, lock) || locks.tryHold(record, lock);
    }

    static boolean holdsCovering(TxnRecord record, LockId lock) {
        for (LockId covering : lock.coveredBy()) {
            if (record.held.contains(covering)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String validate(TxnRecord record) {
        return null; // it holds every lock it used, and held them since it used them
    }

    @Override
    public void installed(TxnRecord record) {
        // The locks keep readers out until release: nothing to remember.
    }

    @Override
    public boolean needsTicks() {
        return locks.hasPhases();
    }

    /** Time passed: waiters that a phase of commuting holders overtook long enough wound those they outrank. */
    @Override
    public void tick() {
        for (Map.Entry<TxnRecord, LockId> overdue : locks.agePhases()) {
            woundBlockers(overdue.getKey(), overdue.getValue());
        }
    }

    @Override
    public void retake(TxnRecord record, LockId lock) {
        locks.hold(record, lock);
    }

    /** Wound-wait: every holder of a conflicting lock that {@code record} outranks is wounded. */
    private void woundBlockers(TxnRecord record, LockId lock) {
        for (TxnRecord holder : locks.blockers(record, lock)) {
            if (record.priority.beats(holder.priority) && holder.woundable()) {
                wound.accept(holder);
            }
        }
    }

    @Override
    public List<TxnRecord> holders(LockId lock) {
        return locks.blockers(null, lock);
    }

    @Override
    public void release(TxnRecord record) {
        for (Object variable : locks.releaseAll(record)) {
            grant(variable);
        }
    }

    @Override
    public void cancelWaits(TxnRecord record) {
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
     * The attempt now outranks more: it wounds the holders it outranks, and its requests are
     * looked at again, since a waiter that outranked it held them back and may no longer. Else a
     * primary that waits to upgrade its own READ behind older waiters (which wait for that READ
     * and cannot wound a primary) would wait for ever.
     */
    @Override
    public void priorityRaised(TxnRecord record) {
        for (LockId lock : List.copyOf(record.waiting)) {
            woundBlockers(record, lock);
            grant(locks.variableOf(lock));
        }
    }

    @Override
    public int busyVariables() {
        return locks.busyVariables();
    }

    @Override
    public int waitingRequests() {
        return locks.waitingRequests();
    }

    @Override
    public String describeLocks() {
        return locks.describe();
    }
}
