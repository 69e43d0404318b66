package dev.waldo.runtime.core;

import dev.waldo.runtime.core.Decision.Result;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The transaction protocol of one host as a pure state machine: the lock
 * table and wound-wait, primaries and promotion, the two-phase commit
 * coordinator for roots started here, the participant side for everything
 * else, backout, and what must be logged to survive a crash.
 *
 * <p>Inputs are method calls: {@link #step} for a received message,
 * {@link #tick} for time passing, {@link #linkDown}/{@link #linkUp} from the
 * transport, {@link #restore} with the log at start, and the local commands
 * the host layer issues while it runs transaction bodies ({@link #begin},
 * {@link #lock}, {@link #call}, ...). Outputs accumulate until {@link #drain}
 * hands them out: records to make durable, decisions to apply and messages to
 * send. The core has no threads, sockets, clocks or files and is not
 * thread-safe; the host layer serializes access.
 *
 * <p>This class only dispatches. The protocol lives in its roles, as etcd's
 * raft splits its pieces: {@link Coordinator} (roots, votes, the decision,
 * acknowledgements, re-sends), {@link Participant} (prepare, vote, commit and
 * backout here, in doubt, cooperative termination), {@link Locking} (wounds,
 * primaries, over a per-host concurrency control: the lock table with
 * wound-wait, or optimistic validation) and {@link Calls} (calls made and served).
 *
 * <p>The host layer's obligations: make every drained
 * {@link Outbox#persist() record} durable before it applies that drain's
 * decisions or sends its messages ("persist before you send"); and apply
 * every drained {@link Decision.Install} and {@link Decision.Discard} before
 * it lets any transaction body continue and issue a command. The core
 * releases a committed attempt's locks as it decides the install, so a body
 * that ran in between could read the old value. (The deterministic
 * simulation found exactly this when its bodies ran inside decision handling.)
 * An attempt whose bindings took part here ({@code finishLater} in
 * {@link #vote(TxnId, boolean, String, boolean)}) is the exception: it keeps
 * its locks until the host layer reports {@link #finished}, since until its
 * bindings committed or undid their work the outside system still holds the
 * attempt's change.
 */
public final class HostCore {
    /** How a root body ended, as the host layer reports it in {@link #finishRoot}. */
    public enum Ending {
        /** The body returned normally: commit it. */
        DONE,
        /** The body unwound because the attempt was wounded: back out and retry. */
        WOUNDED,
        /** The body called abort() or raised an uncaught error: back out everywhere, no retry. */
        FAILED
    }

    /** How many ticks an unanswered commit-phase message waits before it is sent again. */
    public static final int DEFAULT_RESEND_TICKS = 10;
    static final byte[] NO_PAYLOAD = new byte[0];

    private final CoreState state;
    private final Locking locking;
    private final Calls calls;
    private final Coordinator coordinator;
    private final Participant participant;

    /** A core for host number {@code host}, re-sending unanswered commit messages every 10 ticks. */
    public HostCore(int host) {
        this(host, DEFAULT_RESEND_TICKS);
    }

    /** A core for host number {@code host} that re-sends unanswered commit messages every {@code resendTicks} ticks. */
    public HostCore(int host, int resendTicks) {
        this(host, resendTicks, true);
    }

    /**
     * A core that schedules with primaries (paper §4.3) or, with
     * {@code primaries} false, by plain wound-wait on timestamps alone — the
     * baseline the fairness benchmark compares against.
     */
    public HostCore(int host, int resendTicks, boolean primaries) {
        this(host, resendTicks, primaries, 0);
    }

    /**
     * A core whose attempt serials start above {@code serialBase}. A host that
     * can restart under the same number passes a base above every serial an
     * earlier run could have used (its transport's
     * {@code attemptSerialBase}), so that no peer mistakes a new attempt for
     * an old one it remembers as ended.
     */
    public HostCore(int host, int resendTicks, boolean primaries, long serialBase) {
        this.state = new CoreState(host, resendTicks, serialBase);
        this.locking = new Locking(state, primaries);
        this.calls = new Calls(state, locking);
        this.coordinator = new Coordinator(state, locking);
        this.participant = new Participant(state, locking);
        locking.wire(participant);
        calls.wire(participant, coordinator);
        coordinator.wire(participant);
        participant.wire(coordinator);
    }

    /**
     * Makes this host validate optimistically instead of locking (Tribune's OCC): bodies take
     * no locks here, and an attempt whose reads changed before it voted, or that used state a
     * prepared attempt is committing, votes no and is retried; a root refused here 3 times
     * (see {@link #useOptimisticConcurrencyLockingAfter}) runs its later attempts
     * pessimistically here. The default is wound-wait with primaries. Call it before any
     * transaction touches this host.
     *
     * @throws IllegalStateException if attempts are already live here
     */
    public void useOptimisticConcurrency() {
        useOptimisticConcurrencyLockingAfter(Locking.defaultLockAfterRefusals());
    }

    /**
     * Like {@link #useOptimisticConcurrency()}, saying when a root falls back to locking (a name
     * of its own, so that method references to that one stay exact): once this host refused its
     * attempts {@code lockAfterRefusals} times, its later attempts take
     * their validation locks as they use state here, so that short conflicting attempts cannot
     * starve it (0: never; the default is the system property {@code waldo.occ.lockAfterRefusals},
     * else 3).
     *
     * @throws IllegalStateException if attempts are already live here
     * @throws IllegalArgumentException if {@code lockAfterRefusals} is negative
     */
    public void useOptimisticConcurrencyLockingAfter(int lockAfterRefusals) {
        locking.useOptimistic(lockAfterRefusals);
    }

    /** How many attempts ran pessimistically on this optimistic host so far (the fallback; 0 if it never locks). */
    public long pessimisticAttempts() {
        return locking.pessimisticAttempts();
    }

    /**
     * Makes a replicated decision register, not this host alone, settle the outcome of the
     * distributed attempts it coordinates or takes part in (Paxos Commit's idea, Gray and
     * Lamport): once every vote is yes, the coordinator asks the register to settle the attempt as
     * committed ({@link Decision.Register}) and commits only if it does; a participant in doubt
     * asks it to settle the attempt as backed out. The register keeps the first proposal for each
     * attempt, so both learn one outcome, and a participant whose coordinator is gone for good
     * learns it from the register instead of waiting. A coordinator no longer presumes abort for
     * attempts of earlier runs it has no record of: the register knows. Every host of a network
     * must use the same register, and this must be set before any transaction runs here.
     */
    public void useReplicatedDecisions() {
        state.replicatedDecisions = true;
    }

    /**
     * Turns Walter's fast commit at one host on or off (off by default): a root whose attempt
     * holds nothing on this host (no lock here, so no binding's change) and took part on exactly
     * one other host, which has not voted yet, has that host decide alone ({@link
     * Message.Delegate}): it prepares, logs its commit, installs and answers with the outcome,
     * and no Prepare, Commit or Ack round of two-phase commit follows (only an unhurried Ack that
     * lets it forget its logged commit). The price: if the link drops before the answer, the
     * outcome is unknown here and the root's caller waits until that host is reachable again and
     * answers the delegation sent again (from its log after a restart). Set it before
     * transactions run here; it changes only how roots started here commit.
     */
    public void useFastCommit(boolean on) {
        state.fastCommit = on;
    }

    /**
     * Makes this host's clock a hybrid logical clock: the stamps of votes and commits that order
     * shared appends ({@link AppendOrder}) are at least the real time {@code realTimeNanos} reads
     * (nanoseconds since the epoch), and a commit this host coordinates reaches no one until that
     * real time passed its stamp by {@code uncertaintyNanos}, how far apart two hosts' clocks may
     * be (Spanner's commit wait). Whatever any host stamps once anyone could have seen the commit
     * is then stamped above it, so an appender begun after another returned is ordered after it
     * and after everything ordered before it: shared appends keep real time, not only
     * serializability. Off (the default), the clock counts events only. Every host that shares
     * appends, and every host coordinating transactions that append there, must turn it on, with
     * the same uncertainty; set it before transactions run here.
     */
    public void useRealTimeStamps(java.util.function.LongSupplier realTimeNanos, long uncertaintyNanos) {
        if (uncertaintyNanos < 0) {
            throw new IllegalArgumentException("clock uncertainty must not be negative: " + uncertaintyNanos + " ns");
        }
        state.realTime = realTimeNanos;
        state.clockUncertainty = uncertaintyNanos;
    }

    /**
     * The real time (as {@link #useRealTimeStamps} reads it) at which the first commit waiting
     * here for its stamp to pass may go out, or {@link Long#MAX_VALUE} if none waits; the host
     * layer calls {@link #tick} or any other step then, or sooner.
     */
    public long commitWaitEnds() {
        return coordinator.commitWaitEnds();
    }

    /** Sends the commits whose wait for real time ended ({@link #useRealTimeStamps}). */
    public void releaseWaitingCommits() {
        coordinator.releaseWaitingCommits();
    }

    /**
     * The decision register settled {@code txn}, in answer to a {@link Decision.Register}: as
     * committed with the commit's stamp {@code commitStamp} (the one its coordinator proposed), or
     * as backed out (0). The root that asked commits or backs out, an attempt in doubt here ends
     * as the register says. An answer nothing waits for is ignored.
     */
    public void registered(TxnId txn, long commitStamp) {
        coordinator.registered(txn, commitStamp);
        participant.registered(txn, commitStamp);
    }

    /** True if this host validates optimistically ({@link #useOptimisticConcurrency}). */
    public boolean optimisticConcurrency() {
        return locking.optimistic();
    }

    /** This host's number. */
    public int host() {
        return state.host;
    }

    /** The clock: a Lamport clock, with real time in it once {@link #useRealTimeStamps} is on. */
    public long clock() {
        return state.clock;
    }

    /**
     * Moves the Lamport clock up to {@code atLeast}, for a host layer whose values survive a
     * restart ({@link #restore} with {@code retakeLocks}): before the restarted core runs anything,
     * it gives back the {@link #clock()} it read when it last applied an install. Shared appends
     * install in the order of their commits' stamps ({@link AppendOrder}), which holds only if
     * every vote here is stamped above the stamps of the commits already installed in these
     * values; a clock that restarted from 0 stamps the next appender below them, so another host
     * can put it first while these values have it last. A host layer whose values start afresh
     * (as a {@code Host}'s do) has no installs to stay above and need not call it.
     */
    public void advanceClock(long atLeast) {
        state.clock = Math.max(state.clock, atLeast);
    }

    /** Hands out and forgets everything produced since the last drain. */
    public Outbox drain() {
        return state.drain();
    }

    // ---- start after a crash -----------------------------------------------------------------

    /**
     * Takes up what earlier runs of this host logged, before anything else
     * happens in this run: attempts prepared here and not ended are in doubt
     * and ask their peers and coordinator for the outcome (their variables
     * stay locked meanwhile if {@code retakeLocks}); logged commits not every
     * participant acknowledged are sent again; ended attempts are remembered,
     * to answer queries. Records of forgotten attempts are skipped.
     *
     * @param records every durable record, in the order written (a torn last one already dropped)
     * @param earlierRunsLogged true if earlier runs of this host wrote to this same log, so that an
     *     attempt this host coordinated and did not log as committed was backed out (presumed abort);
     *     false for a log that starts now (then such attempts are "undecided" to whoever asks)
     * @param retakeLocks true if the host layer's variable values survive a restart (they need
     *     protecting while in doubt); false if they start afresh, as a {@code Host}'s do
     */
    public void restore(List<StorageRecord> records, boolean earlierRunsLogged, boolean retakeLocks) {
        state.earlierRunsLogged = earlierRunsLogged;
        Map<TxnId, StorageRecord.Prepared> prepared = new HashMap<>();
        Map<TxnId, Boolean> endings = new HashMap<>();
        Map<TxnId, StorageRecord.Committed> committed = new HashMap<>();
        Set<TxnId> order = new LinkedHashSet<>();
        for (StorageRecord record : records) {
            TxnId txn = record.txn();
            order.add(txn);
            switch (record) {
                case StorageRecord.Prepared p -> prepared.put(txn, p);
                case StorageRecord.Ended e -> endings.put(txn, e.committed());
                case StorageRecord.Committed c -> committed.put(txn, c);
                case StorageRecord.Forgotten f -> {
                    prepared.remove(txn);
                    committed.remove(txn);
                    endings.remove(txn);
                }
            }
        }
        for (TxnId txn : order) {
            if (committed.containsKey(txn)) {
                coordinator.restore(committed.get(txn));
            }
            if (prepared.containsKey(txn)) {
                state.preparedInEarlierRuns.add(txn);
                participant.restore(prepared.get(txn), endings.get(txn), committed.containsKey(txn), retakeLocks);
            }
        }
        // Only now, with every attempt restored in doubt known to the order of shared appends.
        for (TxnId txn : order) {
            if (committed.containsKey(txn) && prepared.containsKey(txn)) {
                participant.installLoggedCommit(txn, committed.get(txn).stamp());
            }
        }
    }

    // ---- roots ---------------------------------------------------------------------------

    /**
     * Starts a root transaction for a host call into a Public function of
     * {@code object} and returns its first attempt, whose body the host layer
     * now runs (it counts as one active thread).
     */
    public TxnId begin(long object) {
        return coordinator.begin(object);
    }

    /** Starts the next attempt of a root whose previous attempt ended with {@link Result#RETRY}. */
    public TxnId retry(TxnId previous) {
        return coordinator.retry(previous);
    }

    /**
     * Makes {@code txn}, an attempt just begun or retried here that has not run yet, a read-only
     * attempt that reads a snapshot instead of locking, here and on every host it calls (the
     * flag travels with its calls): it takes no lock, never waits for a writer that is running or
     * preparing and never wounds one; a read waits only for a writer that voted yes and is
     * known to have committed; and each host validates its reads when it is asked to prepare,
     * voting WOUNDED (the root retries) if a writer installed over them since, or voted yes on
     * them and, asked, its coordinator says it committed. Its commit logs nothing. See {@link
     * SnapshotReads} for why that is strictly serializable. It may only read: a lock in another
     * mode than READ is refused.
     *
     * @throws IllegalStateException if {@code txn} is not a root attempt of this host that has not run yet
     */
    public void readSnapshot(TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        if (record == null || txn.host() != state.host || record.state != TxnRecord.State.ACTIVE
                || !record.held.isEmpty() || !record.participants.isEmpty() || !record.outstanding.isEmpty()) {
            throw new IllegalStateException("attempt " + txn + " is not a root attempt of host " + state.host
                    + " that has not run yet; make it read a snapshot right after begin or retry");
        }
        record.snapshot = true;
    }

    /** True if {@code txn} is a read-only attempt that reads a snapshot here (see {@link #readSnapshot}). */
    public boolean readsSnapshot(TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        return record != null && record.snapshot;
    }

    /** The root body of {@code txn} ended; the outcome arrives later as {@link Decision.RootDone}. */
    public void finishRoot(TxnId txn, Ending ending) {
        coordinator.finishRoot(txn, ending);
    }

    // ---- locks and calls -----------------------------------------------------------------------

    /**
     * Requests {@code lock} for {@code txn}. Returns true if granted at once;
     * otherwise {@link Decision.Granted} or {@link Decision.Wounded} follows. After the root's
     * last call (see {@link #call(TxnId, int, Object, boolean)}) a lock that is not free
     * wounds the attempt: it is retried without the prepare on its calls.
     */
    public boolean lock(TxnId txn, LockId lock) {
        TxnRecord record = state.txns.get(txn);
        if (record != null && record.state == TxnRecord.State.ACTIVE && coordinator.sentLastCall(txn)) {
            return coordinator.lockAfterLastCall(record, lock); // a wait could deadlock with the prepared callee
        }
        return locking.lock(txn, lock);
    }

    /**
     * Takes {@code lock} for {@code txn} only if that needs no wait (held already, or free now):
     * true if taken; false, queueing nothing and wounding no one, otherwise (also for an attempt
     * that is not running here). For a served call run on the receiving thread, which must not
     * wait: it is run again on a thread of its own, where {@link #lock} may wait.
     */
    public boolean tryLock(TxnId txn, LockId lock) {
        TxnRecord record = state.txns.get(txn);
        return record != null && record.state == TxnRecord.State.ACTIVE && !coordinator.sentLastCall(txn)
                && locking.lockWithoutWaiting(record, lock);
    }

    /**
     * Sends {@code request} to host {@code to} as a call inside {@code txn}.
     * Returns the call's id; its end arrives as {@link Decision.Replied} or
     * {@link Decision.CallFailed}. Returns -1, sending nothing, if the
     * attempt was already wounded here.
     */
    public long call(TxnId txn, int to, Object request) {
        return calls.call(txn, to, request, false);
    }

    /**
     * What {@link #call(TxnId, int, Object, boolean)} returns, sending nothing, when the root
     * body calls again after a call it marked as its last: the mark was wrong. The attempt is
     * wounded (its body unwinds and it is retried) and the root's later attempts call without
     * the prepare; the host layer may remember not to mark that body's calls again.
     */
    public static final long CALLED_AFTER_LAST = -2;

    /**
     * Sends {@code request} as {@link #call(TxnId, int, Object)} does. With {@code last}, the
     * root's body promises that this is its last call (it touches no other host after it,
     * though it may still touch this host's data): if the body runs on this host as its
     * attempt's only thread, the call carries the prepare, the callee prepares right after
     * serving it, and its reply carries the vote, so the commit needs no Prepare round trip to
     * that host. A further call of the attempt returns {@link #CALLED_AFTER_LAST}.
     */
    public long call(TxnId txn, int to, Object request, boolean last) {
        return calls.call(txn, to, request, last);
    }

    /** A call served here (after {@link Decision.RunCall}) ended; its reply goes back to the caller. */
    public void finishCall(TxnId txn, long callId, Object response, boolean wounded) {
        calls.finishCall(txn, callId, response, wounded);
    }

    // ---- votes and acknowledgements ----------------------------------------------------------

    /** The local bindings prepared {@code txn} (after {@link Decision.PrepareLocal}) and vote; none took part. */
    public void vote(TxnId txn, boolean yes, String reason) {
        vote(txn, yes, reason, false);
    }

    /**
     * The host layer prepared {@code txn}, which changed nothing here: no write, no binding's
     * change, no output. A part that only read under locks for another host's root votes
     * {@link Message.Verdict#READ_ONLY}: it releases its locks and forgets the attempt at once
     * (a {@link Decision.Discard} drops what it read), logs nothing, and is left out of the
     * decision, whose outcome cannot change anything here. Any other part votes yes as {@link
     * #vote(TxnId, boolean, String)} does. Returns true if the part voted read-only.
     */
    public boolean voteReadOnly(TxnId txn) {
        return participant.voteReadOnly(txn);
    }

    /**
     * The local bindings prepared {@code txn} and vote. With {@code finishLater},
     * bindings took part: after the attempt's {@link Decision.Install} or
     * {@link Decision.Discard}, this host keeps the attempt's locks and
     * acknowledges to the coordinator only once the host layer reports
     * {@link #finished}. So no transaction here reads (or loads from the
     * outside system) what the attempt locked while its bindings still commit
     * or undo its change, and the root's caller returns after every binding
     * committed or undid its work.
     */
    public void vote(TxnId txn, boolean yes, String reason, boolean finishLater) {
        vote(txn, yes, reason, finishLater, NO_PAYLOAD);
    }

    /**
     * Votes as {@link #vote(TxnId, boolean, String, boolean)}, and logs
     * {@code payload} with a yes vote: the host layer's own data for finishing
     * or undoing the attempt here after a crash, handed back in the
     * {@link StorageRecord.Prepared} record at the next start.
     */
    public void vote(TxnId txn, boolean yes, String reason, boolean finishLater, byte[] payload) {
        if (yes && locking.snapshots.holdsVote(txn)) {
            return; // a read-only attempt's validation still waits for writers' coordinators; it votes then
        }
        participant.vote(txn, yes, reason, finishLater, payload);
    }

    /**
     * The host layer applied an attempt's {@link Decision.Install} or
     * {@link Decision.Discard} and its bindings finished their commit or
     * abort: release the locks it kept for them (the waiters' grants follow),
     * log its end and acknowledge now. The host layer reports this
     * for every install and discard (for one that needs no report it changes
     * nothing): an attempt whose yes vote was logged logs its end only after
     * it was applied, so that a crash in between applies it again rather
     * than never.
     */
    public void finished(TxnId txn) {
        participant.finished(txn);
    }

    // ---- messages --------------------------------------------------------------------------

    /** Handles a message received from another host (or looped back from this one). */
    public void step(Envelope envelope) {
        state.clock = Math.max(state.clock, envelope.clock()) + 1;
        coordinator.releaseWaitingCommits();
        int from = envelope.from();
        switch (envelope.message()) {
            case Message.Call call -> calls.onCall(from, call);
            case Message.Reply reply -> calls.onReply(reply);
            case Message.Wound wound -> locking.onWound(wound.txn());
            case Message.Promote promote -> locking.onPromote(from, promote);
            case Message.Prepare prepare -> participant.onPrepare(from, prepare);
            case Message.Vote vote -> coordinator.onVote(from, vote);
            case Message.Commit commit -> {
                if (!coordinator.onDelegatedCommit(from, commit.txn())) {
                    participant.onCommit(from, commit);
                }
            }
            case Message.Delegate delegate -> participant.onDelegate(from, delegate.txn());
            case Message.Backout backout -> participant.onBackout(from, backout.txn());
            case Message.Ack ack -> coordinator.onAck(from, ack.txn());
            case Message.Query query -> answer(from, query);
            case Message.Answer answer -> {
                participant.onAnswer(answer);
                locking.snapshots.onAnswer(from, answer);
            }
        }
    }

    /**
     * What this host can tell a participant that asks about {@code txn}. A
     * host that has not voted yes vetoes: it backs the attempt out (so it
     * never votes yes later) and answers backed out. A host that voted yes,
     * or that forgot the attempt, cannot say; the coordinator answers from
     * its log, presuming abort for what it did not log as committed.
     */
    private Message.Outcome outcomeOf(TxnId txn) {
        Message.Outcome outcome = coordinator.outcomeOf(txn);
        return outcome == null ? Message.Outcome.UNDECIDED : outcome;
    }

    /** Answers a query with what this host knows, and a commit's stamp if it knows that. */
    private void answer(int from, Message.Query query) {
        Message.Outcome outcome = outcomeOf(query.txn());
        long stamp = outcome == Message.Outcome.COMMITTED ? state.commitStamp(query.txn()) : 0;
        state.send(from, new Message.Answer(query.txn(), outcome, query.asked(), stamp));
    }

    // ---- reads outside transactions ------------------------------------------------------------

    /**
     * The attempts that hold a lock of {@code variable} here (any key of a
     * map) and voted yes, waiting for their coordinator's decision: one of
     * them may already be committed and its root's caller returned (a commit
     * returns at the decision, before this host installs it). A read of the
     * last committed value outside any transaction waits until each of them
     * was installed or discarded here, so that it sees the writes of every
     * call that returned before it. An attempt in doubt (its coordinator
     * lost) is not listed: its outcome may take a while, and such a read then
     * sees the value from before it.
     *
     * @param variable the whole-variable lock of the variable read
     */
    public List<TxnId> undecidedWriters(LockId variable) {
        List<TxnId> writers = new java.util.ArrayList<>();
        for (TxnRecord holder : locking.holders(variable.wholeLock())) {
            if (holder.state == TxnRecord.State.PREPARED && holder.localVote == Message.Verdict.YES
                    && !holder.inDoubt && state.txns.get(holder.id) == holder) {
                writers.add(holder.id);
            }
        }
        return writers;
    }

    // ---- in doubt --------------------------------------------------------------------------

    /**
     * Takes up an attempt that this run never saw but whose bindings journaled
     * a yes vote in an earlier run of this host (which was then killed): the
     * outcome is asked of {@code peers} and the coordinator, right away and
     * again on ticks, exactly as for a participant that lost its coordinator.
     * The first definite answer, or the coordinator's own Commit or Backout,
     * yields the usual {@link Decision.Install} or {@link Decision.Discard}.
     * The placeholder holds no locks and runs no threads; while it waits it
     * answers peers' queries with "undecided", since its vote was yes. An
     * attempt {@link #restore}d from the log is the same attempt: its
     * decision is still to come.
     *
     * @param txn the attempt, as journaled
     * @param peers the other participants the coordinator named (this host and the coordinator are ignored)
     * @return false, changing nothing, if this run holds the attempt as one of its own;
     *     if it already ended here, its decision is given again
     */
    public boolean recover(TxnId txn, Set<Integer> peers) {
        return participant.recover(txn, peers);
    }

    /**
     * The attempts an earlier run of this host voted yes on, taken up from storage by
     * {@link #restore} and still waiting for their outcome, each with the hosts it asks (the
     * peers and coordinator the prepared record named): what a restarted host's bindings must
     * finish once the outcome is known. Oldest host number and serial first.
     */
    public Map<TxnId, Set<Integer>> restoredInDoubt() {
        return participant.restoredInDoubt();
    }

    /**
     * Whether {@link #recover} can settle or attach to {@code txn} without being told whom to
     * ask: the log took it up, it ended in this run, or a logged earlier run never prepared it.
     */
    public boolean knownFromStorage(TxnId txn) {
        return participant.knownFromStorage(txn);
    }

    /**
     * The other participants of an attempt prepared here, as its coordinator
     * named them, plus the coordinator itself (unless that is this host): the
     * hosts a participant asks should it lose the coordinator. Empty for an
     * attempt not prepared here.
     */
    public Set<Integer> participantsToAsk(TxnId txn) {
        return participant.participantsToAsk(txn);
    }

    /**
     * Ends, on this host alone, an attempt that prepared here and whose
     * coordinator is unreachable (it is "in doubt"): installs it if
     * {@code commit}, else backs it out — a heuristic decision, as XA calls it.
     * Only a program whose effects converge whatever the coordinator decided
     * may use it (WaldoConf's trials do). Should the coordinator's decision
     * arrive later and disagree, {@link #heuristicHazards()} counts it.
     *
     * @return false, changing nothing, unless the attempt is prepared here and its coordinator unreachable
     */
    public boolean resolveInDoubt(TxnId txn, boolean commit) {
        return participant.resolveInDoubt(txn, commit);
    }

    /** How many heuristic decisions turned out to disagree with their coordinator's. */
    public int heuristicHazards() {
        return participant.heuristicHazards();
    }

    /** The prepared attempts here whose coordinator is unreachable (or that a restart found in doubt). */
    public List<TxnId> inDoubt() {
        return participant.inDoubt();
    }

    // ---- links and time --------------------------------------------------------------------

    /**
     * The transport lost host {@code lost}: calls to it fail, attempts that it
     * called here (or whose root it is) back out here unless prepared, and
     * commits this host coordinates stop waiting for it.
     */
    public void linkDown(int lost) {
        state.down.add(lost);
        for (TxnRecord record : List.copyOf(state.txns.values())) {
            calls.failCallsTo(record, lost);
            if (!record.prepared() && state.txns.containsKey(record.id)
                    && (record.id.host() == lost || record.callers.contains(lost))) {
                participant.abandon(record);
            } else {
                participant.linkDown(record, lost);
            }
        }
        coordinator.linkDown(lost);
        locking.snapshots.linkDown(lost);
    }

    /**
     * Host {@code restarted} is back as a new run, which lost every attempt it
     * held in memory and took up what it had logged. The transport reports it
     * before {@link #linkUp}. Everything the old run was part of is treated
     * as lost with its link, and decisions owed to it are dropped (see
     * {@link Coordinator#peerRestarted}).
     */
    public void peerRestarted(int restarted) {
        linkDown(restarted);
        woundAttemptsThatLostAPart(restarted);
        coordinator.peerRestarted(restarted);
    }

    /**
     * An active attempt that called {@code restarted} before it restarted lost what that call did
     * there, and the new run would take a later call of it as the attempt's first: committed, the
     * attempt would keep the later call's work without the earlier one's (a lost link is different:
     * the participant remembers it backed the attempt out, and refuses later calls). So it is
     * wounded, and its root runs again.
     */
    private void woundAttemptsThatLostAPart(int restarted) {
        for (TxnRecord record : List.copyOf(state.txns.values())) {
            if (record.state == TxnRecord.State.ACTIVE && record.participants.contains(restarted)) {
                locking.markWounded(record);
            }
        }
    }

    /** The transport (re)connected host {@code reached}: decisions owed to it go out now, and queries in doubt. */
    public void linkUp(int reached) {
        state.down.remove(reached);
        coordinator.linkUp(reached);
        participant.linkUp(reached);
    }

    /**
     * Time passed. Coordinators re-send Prepare, Commit and Backout to
     * participants that have not answered for a while, and keep re-sending
     * decisions owed to participants that were unreachable; attempts in doubt
     * ask again; lock phases that overtook a waiter age (see the lock table).
     */
    public void tick() {
        locking.tick();
        coordinator.tick();
        participant.tick();
    }

    /**
     * Whether a {@link #tick} could do anything now: a root or an owed decision to re-send, an
     * attempt in doubt to ask about, a lock phase to age or a snapshot check to repeat. While it
     * is false, and nothing else reaches the core, ticks can be skipped: a site agent ticks
     * 1,000 hosts 20 times a second, most of them with nothing in flight.
     */
    public boolean needsTicks() {
        return coordinator.needsTicks() || participant.needsTicks() || locking.needsTicks();
    }

    // ---- inspection for tests --------------------------------------------------------------

    /**
     * Breaks this core on purpose, for the deterministic simulation's test that it catches a
     * broken scheduler: an attempt prepared with its last call's reply releases its locks as
     * the reply carries its yes vote, before the decision. Never call it elsewhere.
     */
    void breakByReleasingLocksAtEarlyVote() {
        participant.releaseLocksAtEarlyVote = true;
    }

    /**
     * Breaks this core on purpose, for the deterministic simulation's test that it catches a
     * broken append order: shared appends install as their commits arrive, not in the order of
     * their stamps ({@link AppendOrder}). Never call it elsewhere.
     */
    void breakByInstallingAppendsAsTheyArrive() {
        participant.breakAppendOrder();
    }

    /**
     * Breaks this core on purpose, for the deterministic simulation's test that it catches a
     * broken fast commit: a delegated attempt is committed without logging it. Never call it elsewhere.
     */
    void breakBySkippingDelegatedCommitLog() {
        participant.skipDelegatedCommitLog = true;
    }

    /**
     * Breaks this core's snapshot reads on purpose, for the deterministic simulation's tests that
     * it catches a broken variant (see {@link SnapshotReads.Fault}). Never call it elsewhere.
     */
    void breakSnapshotReads(SnapshotReads.Fault fault) {
        locking.snapshots.fault = fault;
    }

    /** True unless the transport reported host {@code other} unreachable. */
    public boolean canReach(int other) {
        return !state.down.contains(other);
    }

    /** Number of decisions still owed to participants that were unreachable. */
    public int undeliveredDecisions() {
        return coordinator.undeliveredDecisions();
    }

    /**
     * Number of attempts with state or threads on this host, counting those
     * installed or backed out here whose bindings have not {@link #finished}:
     * until then the outside system may still hold what the attempt pushed,
     * and this host still owes the attempt's acknowledgement.
     */
    public int liveAttempts() {
        return state.txns.size() + participant.finishingAttempts();
    }

    /** Number of variables that have lock holders or waiters on this host. */
    public int busyVariables() {
        return locking.busyVariables();
    }

    /** Number of lock requests waiting on this host. */
    public int waitingRequests() {
        return locking.waitingRequests();
    }

    /**
     * How many roots started here committed by fast commit ({@link #useFastCommit}: their one
     * other host decided alone) since this core was made; roots that went through two-phase
     * commit do not count. A measure of how often the option applies.
     */
    public long fastCommits() {
        return coordinator.fastCommits();
    }

    /** See {@link Coordinator#decisionsOwed}. */
    public int decisionsOwed() {
        return coordinator.decisionsOwed();
    }

    /** The lock table, one line per busy variable (see {@code LockTable#describe}), for diagnostics. */
    public String describeLocks() {
        return locking.describeLocks();
    }

    /** The current priority of a live attempt on this host, or null. */
    public Priority priorityOf(TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        return record == null ? null : record.priority;
    }

    /** True if the attempt is prepared (or preparing) here, so that it can no longer be wounded. */
    public boolean isPrepared(TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        return record != null && record.prepared();
    }
}
