package dev.waldo.runtime.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Read-only attempts that read a snapshot instead of locking (Walter's snapshot reads), on one
 * host, whatever its concurrency control. Such an attempt ({@link TxnRecord#snapshot}) takes no
 * lock here, so it never waits for a writer that is running or preparing (a slow device push) and
 * never wounds one. It reads the committed value, noting the install stamp it saw. When it is
 * asked to prepare here it is validated: nothing it read may have been installed over since, and
 * every writer that voted yes on what it read and is undecided here must be undecided at its
 * coordinator too, which this host asks (one round trip per such writer's coordinator, before the
 * vote goes); otherwise the attempt votes WOUNDED and its root runs it again.
 *
 * <p><b>Why it is strictly serializable.</b> Every read of the attempt happens before every
 * validation of it (validations run at prepare, after the body; a read on the root's host after
 * its last call carried the prepare is refused, see {@link Locking#lockWithoutWaiting}). Let t be
 * the moment of its last read. Each host's validation finds its reads not installed over from
 * the read until after t; and a writer that voted yes on them is either answered undecided by
 * its coordinator after t, so it is decided after t, or it was backed out. So what the attempt read
 * is exactly what the writers decided (committed at their coordinators) by t left; and the writers
 * decided by t are closed under every dependency, since a writer that depends on another takes its
 * locks, or passes its validation, only after that one was decided. The attempt serializes at t,
 * writers at their decisions: that order agrees with real time, since t lies between the attempt's
 * start and its end. In particular a writer committed at its coordinator before the attempt began
 * (its caller returned) but not yet installed here is answered committed: the attempt is refused,
 * and its next attempt's read of what that writer holds waits for the install ({@link
 * #knownCommitted}).
 *
 * <p><b>Why not multi-version timestamps.</b> A snapshot timestamp from Lamport clocks orders only
 * what is causally related: a transaction committed before a read-only one started, on hosts that
 * never exchanged a message with it, may carry a later commit timestamp, so a snapshot at the
 * earlier timestamp would miss it (Spanner closes that gap with TrueTime and commit wait), and it
 * would wait for every writer prepared before it, a slow one included. Validation needs no clock
 * and no old versions: a host keeps install stamps only while a read-only attempt that read
 * something is live here, and drops them as soon as none is (the garbage collection of the
 * version information).
 *
 * <p><b>The cost.</b> A read-only attempt is refused when a writer installed over what it read
 * between its read and its prepare, or turns out to have committed already; a distributed one
 * still takes a prepare round (the last call carries it where it can), plus a round trip to the
 * coordinator of any writer that voted yes on what it read, but logs nothing on any host.
 */
final class SnapshotReads {
    /** A deliberately broken variant, which the deterministic simulation must catch. */
    enum Fault {
        /** Correct. */
        NONE,
        /** Writers that voted yes are ignored: neither checked at validation nor waited for once known committed. */
        IGNORES_PREPARED,
        /** Validation always passes: reads on different hosts may see different moments. */
        NO_VALIDATION
    }

    /**
     * A read-only attempt validated here whose vote waits until the coordinator of each writer
     * that voted yes on what it read answered whether that writer is decided.
     */
    private static final class Check {
        final TxnRecord reader;
        /** The writers not answered for yet. */
        final Set<TxnId> unanswered = new LinkedHashSet<>();
        /** Why the attempt is refused, once known; null while it may still pass. */
        String refusal;
        /** The host layer voted (yes): the vote goes once the check ends. */
        boolean voted;
        int ticksSinceQuery;
        /**
         * The number of this check's first query: an UNDECIDED answer to an earlier query (another
         * check's, or one sent before this attempt's last read), which reordering may deliver now,
         * says nothing of the writer after the reads, so only answers to this check's queries count.
         */
        long firstQuery;

        Check(TxnRecord reader) {
            this.reader = reader;
        }
    }

    private final CoreState state;
    /** The attempts holding something that conflicts with a lock, under the host's concurrency control. */
    private final Function<LockId, List<TxnRecord>> holders;
    private Participant participant;
    /** Which piece each install changed, kept while some read-only attempt has read something here. */
    private final InstallStamps stamps = new InstallStamps();
    /** Per live read-only attempt, what it read here and the install stamp when it did. */
    private final Map<TxnId, Map<LockId, Long>> footprints = new HashMap<>();
    /** Reads waiting for writers to end here (see {@link #blockingWriter}), per attempt (several threads of one may wait). */
    private final Map<TxnRecord, Set<LockId>> waiting = new LinkedHashMap<>();
    /**
     * Writers that voted yes here and whose coordinator answered that they committed: their install
     * here is on its way, and a read of what they hold waits for it rather than be refused again.
     */
    private final Set<TxnId> knownCommitted = new HashSet<>();
    /** Validations waiting for writers' coordinators, by read-only attempt. */
    private final Map<TxnId, Check> checks = new LinkedHashMap<>();
    /**
     * The number of the last query sent ({@link Message.Query#asked}); a run starts above the
     * serials of earlier runs, so an answer to an earlier run's query counts for no check of this one.
     */
    private long queries;
    Fault fault = Fault.NONE;

    SnapshotReads(CoreState state, Function<LockId, List<TxnRecord>> holders) {
        this.state = state;
        this.holders = holders;
        this.queries = state.serialBase;
    }

    void wire(Participant participant) {
        this.participant = participant;
    }

    /**
     * A read-only attempt reads {@code lock}'s piece of state. Returns true if it may read the
     * committed value now: unless a writer that voted yes on it here cannot be asked about (see
     * {@link #blockingWriter}); then it waits until that writer ended here (a {@link
     * Decision.Granted} follows), as a locking read would.
     *
     * @throws IllegalArgumentException if the lock is not a READ: a read-only attempt writes nothing
     */
    boolean read(TxnRecord record, LockId lock) {
        if (lock.mode() != LockMode.READ) {
            throw new IllegalArgumentException("read-only attempt " + record.id + " asked for "
                    + InstallStamps.describe(lock) + " in mode " + lock.mode() + ": it may only read");
        }
        if (blockingWriter(lock) != null) {
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
     * A writer that voted yes here on something conflicting with {@code lock} and that a read must
     * wait for, or null: one whose coordinator answered that it committed (its install is on its way),
     * or one whose coordinator is lost (in doubt here, or unreachable), which no one can ask whether
     * it is decided. Any other such writer is read around, and its coordinator asked at validation.
     */
    private TxnRecord blockingWriter(LockId lock) {
        for (TxnRecord writer : undecidedWriters(lock)) {
            if (knownCommitted.contains(writer.id) || writer.inDoubt || state.down.contains(writer.id.host())) {
                return writer;
            }
        }
        return null;
    }

    /** The attempts that voted yes here on something conflicting with {@code lock} and are undecided here. */
    private List<TxnRecord> undecidedWriters(LockId lock) {
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
     * Validates a read-only attempt about to prepare here. Returns why it is refused, or null; with
     * null, its vote may still wait ({@link #holdsVote}) until the coordinators of the writers that
     * voted yes on what it read answered (the queries leave now).
     */
    String validate(TxnRecord record) {
        Map<LockId, Long> read = footprints.getOrDefault(record.id, Map.of());
        if (fault == Fault.NO_VALIDATION) {
            dropFootprint(record.id);
            return null;
        }
        String refusal = installedOver(record, read);
        Set<TxnRecord> writers = new LinkedHashSet<>();
        read.keySet().forEach(lock -> writers.addAll(undecidedWriters(lock)));
        for (TxnRecord writer : writers) {
            refusal = refusal != null ? refusal : unaskable(record, writer);
        }
        if (refusal != null || writers.isEmpty()) {
            dropFootprint(record.id);
            return refusal;
        }
        Check check = new Check(record);
        writers.forEach(writer -> check.unanswered.add(writer.id));
        checks.put(record.id, check);
        query(check);
        return null;
    }

    /** Why the attempt is refused because something it read was installed over since it read it, or null. */
    private String installedOver(TxnRecord record, Map<LockId, Long> read) {
        for (Map.Entry<LockId, Long> use : read.entrySet()) {
            String change = stamps.changeSince(use.getKey(), use.getValue());
            if (change != null) {
                return "snapshot validation failed: " + InstallStamps.describe(use.getKey()) + change
                        + " by a transaction that committed after read-only attempt " + record.id + " read it";
            }
        }
        return null;
    }

    /**
     * Why a writer that voted yes on what the attempt read refuses it without asking, or null: its
     * coordinator is known to have committed it, is unreachable, or lost (in doubt here).
     */
    private String unaskable(TxnRecord record, TxnRecord writer) {
        String why = knownCommitted.contains(writer.id) ? "committed at its coordinator"
                : writer.inDoubt ? "in doubt here (its coordinator was lost)"
                : state.down.contains(writer.id.host()) ? "undecided, and its coordinator is unreachable" : null;
        return why == null ? null : "snapshot validation failed: attempt " + writer.id + ", which wrote what read-only"
                + " attempt " + record.id + " read, is " + why;
    }

    /** Asks the coordinator of each writer not answered for yet whether it decided (its root's host). */
    private void query(Check check) {
        check.ticksSinceQuery = 0;
        long asked = ++queries;
        if (check.firstQuery == 0) {
            check.firstQuery = asked;
        }
        for (TxnId writer : check.unanswered) {
            state.send(writer.host(), new Message.Query(writer, asked));
        }
    }

    /**
     * The host layer votes yes on a read-only attempt. Returns true if that vote must wait for its
     * check, and then goes (yes, or WOUNDED) once the writers' coordinators answered.
     */
    boolean holdsVote(TxnId txn) {
        Check check = checks.get(txn);
        if (check == null) {
            return false;
        }
        check.voted = true;
        finishIfAnswered(check);
        return true;
    }

    /** A coordinator answered a query: a check waiting for that writer goes on. */
    void onAnswer(int from, Message.Answer answer) {
        TxnId writer = answer.txn();
        if (answer.outcome() == Message.Outcome.COMMITTED) {
            TxnRecord record = state.txns.get(writer);
            if (record != null && record.state == TxnRecord.State.PREPARED) {
                knownCommitted.add(writer); // its install is on its way: reads wait for it from now on
            }
        }
        boolean finalOutcome = answer.outcome() != Message.Outcome.UNDECIDED;
        for (Check check : List.copyOf(checks.values())) {
            boolean forThisCheck = finalOutcome || answer.asked() >= check.firstQuery;
            if (writer.host() != from || !forThisCheck || !check.unanswered.remove(writer)) {
                continue;
            }
            TxnRecord record = state.txns.get(writer);
            String why = switch (answer.outcome()) {
                case COMMITTED -> "committed at its coordinator";
                case UNDECIDED -> record != null && record.inDoubt ? "in doubt here (its coordinator was lost)" : null;
                case BACKED_OUT -> null;
            };
            if (why != null && check.refusal == null) {
                check.refusal = "snapshot validation failed: attempt " + writer + ", which wrote what read-only attempt "
                        + check.reader.id + " read, is " + why;
            }
            finishIfAnswered(check);
        }
    }

    /**
     * Ends a check whose writers were all answered for (or that is refused already) once the host
     * layer voted: the attempt votes yes, unless something it read was installed over meanwhile.
     */
    private void finishIfAnswered(Check check) {
        if ((!check.unanswered.isEmpty() && check.refusal == null) || !check.voted) {
            return;
        }
        checks.remove(check.reader.id);
        String refusal = check.refusal != null ? check.refusal
                : installedOver(check.reader, footprints.getOrDefault(check.reader.id, Map.of()));
        dropFootprint(check.reader.id);
        if (refusal == null) {
            participant.vote(check.reader.id, Message.Verdict.YES, null, false, new byte[0]);
        } else {
            participant.vote(check.reader.id, Message.Verdict.WOUNDED, refusal + " (host " + state.host + ")", false,
                    new byte[0]);
        }
    }

    /** A writer's coordinator became unreachable: the checks waiting for it refuse their attempts. */
    void linkDown(int lost) {
        for (Check check : List.copyOf(checks.values())) {
            for (TxnId writer : List.copyOf(check.unanswered)) {
                if (writer.host() == lost) {
                    check.unanswered.remove(writer);
                    if (check.refusal == null) {
                        check.refusal = "snapshot validation failed: attempt " + writer + ", which wrote what read-only"
                                + " attempt " + check.reader.id + " read, is undecided, and its coordinator is unreachable";
                    }
                }
            }
            finishIfAnswered(check);
        }
    }

    /** Whether {@link #tick} has anything to do: a check still waiting for an answer. */
    boolean needsTicks() {
        for (Check check : checks.values()) {
            if (!check.unanswered.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Time passed: queries not answered for a while go again (a message may be lost). */
    void tick() {
        for (Check check : checks.values()) {
            if (!check.unanswered.isEmpty() && ++check.ticksSinceQuery >= state.resendTicks) {
                query(check);
            }
        }
    }

    /** An attempt's writes are installed here: stamped, if a read-only attempt may have read them before. */
    void installed(TxnRecord record) {
        if (!footprints.isEmpty()) {
            stamps.installed(record);
        }
    }

    /**
     * The attempt is over here: its footprint, waits and check go; a check waiting for it as a
     * writer needs no answer any more (had it installed, the check finds its reads installed over);
     * reads that waited for it go on.
     */
    void release(TxnRecord record) {
        dropFootprint(record.id);
        waiting.remove(record);
        checks.remove(record.id);
        knownCommitted.remove(record.id);
        for (Check check : List.copyOf(checks.values())) {
            if (check.unanswered.remove(record.id)) {
                finishIfAnswered(check);
            }
        }
        grantWaiters();
    }

    /** The attempt was wounded: its reads stop waiting. */
    void cancelWaits(TxnRecord record) {
        waiting.remove(record);
    }

    /** Lets every waiting read that no writer holds up any more (see {@link #blockingWriter}) read now. */
    private void grantWaiters() {
        for (Map.Entry<TxnRecord, Set<LockId>> reader : List.copyOf(waiting.entrySet())) {
            TxnRecord record = reader.getKey();
            for (LockId lock : List.copyOf(reader.getValue())) {
                if (blockingWriter(lock) == null) {
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

    /** Stamps matter only to a live read-only attempt's footprint: with none left, they are garbage. */
    private void dropFootprint(TxnId txn) {
        footprints.remove(txn);
        if (footprints.isEmpty()) {
            stamps.forget();
        }
    }

    /** Number of reads waiting for writers to end here. */
    int waitingReads() {
        int reads = 0;
        for (Set<LockId> locks : waiting.values()) {
            reads += locks.size();
        }
        return reads;
    }

    /** The waiting reads and checks, one line each, for {@link HostCore#describeLocks}. */
    String describe() {
        StringBuilder report = new StringBuilder();
        waiting.forEach((reader, locks) -> locks.forEach(lock -> report.append(lock.object()).append('.')
                .append(lock.variable()).append(lock.isWhole() ? "" : "[" + lock.key() + "]")
                .append(": snapshot read waiting ").append(reader.id).append('\n')));
        checks.values().forEach(check -> report.append("snapshot validation of ").append(check.reader.id)
                .append(" asking the coordinators of ").append(check.unanswered).append('\n'));
        return report.toString();
    }
}
