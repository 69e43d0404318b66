package dev.waldo.runtime.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The locks of one host: who holds what in which {@link LockMode} and who
 * waits, per variable. It only keeps the books; {@link Locking} decides who
 * is wounded.
 *
 * <p><b>Phasing</b> (Claret): a request in a shared or commuting mode that
 * conflicts with no holder is normally still held back by a conflicting
 * waiter that outranks it, so that a stream of newcomers cannot starve that
 * waiter. While a phase of that mode is running (someone holds the variable
 * in it), up to {@link #PHASE_CAP} such requests are admitted ahead of the
 * waiter, together with the phase; the next ones queue behind it. The phase
 * ends when the variable has no holders. The waiters a phase overtook wound
 * its holders they outrank once the phase is {@link #PHASE_TICKS} ticks old
 * ({@link #agePhases}), so the phase's length is capped in time too, and a
 * phase holder that comes to wait for an overtaken waiter elsewhere cannot
 * deadlock with it.
 */
final class LockTable {
    /** How many requests one phase admits ahead of conflicting waiters that outrank them. */
    static final int PHASE_CAP = 64;
    /** How many ticks a phase that overtook a waiter may run before that waiter wounds it. */
    static final int PHASE_TICKS = 2;

    private record VarKey(long object, String variable) {
        static VarKey of(LockId lock) {
            return new VarKey(lock.object(), lock.variable());
        }
    }

    private record Waiter(TxnRecord txn, LockId lock) {
    }

    private static final class VarLocks {
        final Map<LockId, Set<TxnRecord>> holders = new LinkedHashMap<>();
        /**
         * The held locks by the key they name (null: the whole variable), so that a key lock looks
         * only at its own key and the whole-variable locks: scanning every held lock made a
         * transaction that puts n keys of one map cost n²/2 checks (a switch service's restore puts
         * a key per VLAN and port, and a 1,000-switch site agent spent its start in that scan).
         */
        final Map<Object, Set<LockId>> byKey = new HashMap<>();

        void held(LockId lock) {
            byKey.computeIfAbsent(lock.key(), k -> new LinkedHashSet<>()).add(lock);
        }

        void released(LockId lock) {
            Set<LockId> same = byKey.get(lock.key());
            if (same != null && same.remove(lock) && same.isEmpty()) {
                byKey.remove(lock.key());
            }
        }

        final List<Waiter> waiting = new ArrayList<>();
        /** Requests the running phase admitted ahead of an outranking waiter. */
        int overtakes;
        /** Ticks since the running phase first overtook a waiter. */
        int phaseAge;

        boolean idle() {
            return holders.isEmpty() && waiting.isEmpty();
        }
    }

    private final Map<VarKey, VarLocks> vars = new HashMap<>();
    /**
     * The variables whose running phase overtook a waiter: the only ones {@link #agePhases} has
     * to look at. Every host ticks 20 times a second, and walking every busy variable on each
     * tick was 8% of a 1,000-switch site agent's CPU during an apply.
     */
    private final Set<VarLocks> phased = new LinkedHashSet<>(); // in insertion order: simulations replay by seed
    private final boolean phasing;

    /** A table that runs phases of commuting requests, or with {@code phasing} false one that never does. */
    LockTable(boolean phasing) {
        this.phasing = phasing;
    }

    /** The holders other than {@code txn} of locks that conflict with {@code lock}. */
    List<TxnRecord> blockers(TxnRecord txn, LockId lock) {
        VarLocks locks = vars.get(VarKey.of(lock));
        List<TxnRecord> blockers = new ArrayList<>();
        if (locks == null) {
            return blockers;
        }
        if (lock.isWhole()) {
            addConflicting(locks, locks.holders.keySet(), txn, lock, blockers);
        } else {
            // Only the same key and the whole variable overlap a key lock (see LockId.overlaps).
            addConflicting(locks, locks.byKey.getOrDefault(lock.key(), Set.of()), txn, lock, blockers);
            addConflicting(locks, locks.byKey.getOrDefault(null, Set.of()), txn, lock, blockers);
        }
        return blockers;
    }

    /** Adds to {@code blockers} the holders other than {@code txn} of those of {@code held} that conflict with {@code lock}. */
    private static void addConflicting(VarLocks locks, Set<LockId> held, TxnRecord txn, LockId lock,
                                       List<TxnRecord> blockers) {
        for (LockId one : held) {
            if (one.conflictsWith(lock)) {
                for (TxnRecord holder : locks.holders.get(one)) {
                    if (holder != txn && !blockers.contains(holder)) {
                        blockers.add(holder);
                    }
                }
            }
        }
    }

    /**
     * True if {@code txn} may take {@code lock} now: nobody else holds a
     * conflicting lock, and no waiter that outranks {@code txn} wants a
     * conflicting one (so that a stream of newcomers cannot starve it) unless
     * a running phase of {@code lock}'s mode admits it (see the class comment).
     * A granted request that overtook a waiter counts against the phase's cap.
     */
    private boolean admit(TxnRecord txn, LockId lock) {
        if (!blockers(txn, lock).isEmpty()) {
            return false;
        }
        VarLocks locks = vars.get(VarKey.of(lock));
        if (locks == null || !outrankedByWaiter(locks, txn, lock)) {
            return true;
        }
        if (phasing && lock.mode() != LockMode.WRITE && locks.overtakes < PHASE_CAP && phaseRunning(locks, lock)) {
            locks.overtakes++;
            phased.add(locks);
            return true;
        }
        return false;
    }

    private static boolean outrankedByWaiter(VarLocks locks, TxnRecord txn, LockId lock) {
        for (Waiter waiter : locks.waiting) {
            if (waiter.txn != txn && waiter.lock.conflictsWith(lock) && waiter.txn.priority.beats(txn.priority)) {
                return true;
            }
        }
        return false;
    }

    /** True if someone holds {@code lock}'s piece of state in {@code lock}'s mode: a phase to join. */
    private static boolean phaseRunning(VarLocks locks, LockId lock) {
        for (Map.Entry<LockId, Set<TxnRecord>> held : locks.holders.entrySet()) {
            if (held.getKey().mode() == lock.mode() && held.getKey().overlaps(lock) && !held.getValue().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Takes {@code lock} for {@code txn} if it can be granted now (see {@link #admit}); true if it was. */
    boolean tryHold(TxnRecord txn, LockId lock) {
        if (!admit(txn, lock)) {
            return false;
        }
        hold(txn, lock);
        return true;
    }

    void hold(TxnRecord txn, LockId lock) {
        VarLocks locks = vars.computeIfAbsent(VarKey.of(lock), k -> new VarLocks());
        locks.holders.computeIfAbsent(lock, l -> {
            locks.held(l);
            return new LinkedHashSet<>();
        }).add(txn);
        txn.held.add(lock);
    }

    void enqueue(TxnRecord txn, LockId lock) {
        vars.computeIfAbsent(VarKey.of(lock), k -> new VarLocks()).waiting.add(new Waiter(txn, lock));
        txn.waiting.add(lock);
    }

    /**
     * Drops every lock {@code txn} holds and every request it waits on; returns the variables
     * touched. Every attempt ends here, most holding a lock or two and waiting on none, so nothing
     * is allocated for what it does not have.
     */
    Set<Object> releaseAll(TxnRecord txn) {
        if (txn.held.isEmpty()) {
            return cancelWaits(txn);
        }
        Set<Object> touched = new HashSet<>();
        for (LockId lock : txn.held) {
            VarLocks locks = vars.get(VarKey.of(lock));
            Set<TxnRecord> holders = locks == null ? null : locks.holders.get(lock);
            if (holders != null && holders.remove(txn)) {
                if (holders.isEmpty()) {
                    locks.holders.remove(lock);
                    locks.released(lock);
                }
                touched.add(VarKey.of(lock));
            }
        }
        txn.held.clear();
        if (!txn.waiting.isEmpty()) {
            touched.addAll(cancelWaits(txn));
        }
        return touched;
    }

    /** Drops the requests {@code txn} waits on; returns the variables touched. */
    Set<Object> cancelWaits(TxnRecord txn) {
        if (txn.waiting.isEmpty()) {
            return Set.of();
        }
        Set<Object> touched = new HashSet<>();
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

    /** The variable {@code lock} names, as {@link #grantWaiters} takes it. */
    Object variableOf(LockId lock) {
        return VarKey.of(lock);
    }

    /**
     * Grants, in priority order, the waiting requests on {@code variable} that
     * can be granted now, and returns them as (transaction, lock) pairs. A
     * variable left with no holder ends its phase first, so the waiter at the
     * head starts the next one.
     */
    List<Map.Entry<TxnRecord, LockId>> grantWaiters(Object variable) {
        VarLocks locks = vars.get((VarKey) variable);
        List<Map.Entry<TxnRecord, LockId>> granted = new ArrayList<>();
        if (locks == null) {
            return granted;
        }
        if (locks.holders.isEmpty()) {
            locks.overtakes = 0;
            locks.phaseAge = 0;
            phased.remove(locks);
        }
        List<Waiter> byRank = new ArrayList<>(locks.waiting);
        byRank.sort(LockTable::compareRank);
        for (Waiter waiter : byRank) {
            if (admit(waiter.txn, waiter.lock)) {
                locks.waiting.remove(waiter);
                waiter.txn.waiting.remove(waiter.lock);
                hold(waiter.txn, waiter.lock);
                granted.add(Map.entry(waiter.txn, waiter.lock));
            }
        }
        if (locks.idle()) {
            vars.remove((VarKey) variable);
            phased.remove(locks);
        }
        return granted;
    }

    /** Whether a phase overtook a waiter somewhere: the only case {@link #agePhases} has work. */
    boolean hasPhases() {
        return !phased.isEmpty();
    }

    /**
     * Time passed: every phase that overtook a waiter grows a tick older.
     * Returns the waiters of phases that reached {@link #PHASE_TICKS}, as
     * (transaction, lock) pairs: they may now wound the holders they outrank.
     * Such a phase admits no one else ahead of its waiters.
     */
    List<Map.Entry<TxnRecord, LockId>> agePhases() {
        List<Map.Entry<TxnRecord, LockId>> overdue = new ArrayList<>();
        for (VarLocks locks : phased) {
            if (locks.waiting.isEmpty()) {
                continue;
            }
            if (++locks.phaseAge >= PHASE_TICKS) {
                locks.overtakes = PHASE_CAP;
                for (Waiter waiter : locks.waiting) {
                    overdue.add(Map.entry(waiter.txn, waiter.lock));
                }
            }
        }
        return overdue;
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

    /**
     * One line per busy variable: its holders (attempt, state, mode) and its waiters in
     * arrival order, with the phase's counters; for diagnosing a wait that does not end.
     */
    String describe() {
        StringBuilder report = new StringBuilder();
        vars.forEach((key, locks) -> {
            report.append(key.object()).append('.').append(key.variable()).append(": held");
            locks.holders.forEach((lock, holders) -> holders.forEach(holder -> report.append(' ')
                    .append(holder.id).append('/').append(holder.state).append('/').append(lock.mode())));
            report.append("; waiting");
            locks.waiting.forEach(waiter -> report.append(' ').append(waiter.txn.id).append('/')
                    .append(waiter.txn.state).append('/').append(waiter.lock.mode()));
            report.append("; overtakes ").append(locks.overtakes).append(", phase age ").append(locks.phaseAge)
                    .append('\n');
        });
        return report.toString();
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
