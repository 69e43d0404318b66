package dev.waldo.runtime.core;

import dev.waldo.runtime.core.Decision.Result;
import dev.waldo.runtime.core.TxnRecord.State;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The coordinator role of a host's core: root transactions started here and
 * their attempts, the votes of two-phase commit, the decision (a commit is
 * logged before any Commit leaves), acknowledgements, and re-sending what
 * participants have not answered.
 */
final class Coordinator {
    private final CoreState state;
    private final Locking locking;
    private Participant participant;
    private final Map<TxnId, RootRecord> roots = new HashMap<>();
    private final Map<TxnId, RootRecord> retrying = new HashMap<>();
    /** Roots whose commit waits for real time to pass its stamp ({@link RootRecord.Phase#WAITING}). */
    private final Set<RootRecord> waitingCommits = new LinkedHashSet<>();
    /**
     * Decisions that participants unreachable at the time have not acknowledged
     * yet. The root does not wait for them, but they are re-sent when the link
     * comes back, so that a prepared participant learns the outcome.
     */
    private final Map<TxnId, Undelivered> undelivered = new HashMap<>();
    /**
     * Logged commits, with the participants that have not acknowledged them:
     * the record is forgotten once every participant did, since none of them
     * can be in doubt any more.
     */
    private final Map<TxnId, Set<Integer>> loggedCommits = new HashMap<>();
    /** Roots started here that their one other host committed alone (fast commit), since this run began. */
    private long fastCommits;

    /** A commit or backout decision still owed to some hosts. */
    private static final class Undelivered {
        final Message decision;
        final Set<Integer> hosts = new HashSet<>();
        int ticksSinceSend;

        Undelivered(Message decision) {
            this.decision = decision;
        }
    }

    Coordinator(CoreState state, Locking locking) {
        this.state = state;
        this.locking = locking;
    }

    void wire(Participant participant) {
        this.participant = participant;
    }

    // ---- roots ---------------------------------------------------------------------------

    TxnId begin(long object) {
        RootRecord root = new RootRecord(++state.serials, object, ++state.clock);
        locking.primaries.add(root);
        return startAttempt(root);
    }

    TxnId retry(TxnId previous) {
        RootRecord root = retrying.remove(previous);
        if (root == null) {
            throw new IllegalStateException("attempt " + previous + " is not waiting for a retry");
        }
        return startAttempt(root);
    }

    private TxnId startAttempt(RootRecord root) {
        TxnId id = new TxnId(state.host, ++state.serials);
        root.attempt = id;
        root.phase = RootRecord.Phase.RUNNING;
        root.participants = Collections.emptyNavigableSet(); // a backout before voting names this attempt's neighbours, not an earlier one's
        root.awaiting.clear();
        root.bound.clear();
        root.votedReadOnly.clear();
        root.reported = false;
        root.result = null;
        root.reason = null;
        root.earlyPrepareHost = -1;
        root.earlyPrepareCall = -1;
        root.earlyVoted.clear();
        root.earlyRefusal = null;
        root.earlyPrepareLost = null;
        TxnRecord txn = new TxnRecord(id, locking.primaries.priorityOf(root, state.host));
        txn.active = 1;
        state.txns.put(id, txn);
        roots.put(id, root);
        return id;
    }

    void finishRoot(TxnId txn, HostCore.Ending ending) {
        TxnRecord record = state.txns.get(txn);
        RootRecord root = roots.get(txn);
        if (record == null || root == null || root.phase != RootRecord.Phase.RUNNING) {
            throw new IllegalStateException("attempt " + txn + " is not running here");
        }
        record.active--;
        switch (ending) {
            case DONE -> {
                // A body that finished after its attempt was wounded, or while a
                // nested call into this host still runs, cannot commit safely.
                if (record.state == State.ACTIVE && record.active == 0) {
                    startVoting(root, record);
                } else {
                    retryAfterWound(root, record);
                }
            }
            case WOUNDED -> retryAfterWound(root, record);
            case FAILED -> decideBackout(root, Result.FAILED, null);
        }
    }

    private void retryAfterWound(RootRecord root, TxnRecord record) {
        if (root.earlyPrepareHost >= 0) {
            // That host may have prepared with the call and ignores wounds from now on: tell it.
            sendUntilAcknowledged(new Message.Backout(root.attempt), root.earlyPrepareHost);
        }
        if (record.state == State.ACTIVE) {
            locking.markWounded(record);
        } else if (record.active == 0 && state.txns.containsKey(record.id)) {
            participant.backoutLocal(record);
        }
        root.result = Result.RETRY;
        roots.remove(root.attempt);
        rootDone(root);
    }

    // ---- the prepare carried by the last call ------------------------------------------------

    /**
     * Whether the root's call {@code callId} to host {@code to}, which the body marked as its
     * last, carries the prepare; if so, returns the hosts known to take part so far (the
     * {@link Message.Call#prepareWith()} to send), else null. Only the root body's own call
     * carries it: the attempt is this host's running root, no served call of it runs here, and
     * no earlier attempt of the root called again after its last call.
     */
    Set<Integer> prepareWith(TxnRecord record, int to, long callId) {
        RootRecord root = roots.get(record.id);
        if (root == null || root.phase != RootRecord.Phase.RUNNING || root.earlyPrepareOff
                || root.earlyPrepareHost >= 0 || record.active != 1 || !record.serving.isEmpty()) {
            return null;
        }
        root.earlyPrepareHost = to;
        root.earlyPrepareCall = callId;
        return CoreState.namedTo(to, CoreState.inOrder(record.participants));
    }

    /** True if the attempt already sent the call that carried its prepare: it may call no more. */
    boolean sentLastCall(TxnId txn) {
        RootRecord root = roots.get(txn);
        return root != null && root.phase == RootRecord.Phase.RUNNING && root.earlyPrepareHost >= 0;
    }

    /**
     * The body called again after the call that carried the prepare, or would wait for a lock:
     * the callee may be prepared and would refuse the attempt's further work there (or close a
     * wait cycle with it), so this attempt is retried, and the root's later attempts make their
     * calls without the prepare.
     */
    void calledAfterLastCall(TxnRecord record) {
        roots.get(record.id).earlyPrepareOff = true;
        locking.markWounded(record);
    }

    /**
     * A lock the root body asks for after its last call: taken only if it needs no wait. A
     * callee that prepared with that call can no longer be wounded, so a wait here could close
     * a cycle wound-wait never breaks (an older attempt holding this lock, waiting there for
     * the prepared callee). So a lock that would wait wounds this attempt instead, which is
     * retried, its calls without the prepare.
     */
    boolean lockAfterLastCall(TxnRecord record, LockId lock) {
        if (locking.lockWithoutWaiting(record, lock)) {
            return true;
        }
        calledAfterLastCall(record);
        return false;
    }

    /** A vote that came back in the reply to the call that carried the prepare. */
    void onEarlyVote(int from, Message.Vote vote) {
        RootRecord root = roots.get(vote.txn());
        if (root == null || root.phase != RootRecord.Phase.RUNNING || from != root.earlyPrepareHost) {
            return;
        }
        if (vote.verdict() == Message.Verdict.YES || vote.verdict() == Message.Verdict.READ_ONLY) {
            root.earlyVoted.add(from);
            tallyYes(root, from, vote);
        } else if (vote.verdict() == Message.Verdict.WOUNDED) {
            // A check that ended after the callee began to prepare refused the attempt (a read-only
            // attempt's snapshot validation): it runs again, as after a wound.
            locking.markWounded(state.txns.get(vote.txn()));
        } else {
            root.earlyRefusal = vote.reason() == null ? "host " + from + " voted no" : vote.reason();
        }
    }

    /** A call of the attempt failed because its host was lost; if it carried the prepare, the attempt cannot commit. */
    void callFailed(TxnRecord record, long callId, int lost) {
        RootRecord root = roots.get(record.id);
        if (root != null && root.earlyPrepareCall == callId && root.phase == RootRecord.Phase.RUNNING) {
            root.earlyPrepareLost = "host " + lost + " became unreachable after it was asked to prepare";
        }
    }

    // ---- votes and the decision -----------------------------------------------------------

    private void startVoting(RootRecord root, TxnRecord record) {
        if (root.earlyRefusal != null) {
            decideBackout(root, Result.REFUSED, root.earlyRefusal);
            return;
        }
        if (root.earlyPrepareLost != null) {
            decideBackout(root, Result.RETRY, root.earlyPrepareLost);
            return;
        }
        root.participants = CoreState.inOrder(record.participants);
        for (int participant : root.participants) {
            if (state.down.contains(participant)) {
                // A participant holds effects of this attempt but cannot commit them: retry,
                // and the retry meets the unreachable host where the program can handle it.
                decideBackout(root, Result.RETRY, "host " + participant + " is unreachable");
                return;
            }
        }
        if (delegable(root, record)) {
            delegate(root, record);
            return;
        }
        root.phase = RootRecord.Phase.VOTING;
        record.state = State.PREPARING;
        record.coordinator = state.host;
        // Whom a restarted run of this host would ask. Parts that already voted read-only in the
        // last call's reply take no part in the decision: with no one else, the attempt commits
        // here alone, and its own part logs nothing, as a root that called no one.
        record.peers = deciding(root);
        root.awaiting.addAll(root.participants);
        root.awaiting.removeAll(root.earlyVoted); // voted yes in the reply to the last call
        root.awaiting.add(state.host);
        root.ticksSinceSend = 0;
        for (int participant : root.participants) {
            if (root.awaiting.contains(participant)) {
                state.send(participant, new Message.Prepare(record.id, CoreState.namedTo(participant, root.participants)));
            }
        }
        participant.prepareOwnPart(record); // validated first: an optimistic host may refuse it
    }

    // ---- Walter's fast commit: one other host decides alone -----------------------------------

    /**
     * Whether the attempt's one other host may decide it alone: fast commit is on, the attempt
     * holds nothing here (no lock, so no binding's change; a locking host, since an optimistic
     * one tracks reads without locks), one other host took part and it has not voted yet (its
     * vote in the last call's reply made it a 2PC participant already), and no register settles
     * outcomes.
     */
    private boolean delegable(RootRecord root, TxnRecord record) {
        return state.fastCommit && root.participants.size() == 1 && root.earlyVoted.isEmpty()
                && record.held.isEmpty() && !locking.optimistic() && !state.replicatedDecisions;
    }

    /**
     * Asks the one other host to decide. Nothing is logged here: the delegate logs its commit
     * before it answers, and until the answer the outcome is unknown here (the root's caller
     * waits, the delegation is sent again on ticks and when the link is back).
     */
    private void delegate(RootRecord root, TxnRecord record) {
        root.phase = RootRecord.Phase.DELEGATED;
        record.state = State.PREPARING; // nothing of it here to wound or change any more
        record.coordinator = state.host;
        root.awaiting.clear();
        root.awaiting.addAll(root.participants);
        root.ticksSinceSend = 0;
        state.send(root.participants.iterator().next(), new Message.Delegate(root.attempt));
    }

    /** The delegate's answer: the outcome. */
    private void onDelegatedVote(RootRecord root, Message.Vote vote) {
        switch (vote.verdict()) {
            case YES -> delegatedCommit(root);
            case WOUNDED -> delegatedBackout(root, Result.RETRY, vote.reason());
            case REFUSED -> delegatedBackout(root, Result.REFUSED, vote.reason());
        }
    }

    /**
     * A Commit from the host an attempt was delegated to: it committed (and, after a restart,
     * found that in its log). True if a delegated root took it as its outcome.
     */
    boolean onDelegatedCommit(int from, TxnId txn) {
        RootRecord root = roots.get(txn);
        if (root == null || root.phase != RootRecord.Phase.DELEGATED || !root.awaiting.contains(from)) {
            return false;
        }
        delegatedCommit(root);
        return true;
    }

    /** The delegate committed: the root's empty part here ends, and the delegate may forget its logged commit. */
    private void delegatedCommit(RootRecord root) {
        int delegate = root.participants.iterator().next();
        root.phase = RootRecord.Phase.DECIDED;
        root.result = Result.COMMITTED;
        root.committedAt = ++state.clock;
        root.awaiting.clear();
        fastCommits++;
        state.sendUnhurried(delegate, new Message.Ack(root.attempt));
        TxnRecord record = state.txns.get(root.attempt);
        root.awaiting.add(state.host);
        record.acksOwed.add(state.host);
        participant.commitLocal(record, root.committedAt); // the body's print output, and nothing else
        finishIfAcknowledged(root);
    }

    /** The delegate backed the attempt out (and told no one else: no one else took part). */
    private void delegatedBackout(RootRecord root, Result result, String reason) {
        root.phase = RootRecord.Phase.DECIDED;
        root.result = result;
        root.reason = reason;
        root.awaiting.clear();
        TxnRecord record = state.txns.get(root.attempt);
        root.awaiting.add(state.host);
        record.acksOwed.add(state.host);
        participant.backoutLocal(record);
        finishIfAcknowledged(root);
    }

    /** See {@link HostCore#fastCommits}. */
    long fastCommits() {
        return fastCommits;
    }

    /**
     * The delegate's side: it committed {@code txn} alone and logged it. Until the root's host
     * acknowledges, the commit stays logged and owed to it (sent again on ticks and when the link
     * is back), so that a root's host that missed the answer learns it; and until this host's own
     * part installed and acknowledged, since the order of shared appends may hold that install
     * back past the root's acknowledgement (forgotten then, a crash would lose it).
     */
    void delegatedCommitLogged(TxnId txn, int rootHost) {
        loggedCommits.put(txn, new TreeSet<>(Set.of(rootHost, state.host)));
        owe(new Message.Commit(txn), rootHost);
    }

    void onVote(int from, Message.Vote vote) {
        RootRecord root = roots.get(vote.txn());
        if (root != null && root.phase == RootRecord.Phase.DELEGATED && root.awaiting.contains(from)) {
            onDelegatedVote(root, vote);
            return;
        }
        if (root == null || root.phase != RootRecord.Phase.VOTING || !root.awaiting.contains(from)) {
            return;
        }
        switch (vote.verdict()) {
            case YES, READ_ONLY -> {
                root.awaiting.remove(from);
                tallyYes(root, from, vote);
                if (root.awaiting.isEmpty()) {
                    decideCommit(root);
                }
            }
            case WOUNDED -> decideBackout(root, Result.RETRY, vote.reason());
            case REFUSED -> decideBackout(root, Result.REFUSED, vote.reason());
        }
    }

    /** Notes a yes vote: the root's caller waits for a bound voter's ack; a read-only voter hears no decision. */
    private static void tallyYes(RootRecord root, int from, Message.Vote vote) {
        if (vote.verdict() == Message.Verdict.READ_ONLY) {
            root.votedReadOnly.add(from);
        } else if (vote.bound()) {
            root.bound.add(from);
        }
    }

    /** The participants the decision goes to: all but those that voted read-only. */
    private static NavigableSet<Integer> deciding(RootRecord root) {
        if (root.votedReadOnly.isEmpty()) {
            return root.participants;
        }
        NavigableSet<Integer> deciding = new TreeSet<>(root.participants);
        deciding.removeAll(root.votedReadOnly);
        return deciding;
    }

    /**
     * Every vote was yes: the commit's stamp is this host's clock now, above every vote's (see
     * {@link AppendOrder}). With replicated decisions, a distributed attempt is committed only once
     * the register settled it so, stamp and all ({@link #registered}); else it is committed now.
     */
    private void decideCommit(RootRecord root) {
        root.committedAt = state.stamp();
        if (state.replicatedDecisions && !deciding(root).isEmpty() && !readOnly(root)) {
            root.phase = RootRecord.Phase.REGISTERING;
            root.ticksSinceSend = 0;
            root.awaiting.clear();
            state.decide(new Decision.Register(root.attempt, root.committedAt));
            return;
        }
        commit(root);
    }

    /**
     * The decision register settled {@code txn}: a root that asked to commit it commits, or, if a
     * participant in doubt settled it as backed out first, backs it out and runs it again.
     */
    void registered(TxnId txn, long commitStamp) {
        RootRecord root = roots.get(txn);
        if (root == null || root.phase != RootRecord.Phase.REGISTERING) {
            return;
        }
        if (commitStamp != 0) {
            commit(root); // with the stamp it proposed: only the coordinator proposes a commit
        } else {
            decideBackout(root, Result.RETRY, "a participant lost its way to this coordinator and the decision"
                    + " register settled attempt " + txn + " as backed out");
        }
    }

    private void commit(RootRecord root) {
        if (!state.mayReveal(root.committedAt)) {
            root.phase = RootRecord.Phase.WAITING;
            waitingCommits.add(root);
            return;
        }
        root.phase = RootRecord.Phase.DECIDED;
        root.result = Result.COMMITTED;
        root.ticksSinceSend = 0;
        root.awaiting.clear();
        NavigableSet<Integer> deciding = deciding(root);
        TxnRecord own = state.txns.get(root.attempt);
        // Logged also when every other host voted read-only but this host logged its own part's vote:
        // a restart would otherwise find that vote alone and presume abort for what it installed.
        if ((!deciding.isEmpty() || own.logged) && !readOnly(root)) {
            // Persist before you send: a restart must re-send this decision, and must not presume abort.
            state.persist(new StorageRecord.Committed(root.attempt, deciding, root.committedAt));
            Set<Integer> unacknowledged = new TreeSet<>(deciding);
            unacknowledged.add(state.host); // this host's own part, once applied and its bindings finished
            loggedCommits.put(root.attempt, unacknowledged);
        }
        // Only an appender orders its install by the stamp, and its vote was bound (so it is hurried):
        // the others' commits leave the stamp out, which keeps a piggybacked commit two bytes shorter.
        tellParticipants(root, new Message.Commit(root.attempt, root.committedAt), new Message.Commit(root.attempt),
                root.bound);
        // The root's own install counts like a participant's: its bindings must finish too.
        root.awaiting.add(state.host);
        own.acksOwed.add(state.host);
        participant.commitLocal(own, root.committedAt);
        finishIfAcknowledged(root);
    }

    /** Commits the roots whose commit wait ended ({@link RootRecord.Phase#WAITING}). */
    void releaseWaitingCommits() {
        if (waitingCommits.isEmpty()) {
            return;
        }
        List<RootRecord> due = new ArrayList<>();
        for (Iterator<RootRecord> waiting = waitingCommits.iterator(); waiting.hasNext(); ) {
            RootRecord root = waiting.next();
            if (roots.get(root.attempt) != root || root.phase != RootRecord.Phase.WAITING) {
                waiting.remove();
            } else if (state.mayReveal(root.committedAt)) {
                waiting.remove();
                due.add(root);
            }
        }
        due.forEach(this::commit);
    }

    /** See {@link HostCore#commitWaitEnds}. */
    long commitWaitEnds() {
        long ends = Long.MAX_VALUE;
        for (RootRecord root : waitingCommits) {
            ends = Math.min(ends, root.committedAt + state.clockUncertainty);
        }
        return ends;
    }

    /**
     * A read-only attempt reading a snapshot: it installs nothing anywhere, so its commit needs
     * no log record (presumed abort changes nothing for it) and no decision register.
     */
    private boolean readOnly(RootRecord root) {
        TxnRecord record = state.txns.get(root.attempt);
        return record != null && record.snapshot;
    }

    /** Backs the attempt out on every participant; the root ends once all acknowledged. */
    void decideBackout(RootRecord root, Result result, String reason) {
        root.phase = RootRecord.Phase.DECIDED;
        root.result = result;
        root.reason = reason;
        root.ticksSinceSend = 0;
        root.awaiting.clear();
        TxnRecord record = state.txns.get(root.attempt);
        if (root.participants.isEmpty() && record != null) {
            Set<Integer> neighbours = record.neighbours(state.host);
            if (root.earlyPrepareHost >= 0) {
                neighbours.add(root.earlyPrepareHost); // it may have prepared though its reply never came
            }
            root.participants = CoreState.inOrder(neighbours);
        }
        Message backout = new Message.Backout(root.attempt);
        tellParticipants(root, backout, backout, root.participants);
        if (record != null) {
            root.awaiting.add(state.host);
            record.acksOwed.add(state.host);
            participant.abandon(record);
        }
        finishIfAcknowledged(root);
    }

    /**
     * Sends a decision that no root record waits for, and keeps it owed (re-sent on ticks and
     * when the link comes back) until the participant acknowledges it: the message may be lost.
     */
    private void sendUntilAcknowledged(Message decision, int participant) {
        owe(decision, participant);
        if (!state.down.contains(participant)) {
            state.send(participant, decision);
        }
    }

    /**
     * Sends a decision to every participant; the root waits for the reachable ones'
     * acknowledgements. Only the participants in {@code hurried} get it at once: the root's caller
     * waits for their acknowledgement (a commit waits for those whose bindings took part or that
     * append, a backout for all). The others get {@code unhurriedDecision}, unhurried: the caller
     * has returned, and it piggybacks on the next message to that host (see {@link Envelope}).
     * A participant that is down is owed {@code decision}.
     */
    private void tellParticipants(RootRecord root, Message decision, Message unhurriedDecision, Set<Integer> hurried) {
        for (int participant : deciding(root)) {
            if (state.down.contains(participant)) {
                owe(decision, participant);
            } else {
                root.awaiting.add(participant);
                if (hurried.contains(participant)) {
                    state.send(participant, decision);
                } else {
                    state.sendUnhurried(participant, unhurriedDecision);
                }
            }
        }
    }

    private void owe(Message decision, int participant) {
        undelivered.computeIfAbsent(decision.txn(), t -> new Undelivered(decision)).hosts.add(participant);
    }

    void onAck(int from, TxnId txn) {
        Undelivered owed = undelivered.get(txn);
        if (owed != null && owed.hosts.remove(from) && owed.hosts.isEmpty()) {
            undelivered.remove(txn);
        }
        Set<Integer> unacknowledged = loggedCommits.get(txn);
        if (unacknowledged != null && unacknowledged.remove(from) && unacknowledged.isEmpty()) {
            loggedCommits.remove(txn);
            state.persist(new StorageRecord.Forgotten(txn));
        }
        RootRecord root = roots.get(txn);
        if (root != null && root.phase == RootRecord.Phase.DECIDED && root.awaiting.remove(from)) {
            finishIfAcknowledged(root);
        }
    }

    /**
     * Tells the root's caller the outcome once it may return, and forgets the
     * root once every acknowledgement arrived. A commit returns at the
     * decision (logged first, when others take part), as soon as no host
     * whose bindings took part still owes its ack: a participant without
     * bindings keeps the attempt's locks until it installed, so whatever the
     * caller does next, transactionally or through a committed() read (which
     * waits for prepared writers, see {@link HostCore#undecidedWriters}), sees its
     * writes. A backout returns once every reachable participant acknowledged,
     * so a retry never meets its own previous attempt's locks.
     */
    private void finishIfAcknowledged(RootRecord root) {
        if (roots.get(root.attempt) != root) {
            return;
        }
        boolean returnable = root.awaiting.isEmpty() || root.phase == RootRecord.Phase.DECIDED
                && root.result == Result.COMMITTED && java.util.Collections.disjoint(root.awaiting, root.bound);
        if (returnable && !root.reported) {
            rootDone(root);
        }
        if (root.awaiting.isEmpty()) {
            roots.remove(root.attempt);
        }
    }

    /** Reports the root's outcome to its caller (once), retrying or promoting the endpoint's next root. */
    private void rootDone(RootRecord root) {
        root.reported = true;
        state.decide(new Decision.RootDone(root.attempt, root.result, root.reason));
        if (root.result == Result.RETRY) {
            retrying.put(root.attempt, root);
            return;
        }
        RootRecord promoted = locking.primaries.finish(root, root.result == Result.COMMITTED ? root.committedAt : -1);
        if (promoted != null) {
            locking.promote(promoted);
        }
    }

    // ---- outcomes and recovery ------------------------------------------------------------

    /**
     * What the coordinator role knows of {@code txn}, or null if it is not
     * this host's. Presumed abort: an attempt coordinated here that is neither
     * live nor logged as committed was backed out — for an attempt of an
     * earlier run only if that run's log was read at start ({@code
     * earlierRunsLogged}); without it, this host cannot tell.
     */
    Message.Outcome outcomeOf(TxnId txn) {
        RootRecord root = roots.get(txn);
        if (root != null) {
            return root.phase != RootRecord.Phase.DECIDED ? Message.Outcome.UNDECIDED
                    : root.result == Result.COMMITTED ? Message.Outcome.COMMITTED : Message.Outcome.BACKED_OUT;
        }
        if (loggedCommits.containsKey(txn)) {
            return Message.Outcome.COMMITTED;
        }
        Message.Outcome known = participant.outcomeOf(txn);
        if (known != null || txn.host() != state.host) {
            return known;
        }
        boolean thisRun = txn.serial() > state.serialBase;
        // An earlier run may have had the register settle a commit and crashed before logging it:
        // with replicated decisions only the register can tell.
        boolean presumeAbort = state.earlierRunsLogged && !state.replicatedDecisions;
        return thisRun || presumeAbort ? Message.Outcome.BACKED_OUT : null;
    }

    /** A logged commit that not every participant acknowledged: re-send it until they do. */
    void restore(StorageRecord.Committed committed) {
        state.ended.put(committed.txn(), true);
        loggedCommits.put(committed.txn(), new TreeSet<>(committed.participants()));
        state.committedAt(committed.txn(), committed.stamp());
        Message decision = new Message.Commit(committed.txn(), committed.stamp());
        for (int participant : CoreState.inOrder(committed.participants())) {
            owe(decision, participant);
            if (!state.down.contains(participant)) {
                state.send(participant, decision);
            }
        }
    }

    /**
     * This host's own part of {@code txn}, whose commit it logged, was restored and installs later
     * ({@link Participant#installLoggedCommit}): the logged commit is kept until that part is
     * acknowledged too, as in the run that logged it, or a crash before the install would find
     * the commit forgotten and never install it.
     */
    void awaitRestoredPart(TxnId txn) {
        Set<Integer> unacknowledged = loggedCommits.get(txn);
        if (unacknowledged != null) {
            unacknowledged.add(state.host);
        }
    }

    /**
     * How many decisions this host still owes to hosts it can reach (itself included): roots
     * decided but not acknowledged by every participant, decisions kept for a host whose link
     * dropped, and logged commits not yet acknowledged. A host closed before they reach zero
     * leaves those participants prepared, holding their locks until it runs again.
     */
    int decisionsOwed() {
        int owed = 0;
        for (Undelivered decision : undelivered.values()) {
            owed += reachable(decision.hosts) ? 1 : 0;
        }
        for (Set<Integer> unacknowledged : loggedCommits.values()) {
            owed += reachable(unacknowledged) ? 1 : 0;
        }
        for (RootRecord root : roots.values()) {
            owed += root.phase == RootRecord.Phase.DECIDED && reachable(root.awaiting)
                    || root.phase == RootRecord.Phase.WAITING ? 1 : 0;
        }
        return owed;
    }

    private boolean reachable(Set<Integer> hosts) {
        for (int host : hosts) {
            if (!state.down.contains(host)) {
                return true;
            }
        }
        return false;
    }

    // ---- links and time --------------------------------------------------------------------

    /** Votes the root waits for from a lost host back the attempt out; acknowledgements become owed decisions. */
    void linkDown(int lost) {
        for (RootRecord root : List.copyOf(roots.values())) {
            if (root.phase == RootRecord.Phase.VOTING && root.awaiting.contains(lost)) {
                decideBackout(root, Result.RETRY, "host " + lost + " became unreachable during commit");
            } else if (root.phase == RootRecord.Phase.DECIDED && root.awaiting.remove(lost)) {
                owe(resendable(root, lost), lost);
                finishIfAcknowledged(root);
            }
        }
    }

    /**
     * Decisions owed to a restarted host's old run are dropped: re-sent to the
     * new run they would name attempts it may never have seen, which a wire
     * transport rightly refuses. A logged commit stays logged: a new run that
     * restored the attempt asks for its outcome and acknowledges it.
     */
    void peerRestarted(int restarted) {
        undelivered.values().removeIf(owed -> owed.hosts.remove(restarted) && owed.hosts.isEmpty());
    }

    void linkUp(int reached) {
        for (Undelivered owed : undelivered.values()) {
            if (owed.hosts.contains(reached)) {
                state.send(reached, owed.decision);
            }
        }
        for (RootRecord root : roots.values()) {
            if (root.phase == RootRecord.Phase.DELEGATED && root.awaiting.contains(reached)) {
                root.ticksSinceSend = 0;
                state.send(reached, new Message.Delegate(root.attempt)); // its answer may have been lost with the link
            }
        }
    }

    /** Whether {@link #tick} has anything to look at: a root (in any phase) or an owed decision. */
    boolean needsTicks() {
        return !roots.isEmpty() || !undelivered.isEmpty();
    }

    /**
     * Re-sends Prepare, Commit and Backout to participants that have not
     * answered for a while, and decisions owed to participants that were
     * unreachable.
     */
    void tick() {
        releaseWaitingCommits();
        for (RootRecord root : roots.values()) {
            if (root.phase == RootRecord.Phase.RUNNING || ++root.ticksSinceSend < state.resendTicks) {
                continue;
            }
            root.ticksSinceSend = 0;
            if (root.phase == RootRecord.Phase.REGISTERING) {
                state.decide(new Decision.Register(root.attempt, root.committedAt)); // the last ask may have failed
                continue;
            }
            if (root.phase == RootRecord.Phase.WAITING) {
                continue; // released above, once real time passed its stamp
            }
            if (root.phase == RootRecord.Phase.DELEGATED) {
                for (int delegate : root.awaiting) {
                    if (!state.down.contains(delegate)) {
                        state.send(delegate, new Message.Delegate(root.attempt));
                    }
                }
                continue;
            }
            for (int participant : root.awaiting) {
                if (participant != state.host && !state.down.contains(participant)) {
                    state.send(participant, resendable(root, participant));
                }
            }
        }
        for (Undelivered owed : undelivered.values()) {
            if (++owed.ticksSinceSend < state.resendTicks) {
                continue;
            }
            owed.ticksSinceSend = 0;
            for (int participant : owed.hosts) {
                if (!state.down.contains(participant)) {
                    state.send(participant, owed.decision);
                }
            }
        }
    }

    private Message resendable(RootRecord root, int participant) {
        if (root.phase == RootRecord.Phase.VOTING) {
            return new Message.Prepare(root.attempt, CoreState.namedTo(participant, root.participants));
        }
        return root.result == Result.COMMITTED ? new Message.Commit(root.attempt, root.committedAt)
                : new Message.Backout(root.attempt);
    }

    int undeliveredDecisions() {
        return undelivered.size();
    }
}
