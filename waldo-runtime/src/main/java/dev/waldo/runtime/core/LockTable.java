package dev.waldo.runtime.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The locks of one host: who holds what and who waits, per variable. It only
 * keeps the books; {@link HostCore} decides who is wounded.
 */
final class LockTable {
    private record VarKey(long object, String variable) {
        static VarKey of(LockId lock) {
            return new VarKey(lock.object(), lock.variable());
        }
    }

    private record Waiter(TxnRecord txn, LockId lock) {
    }

    private static final class VarLocks {
        final Map<LockId, TxnRecord> holders = new LinkedHashMap<>();
        final List<Waiter> waiting = new ArrayList<>();
    }

    private final Map<VarKey, VarLocks> vars = new HashMap<>();

    /** The holders other than {@code txn} of locks that conflict with {@code lock}. */
    List<TxnRecord> blockers(TxnRecord txn, LockId lock) {
        VarLocks locks = vars.get(VarKey.of(lock));
        List<TxnRecord> blockers = new ArrayList<>();
        if (locks == null) {
            return blockers;
        }
        for (Map.Entry<LockId, TxnRecord> held : locks.holders.entrySet()) {
            if (held.getValue() != txn && held.getKey().conflictsWith(lock) && !blockers.contains(held.getValue())) {
                blockers.add(held.getValue());
            }
        }
        return blockers;
    }

    /**
     * True if {@code txn} may take {@code lock} now: nobody else holds a
     * conflicting lock, and no waiter that outranks {@code txn} wants a
     * conflicting one (so that a stream of newcomers cannot starve it).
     */
    boolean grantable(TxnRecord txn, LockId lock) {
        if (!blockers(txn, lock).isEmpty()) {
            return false;
        }
        VarLocks locks = vars.get(VarKey.of(lock));
        if (locks == null) {
            return true;
        }
        for (Waiter waiter : locks.waiting) {
            if (waiter.txn != txn && waiter.lock.conflictsWith(lock) && waiter.txn.priority.beats(txn.priority)) {
                return false;
            }
        }
        return true;
    }

    void hold(TxnRecord txn, LockId lock) {
        vars.computeIfAbsent(VarKey.of(lock), k -> new VarLocks()).holders.put(lock, txn);
        txn.held.add(lock);
    }

    void enqueue(TxnRecord txn, LockId lock) {
        vars.computeIfAbsent(VarKey.of(lock), k -> new VarLocks()).waiting.add(new Waiter(txn, lock));
        txn.waiting.add(lock);
    }

    /** Drops every lock {@code txn} holds and every request it waits on; returns the variables touched. */
    Set<Object> releaseAll(TxnRecord txn) {
        Set<Object> touched = new java.util.HashSet<>();
        for (LockId lock : txn.held) {
            VarLocks locks = vars.get(VarKey.of(lock));
            if (locks != null && locks.holders.remove(lock, txn)) {
                touched.add(VarKey.of(lock));
            }
        }
        txn.held.clear();
        touched.addAll(cancelWaits(txn));
        return touched;
    }

    /** Drops the requests {@code txn} waits on; returns the variables touched. */
    Set<Object> cancelWaits(TxnRecord txn) {
        Set<Object> touched = new java.util.HashSet<>();
        for (LockId lock : txn.waiting) {
            VarLocks locks = vars.get(VarKey.of(lock));
            if (locks != null) {
                locks.waiting.removeIf(w -> w.txn == txn);
                touched.add(VarKey.of(lock));
            }
        }
        txn.waiting.clear();
        return touched;
    }

    /**
     * Grants, in priority order, the waiting requests on {@code variable} that
     * can be granted now, and returns them as (transaction, lock) pairs.
     */
    List<Map.Entry<TxnRecord, LockId>> grantWaiters(Object variable) {
        VarLocks locks = vars.get((VarKey) variable);
        List<Map.Entry<TxnRecord, LockId>> granted = new ArrayList<>();
        if (locks == null) {
            return granted;
        }
        List<Waiter> byRank = new ArrayList<>(locks.waiting);
        byRank.sort(LockTable::compareRank);
        for (Waiter waiter : byRank) {
            if (grantable(waiter.txn, waiter.lock)) {
                locks.waiting.remove(waiter);
                waiter.txn.waiting.remove(waiter.lock);
                hold(waiter.txn, waiter.lock);
                granted.add(Map.entry(waiter.txn, waiter.lock));
            }
        }
        if (locks.holders.isEmpty() && locks.waiting.isEmpty()) {
            vars.remove((VarKey) variable);
        }
        return granted;
    }

    private static int compareRank(Waiter a, Waiter b) {
        if (a.txn.priority.beats(b.txn.priority)) {
            return -1;
        }
        return b.txn.priority.beats(a.txn.priority) ? 1 : 0;
    }

    /** Number of variables with holders or waiters, for tests that check everything was released. */
    int busyVariables() {
        return vars.size();
    }

    /** Number of lock requests waiting, for tests that wait until a conflict is set up. */
    int waitingRequests() {
        int waiting = 0;
        for (VarLocks locks : vars.values()) {
            waiting += locks.waiting.size();
        }
        return waiting;
    }

    /** Every lock currently held, for tests. */
    Set<LockId> heldLocks() {
        Set<LockId> all = new TreeSet<>(java.util.Comparator.comparing(LockId::toString));
        for (VarLocks locks : vars.values()) {
            all.addAll(locks.holders.keySet());
        }
        return all;
    }
}
