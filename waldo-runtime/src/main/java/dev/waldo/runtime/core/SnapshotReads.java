package dev.waldo.runtime.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Read-only attempts that read a snapshot instead of locking (Walter's snapshot reads), on one
 * host, whatever its concurrency control. Such an attempt ({@link TxnRecord#snapshot}) takes no
 * lock here: it never waits for a writer that is still running or preparing, and never wounds
 * one. It reads the committed value, noting the install stamp it saw; validated when it is asked
 * to prepare here, it votes no (and its root retries it) if anything it read was installed over
 * since, or is held by a writer that voted yes since.
 *
 * <p><b>Why it is strictly serializable.</b> A read waits only for the writers that voted yes
 * here and are undecided: one of them may already be committed at its coordinator, its caller
 * returned, before this read began (a commit returns at the decision, before participants
 * install it), so the read must see it; a writer that has not voted yes cannot be committed yet,
 * so the read may come before it. Every read of an attempt happens before every validation of
 * it (validations run at prepare, after the body; a read on the root's host after its last call
 * carried the prepare is refused, see {@link Locking#lockWithoutWaiting}). Let t be the moment of
 * the attempt's last read. Each validation finds its reads unchanged from the read until after
 * t, and no yes-voter on them; so what the attempt read is exactly what the writers decided
 * committed by t left, and the writers decided by t are closed under every dependency (a writer
 * that depends on another takes its locks, or passes its validation, only after that one was
 * decided). The attempt serializes at t, with writers at their decisions: that order agrees
 * with real time, since t lies between the attempt's start and its end.
 *
 * <p><b>Why not multi-version timestamps.</b> A snapshot timestamp from Lamport clocks orders
 * only what is causally related: a transaction committed before a read-only one started, on
 * hosts that never exchanged a message with it, may carry a later commit timestamp, and a
 * snapshot at the earlier timestamp would miss it (Spanner closes that gap with TrueTime and
 * commit wait). Validation needs no clock, and no old versions to keep: a host keeps install
 * stamps only while a read-only attempt that read something is live here, and drops them as
 * soon as none is (the garbage collection of the version information).
 *
 * <p><b>The cost.</b> A read-only attempt fails its validation when a writer of what it read
 * voted yes or installed between its read and its prepare, and runs again (the host layer falls
 * back to locking reads after a few such refusals); a distributed one still takes a prepare
 * round (the last call carries it where it can) but logs nothing on any host.
 */
final class SnapshotReads {
    /** A deliberately broken variant, which the deterministic simulation must catch. */
    enum Fault {
        /** Correct. */
        NONE,
        /** Reads do not wait for yes-voters, and validation ignores them: a committed, uninstalled write is missed. */
        IGNORES_PREPARED,
        /** Validation always passes: reads on different hosts may see different moments. */
        NO_VALIDATION
    }

    private final CoreState state;
    /** The attempts holding something that conflicts with a lock, under the host's concurrency control. */
    private final Function<LockId, List<TxnRecord>> holders;
    /** Which piece each install changed, kept while some read-only attempt has read something here. */
    private final InstallStamps stamps = new InstallStamps();
    /** Per live read-only attempt, what it read here and the install stamp when it did. */
    private final Map<TxnId, Map<LockId, Long>> footprints = new HashMap<>();
    /** Reads waiting for yes-voters to end here, per attempt (several threads of one attempt may wait). */
    private final Map<TxnRecord, Set<LockId>> waiting = new LinkedHashMap<>();
    Fault fault = Fault.NONE;

    SnapshotReads(CoreState state, Function<LockId, List<TxnRecord>> holders) {
        this.state = state;
        this.holders = holders;
    }

    /**
     * A read-only attempt reads {@code lock}'s piece of state. Returns true if it may read the
     * committed value now; otherwise it waits until every attempt that voted yes on it here ended
     * here (a {@link Decision.Granted} follows).
     *
     * @throws IllegalArgumentException if the lock is not a READ: a read-only attempt writes nothing
     */
    boolean read(TxnRecord record, LockId lock) {
        if (lock.mode() != LockMode.READ) {
            throw new IllegalArgumentException("read-only attempt " + record.id + " asked for "
                    + InstallStamps.describe(lock) + " in mode " + lock.mode() + ": it may only read");
        }
        if (!committing(lock).isEmpty()) {
            waiting.computeIfAbsent(record, r -> new LinkedHashSet<>()).add(lock);
            return false;
        }
        noteRead(record, lock);
        return true;
    }

    /** The attempt reads the committed value of {@code lock}'s piece now: its validation checks it from here on. */
    private void noteRead(TxnRecord record, LockId lock) {
        footprints.computeIfAbsent(record.id, id -> new LinkedHashMap<>()).putIfAbsent(lock, stamps.now());
    }

    /**
     * The attempts here that voted yes and hold something conflicting with {@code lock}, still
     * undecided here (in doubt included: a locking read would wait for them too).
     */
    private List<TxnRecord> committing(LockId lock) {
        List<TxnRecord> writers = new ArrayList<>();
        if (fault == Fault.IGNORES_PREPARED) {
            return writers;
        }
        for (TxnRecord holder : holders.apply(lock)) {
            if (holder.state == TxnRecord.State.PREPARED && holder.localVote == Message.Verdict.YES
                    && state.txns.get(holder.id) == holder) {
                writers.add(holder);
            }
        }
        return writers;
    }

    /**
     * Null if nothing the attempt read here was installed over since it read it, nor is held by
     * a writer that voted yes since; else why not. Either way the attempt reads nothing more
     * here, so its footprint goes.
     */
    String validate(TxnRecord record) {
        Map<LockId, Long> read = footprints.getOrDefault(record.id, Map.of());
        String refusal = fault == Fault.NO_VALIDATION ? null : check(record, read);
        footprints.remove(record.id);
        forgetIfIdle();
        return refusal;
    }

    private String check(TxnRecord record, Map<LockId, Long> read) {
        for (Map.Entry<LockId, Long> use : read.entrySet()) {
            String change = stamps.changeSince(use.getKey(), use.getValue());
            if (change != null) {
                return "snapshot validation failed: " + InstallStamps.describe(use.getKey()) + change
                        + " by a transaction that committed after read-only attempt " + record.id + " read it";
            }
        }
        for (LockId lock : read.keySet()) {
            List<TxnRecord> writers = committing(lock);
            if (!writers.isEmpty()) {
                return "snapshot validation failed: " + InstallStamps.describe(lock) + " is being committed by"
                        + " attempt " + writers.getFirst().id + ", which voted after read-only attempt " + record.id
                        + " read it";
            }
        }
        return null;
    }

    /** An attempt's writes are installed here: stamped, if a read-only attempt may have read them before. */
    void installed(TxnRecord record) {
        if (!footprints.isEmpty()) {
            stamps.installed(record);
        }
    }

    /** The attempt is over here: its footprint and waits go, and reads that waited for it may go on. */
    void release(TxnRecord record) {
        footprints.remove(record.id);
        waiting.remove(record);
        forgetIfIdle();
        grantWaiters();
    }

    /** The attempt was wounded: its reads stop waiting. */
    void cancelWaits(TxnRecord record) {
        waiting.remove(record);
    }

    /** Lets every waiting read that no yes-voter holds up any more read now. */
    private void grantWaiters() {
        for (Map.Entry<TxnRecord, Set<LockId>> reader : List.copyOf(waiting.entrySet())) {
            TxnRecord record = reader.getKey();
            for (LockId lock : List.copyOf(reader.getValue())) {
                if (committing(lock).isEmpty()) {
                    reader.getValue().remove(lock);
                    noteRead(record, lock);
                    state.decide(new Decision.Granted(record.id, lock));
                }
            }
            if (reader.getValue().isEmpty()) {
                waiting.remove(record);
            }
        }
    }

    /** Stamps matter only to a live read-only attempt's footprint: with none, they are garbage. */
    private void forgetIfIdle() {
        if (footprints.isEmpty()) {
            stamps.forget();
        }
    }

    /** Number of reads waiting for yes-voters to end. */
    int waitingReads() {
        int reads = 0;
        for (Set<LockId> locks : waiting.values()) {
            reads += locks.size();
        }
        return reads;
    }

    /** The waiting reads, one line each, for {@link HostCore#describeLocks}. */
    String describe() {
        StringBuilder report = new StringBuilder();
        waiting.forEach((reader, locks) -> locks.forEach(lock -> report.append(lock.object()).append('.')
                .append(lock.variable()).append(lock.isWhole() ? "" : "[" + lock.key() + "]")
                .append(": snapshot read waiting ").append(reader.id).append('\n')));
        return report.toString();
    }
}
