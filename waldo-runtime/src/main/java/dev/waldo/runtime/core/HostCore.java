package dev.waldo.runtime.core;

import dev.waldo.runtime.core.Decision.Result;
import dev.waldo.runtime.core.Message.Verdict;
import dev.waldo.runtime.core.TxnRecord.State;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The transaction protocol of one host as a pure state machine: the lock
 * table and wound-wait, primaries and promotion, the two-phase commit
 * coordinator for roots started here, the participant side for everything
 * else, and backout.
 *
 * <p>Inputs are method calls: {@link #step} for a received message,
 * {@link #tick} for time passing, {@link #linkDown}/{@link #linkUp} from the
 * transport, and the local commands the host layer issues while it runs
 * transaction bodies ({@link #begin}, {@link #lock}, {@link #call}, ...).
 * Outputs accumulate until {@link #drain} hands them out: messages to send and
 * {@link Decision}s to apply. The core has no threads, sockets or clocks and
 * is not thread-safe; the host layer serializes access.
 *
 * <p>The host layer's one obligation: apply every drained {@link Decision.Install}
 * and {@link Decision.Discard} before it lets any transaction body continue
 * and issue a command. The core releases a committed attempt's locks as it
 * decides the install, so a body that ran in between could read the old value.
 * (The deterministic simulation found exactly this when its bodies ran
 * inside decision handling.)
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

    private static final int TOMBSTONES = 100_000;
    /** How many ticks an unanswered commit-phase message waits before it is sent again. */
    public static final int DEFAULT_RESEND_TICKS = 10;

    private final int host;
    private final int resendTicks;
    private long clock;
    private long serials;
    private long calls;
    private final Map<TxnId, TxnRecord> txns = new HashMap<>();
    private final Map<TxnId, RootRecord> roots = new HashMap<>();
    private final Map<TxnId, RootRecord> retrying = new HashMap<>();
    private final Primaries primaries;
    private final LockTable locks = new LockTable();
    private final Set<Integer> down = new HashSet<>();
    private final Set<TxnId> heuristicallyCommitted = new HashSet<>();
    private final Set<TxnId> heuristicallyBackedOut = new HashSet<>();
    private int heuristicHazards;
    /** Attempts that ended here: true if committed. Late messages about them are answered from here. */
    private final Map<TxnId, Boolean> ended = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<TxnId, Boolean> eldest) {
            return size() > TOMBSTONES;
        }
    };
    /**
     * Decisions that participants unreachable at the time have not acknowledged
     * yet. The root does not wait for them, but they are re-sent when the link
     * comes back, so that a prepared participant learns the outcome.
     */
    private final Map<TxnId, Undelivered> undelivered = new HashMap<>();
    /** Attempts installed or discarded here whose bindings are still finishing: who to acknowledge then. */
    private final Map<TxnId, Set<Integer>> finishing = new HashMap<>();
    private List<Envelope> messages = new ArrayList<>();
    private List<Decision> decisions = new ArrayList<>();

    /** A commit or backout decision still owed to some hosts. */
    private static final class Undelivered {
        final Message decision;
        final Set<Integer> hosts = new HashSet<>();
        int ticksSinceSend;

        Undelivered(Message decision) {
            this.decision = decision;
        }
    }

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
        this.primaries = new Primaries(primaries);
        this.host = host;
        this.resendTicks = Math.max(1, resendTicks);
        this.serials = serialBase;
    }

    /** This host's number. */
    public int host() {
        return host;
    }

    /** The Lamport clock. */
    public long clock() {
        return clock;
    }

    /** Hands out and forgets everything produced since the last drain. */
    public Outbox drain() {
        Outbox out = new Outbox(messages, decisions);
        messages = new ArrayList<>();
        decisions = new ArrayList<>();
        return out;
    }

    // ---- roots ---------------------------------------------------------------------------

    /**
     * Starts a root transaction for a host call into a Public function of
     * {@code object} and returns its first attempt, whose body the host layer
     * now runs (it counts as one active thread).
     */
    public TxnId begin(long object) {
        RootRecord root = new RootRecord(++serials, object, ++clock);
        primaries.add(root);
        return startAttempt(root);
    }

    /** Starts the next attempt of a root whose previous attempt ended with {@link Result#RETRY}. */
    public TxnId retry(TxnId previous) {
        RootRecord root = retrying.remove(previous);
        if (root == null) {
            throw new IllegalStateException("attempt " + previous + " is not waiting for a retry");
        }
        return startAttempt(root);
    }

    private TxnId startAttempt(RootRecord root) {
        TxnId id = new TxnId(host, ++serials);
        root.attempt = id;
        root.phase = RootRecord.Phase.RUNNING;
        root.awaiting.clear();
        root.result = null;
        root.reason = null;
        TxnRecord txn = new TxnRecord(id, primaries.priorityOf(root, host));
        txn.active = 1;
        txns.put(id, txn);
        roots.put(id, root);
        return id;
    }

    /** The root body of {@code txn} ended; the outcome arrives later as {@link Decision.RootDone}. */
    public void finishRoot(TxnId txn, Ending ending) {
        TxnRecord record = txns.get(txn);
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
        if (record.state == State.ACTIVE) {
            markWounded(record);
        } else if (record.active == 0 && txns.containsKey(record.id)) {
            backoutLocal(record);
        }
        root.result = Result.RETRY;
        rootDone(root);
    }

    // ---- locks -----------------------------------------------------------------------------

    /**
     * Requests {@code lock} for {@code txn}. Returns true if granted at once;
     * otherwise {@link Decision.Granted} or {@link Decision.Wounded} follows.
     */
    public boolean lock(TxnId txn, LockId lock) {
        TxnRecord record = txns.get(txn);
        if (record == null || record.state != State.ACTIVE) {
            decisions.add(new Decision.Wounded(txn));
            return false;
        }
        if (record.held.contains(lock) || record.held.contains(lock.wholeLock())) {
            return true;
        }
        if (locks.grantable(record, lock)) {
            locks.hold(record, lock);
            return true;
        }
        locks.enqueue(record, lock);
        woundBlockers(record, lock);
        return false;
    }

    /** Wound-wait: every holder of a conflicting lock that {@code record} outranks is wounded. */
    private void woundBlockers(TxnRecord record, LockId lock) {
        for (TxnRecord holder : locks.blockers(record, lock)) {
            if (record.priority.beats(holder.priority) && holder.woundable()) {
                markWounded(holder);
            }
        }
    }

    private void releaseLocks(TxnRecord record) {
        for (Object variable : locks.releaseAll(record)) {
            grant(variable);
        }
    }

    private void grant(Object variable) {
        for (Map.Entry<TxnRecord, LockId> granted : locks.grantWaiters(variable)) {
            decisions.add(new Decision.Granted(granted.getKey().id, granted.getValue()));
        }
    }

    // ---- calls -----------------------------------------------------------------------------

    /**
     * Sends {@code request} to host {@code to} as a call inside {@code txn}.
     * Returns the call's id; its end arrives as {@link Decision.Replied} or
     * {@link Decision.CallFailed}. Returns -1, sending nothing, if the
     * attempt was already wounded here.
     */
    public long call(TxnId txn, int to, Object request) {
        TxnRecord record = txns.get(txn);
        if (record == null || record.state != State.ACTIVE) {
            return -1;
        }
        long callId = ((long) host << 40) | ++calls;
        if (down.contains(to)) {
            decisions.add(new Decision.CallFailed(txn, callId, to));
            return callId;
        }
        record.outstanding.put(callId, to);
        send(to, new Message.Call(txn, record.priority, callId, request));
        return callId;
    }

    /** A call served here (after {@link Decision.RunCall}) ended; its reply goes back to the caller. */
    public void finishCall(TxnId txn, long callId, Object response, boolean wounded) {
        TxnRecord record = txns.get(txn);
        Integer caller = record == null ? null : record.serving.remove(callId);
        if (caller == null) {
            throw new IllegalStateException("call " + callId + " of " + txn + " is not being served here");
        }
        record.active--;
        if (wounded && record.state == State.ACTIVE) {
            markWounded(record);
        }
        Set<Integer> touched = new HashSet<>(record.participants);
        touched.add(host);
        send(caller, new Message.Reply(txn, callId, response, record.state == State.WOUNDED, touched));
        if (record.state == State.WOUNDED && record.active == 0 && txns.containsKey(txn)) {
            backoutLocal(record);
        }
    }

    // ---- two-phase commit ------------------------------------------------------------------

    private void startVoting(RootRecord root, TxnRecord record) {
        root.participants = inOrder(record.participants);
        for (int participant : root.participants) {
            if (down.contains(participant)) {
                // A participant holds effects of this attempt but cannot commit them: retry,
                // and the retry meets the unreachable host where the program can handle it.
                decideBackout(root, Result.RETRY, "host " + participant + " is unreachable");
                return;
            }
        }
        root.phase = RootRecord.Phase.VOTING;
        record.state = State.PREPARING;
        record.coordinator = host;
        record.peers = root.participants; // whom a restarted run of this host would ask
        root.awaiting.addAll(root.participants);
        root.awaiting.add(host);
        root.ticksSinceSend = 0;
        for (int participant : root.participants) {
            send(participant, new Message.Prepare(record.id, root.participants));
        }
        decisions.add(new Decision.PrepareLocal(record.id));
    }

    /** The local bindings prepared {@code txn} (after {@link Decision.PrepareLocal}) and vote; none took part. */
    public void vote(TxnId txn, boolean yes, String reason) {
        vote(txn, yes, reason, false);
    }

    /**
     * The local bindings prepared {@code txn} and vote. With {@code finishLater},
     * bindings took part: after the attempt's {@link Decision.Install} or
     * {@link Decision.Discard}, this host acknowledges to the coordinator only
     * once the host layer reports {@link #finished}, so the root's caller
     * returns after every binding committed or undid its work.
     */
    public void vote(TxnId txn, boolean yes, String reason, boolean finishLater) {
        TxnRecord record = txns.get(txn);
        if (record == null || record.state != State.PREPARING) {
            return;
        }
        record.finishLater = finishLater;
        record.state = State.PREPARED;
        record.localVote = yes ? Verdict.YES : Verdict.REFUSED;
        record.localReason = reason;
        if (record.backoutAfterVote) {
            backoutLocal(record);
            return;
        }
        deliverVote(record);
        if (record.coordinator != host && down.contains(record.coordinator)) {
            coordinatorLost(record);
        }
    }

    private void deliverVote(TxnRecord record) {
        if (record.coordinator == host) {
            onVote(host, new Message.Vote(record.id, record.localVote, record.localReason));
        } else {
            send(record.coordinator, new Message.Vote(record.id, record.localVote, record.localReason));
        }
    }

    private void onVote(int from, Message.Vote vote) {
        RootRecord root = roots.get(vote.txn());
        if (root == null || root.phase != RootRecord.Phase.VOTING || !root.awaiting.contains(from)) {
            return;
        }
        switch (vote.verdict()) {
            case YES -> {
                root.awaiting.remove(from);
                if (root.awaiting.isEmpty()) {
                    decideCommit(root);
                }
            }
            case WOUNDED -> decideBackout(root, Result.RETRY, vote.reason());
            case REFUSED -> decideBackout(root, Result.REFUSED, vote.reason());
        }
    }

    private void decideCommit(RootRecord root) {
        root.phase = RootRecord.Phase.DECIDED;
        root.result = Result.COMMITTED;
        root.committedAt = ++clock;
        root.ticksSinceSend = 0;
        root.awaiting.clear();
        tellParticipants(root, new Message.Commit(root.attempt));
        // The root's own install counts like a participant's: its bindings must finish too.
        TxnRecord record = txns.get(root.attempt);
        root.awaiting.add(host);
        record.acksOwed.add(host);
        installLocal(record);
        finishIfAcknowledged(root);
    }

    /** Backs the attempt out on every participant; the root ends once all acknowledged. */
    private void decideBackout(RootRecord root, Result result, String reason) {
        root.phase = RootRecord.Phase.DECIDED;
        root.result = result;
        root.reason = reason;
        root.ticksSinceSend = 0;
        root.awaiting.clear();
        TxnRecord record = txns.get(root.attempt);
        if (root.participants.isEmpty() && record != null) {
            root.participants = inOrder(record.neighbours(host));
        }
        tellParticipants(root, new Message.Backout(root.attempt));
        if (record != null) {
            root.awaiting.add(host);
            record.acksOwed.add(host);
            abandon(record);
        }
        finishIfAcknowledged(root);
    }

    /** Sends a decision to every participant; the root waits for the reachable ones' acknowledgements. */
    private void tellParticipants(RootRecord root, Message decision) {
        for (int participant : root.participants) {
            if (down.contains(participant)) {
                owe(decision, participant);
            } else {
                root.awaiting.add(participant);
                send(participant, decision);
            }
        }
    }

    private void owe(Message decision, int participant) {
        undelivered.computeIfAbsent(decision.txn(), t -> new Undelivered(decision)).hosts.add(participant);
    }

    private void onAck(int from, TxnId txn) {
        Undelivered owed = undelivered.get(txn);
        if (owed != null && owed.hosts.remove(from) && owed.hosts.isEmpty()) {
            undelivered.remove(txn);
        }
        RootRecord root = roots.get(txn);
        if (root != null && root.phase == RootRecord.Phase.DECIDED && root.awaiting.remove(from)) {
            finishIfAcknowledged(root);
        }
    }

    private void finishIfAcknowledged(RootRecord root) {
        if (root.awaiting.isEmpty() && roots.get(root.attempt) == root) {
            rootDone(root);
        }
    }

    private void rootDone(RootRecord root) {
        roots.remove(root.attempt);
        decisions.add(new Decision.RootDone(root.attempt, root.result, root.reason));
        if (root.result == Result.RETRY) {
            retrying.put(root.attempt, root);
            return;
        }
        RootRecord promoted = primaries.finish(root, root.result == Result.COMMITTED ? root.committedAt : -1);
        if (promoted != null) {
            promote(promoted);
        }
    }

    // ---- primaries -------------------------------------------------------------------------

    /** The root became its endpoint's primary: its running attempt outranks every standard from now on. */
    private void promote(RootRecord root) {
        TxnRecord record = txns.get(root.attempt);
        if (record == null) {
            return; // between attempts: the next attempt starts as primary
        }
        raisePriority(record, primaries.priorityOf(root, host), -1);
    }

    private void raisePriority(TxnRecord record, Priority priority, int from) {
        if (!priority.beats(record.priority)) {
            return;
        }
        record.priority = priority;
        for (int neighbour : record.neighbours(host)) {
            if (neighbour != from) {
                send(neighbour, new Message.Promote(record.id, priority));
            }
        }
        for (LockId lock : List.copyOf(record.waiting)) {
            woundBlockers(record, lock);
        }
    }

    // ---- wound and backout -----------------------------------------------------------------

    /**
     * Wounds an active attempt here: wakes its threads, tells every other
     * host that may hold state or threads of it (so that a thread blocked on
     * another host stops too), and backs it out here once no thread of it runs.
     */
    private void markWounded(TxnRecord record) {
        if (record.state != State.ACTIVE) {
            return;
        }
        record.state = State.WOUNDED;
        decisions.add(new Decision.Wounded(record.id));
        for (int neighbour : record.neighbours(host)) {
            send(neighbour, new Message.Wound(record.id));
        }
        for (Object variable : locks.cancelWaits(record)) {
            grant(variable);
        }
        if (record.active == 0) {
            backoutLocal(record);
        }
    }

    /**
     * Ends the attempt's part here and downstream without committing, as soon
     * as that is safe: for a coordinator's backout, or because this host lost
     * its way to the caller. Unlike a wound it does not stop the root, which
     * may go on without this host (after catching a NetworkException).
     */
    private void abandon(TxnRecord record) {
        switch (record.state) {
            case PREPARING -> record.backoutAfterVote = true;
            case PREPARED -> backoutLocal(record);
            case ACTIVE, WOUNDED -> {
                if (record.state == State.ACTIVE) {
                    record.state = State.WOUNDED;
                    decisions.add(new Decision.Wounded(record.id));
                    for (int callee : record.downstream(host)) {
                        send(callee, new Message.Backout(record.id));
                    }
                    for (Object variable : locks.cancelWaits(record)) {
                        grant(variable);
                    }
                }
                if (record.active == 0) {
                    backoutLocal(record);
                }
            }
        }
    }

    private void backoutLocal(TxnRecord record) {
        txns.remove(record.id);
        ended.put(record.id, false);
        decisions.add(new Decision.Discard(record.id, record.prepared()));
        releaseLocks(record);
        acknowledge(record);
    }

    private void installLocal(TxnRecord record) {
        txns.remove(record.id);
        ended.put(record.id, true);
        decisions.add(new Decision.Install(record.id));
        releaseLocks(record);
        acknowledge(record);
    }

    private void acknowledge(TxnRecord record) {
        if (record.finishLater) {
            finishing.put(record.id, new HashSet<>(record.acksOwed));
            return;
        }
        acknowledge(record.id, record.acksOwed);
    }

    private void acknowledge(TxnId txn, Set<Integer> hosts) {
        for (int to : hosts) {
            if (to == host) {
                onAck(host, txn);
            } else {
                send(to, new Message.Ack(txn));
            }
        }
    }

    /** The bindings of an installed or discarded attempt finished their commit or abort: acknowledge now. */
    public void finished(TxnId txn) {
        Set<Integer> owed = finishing.remove(txn);
        if (owed != null) {
            acknowledge(txn, owed);
        }
    }

    /** Answers a commit or backout for an attempt that already ended here, once its bindings finished. */
    private void acknowledgeEnded(int from, TxnId txn) {
        Set<Integer> owed = finishing.get(txn);
        if (owed != null) {
            owed.add(from);
        } else {
            send(from, new Message.Ack(txn));
        }
    }

    // ---- messages --------------------------------------------------------------------------

    /** Handles a message received from another host (or looped back from this one). */
    public void step(Envelope envelope) {
        clock = Math.max(clock, envelope.clock()) + 1;
        int from = envelope.from();
        switch (envelope.message()) {
            case Message.Call call -> onCall(from, call);
            case Message.Reply reply -> onReply(reply);
            case Message.Wound wound -> onWound(wound.txn());
            case Message.Promote promote -> onPromote(from, promote);
            case Message.Prepare prepare -> onPrepare(from, prepare);
            case Message.Vote vote -> onVote(from, vote);
            case Message.Commit commit -> onCommit(from, commit.txn());
            case Message.Backout backout -> onBackout(from, backout.txn());
            case Message.Ack ack -> onAck(from, ack.txn());
            case Message.Query query -> send(from, new Message.Answer(query.txn(), outcomeOf(query.txn())));
            case Message.Answer answer -> onAnswer(from, answer);
        }
    }

    private void onCall(int from, Message.Call call) {
        TxnRecord record = txns.get(call.txn());
        if (record == null && !ended.containsKey(call.txn())) {
            record = new TxnRecord(call.txn(), call.priority());
            txns.put(call.txn(), record);
        }
        if (record == null || record.state != State.ACTIVE) {
            send(from, new Message.Reply(call.txn(), call.callId(), null, true, Set.of(host)));
            return;
        }
        if (call.priority().beats(record.priority)) {
            record.priority = call.priority();
        }
        record.callers.add(from);
        record.serving.put(call.callId(), from);
        record.active++;
        decisions.add(new Decision.RunCall(call.txn(), call.callId(), from, call.request()));
    }

    private void onReply(Message.Reply reply) {
        TxnRecord record = txns.get(reply.txn());
        Integer to = record == null ? null : record.outstanding.remove(reply.callId());
        if (to == null) {
            return;
        }
        Set<Integer> learned = new HashSet<>(reply.participants());
        learned.add(to);
        learned.remove(host);
        learned.removeAll(record.participants);
        record.participants.addAll(learned);
        if (record.state == State.WOUNDED) {
            // Hosts learned only now may not have heard that this attempt ends here.
            for (int participant : learned) {
                send(participant, new Message.Backout(record.id));
            }
        }
        if (reply.wounded()) {
            markWounded(record);
        }
        decisions.add(new Decision.Replied(reply.txn(), reply.callId(), reply.response(), reply.wounded()));
    }

    private void onWound(TxnId txn) {
        TxnRecord record = txns.get(txn);
        if (record == null) {
            // The call that would create the record may still be on its way; refuse it when it comes.
            ended.putIfAbsent(txn, false);
            return;
        }
        markWounded(record);
    }

    private void onPromote(int from, Message.Promote promote) {
        TxnRecord record = txns.get(promote.txn());
        if (record != null) {
            raisePriority(record, promote.priority(), from);
        }
    }

    private void onPrepare(int from, Message.Prepare prepare) {
        TxnId txn = prepare.txn();
        TxnRecord record = txns.get(txn);
        if (record == null || record.state == State.WOUNDED || record.active > 0) {
            send(from, new Message.Vote(txn, Verdict.WOUNDED, "attempt " + txn + " was backed out on host " + host));
            if (record != null) {
                abandon(record);
            }
            return;
        }
        if (record.state == State.PREPARED) {
            deliverVote(record); // the coordinator re-sent Prepare: our vote was lost or is late
            return;
        }
        if (record.state == State.ACTIVE) {
            record.state = State.PREPARING;
            record.coordinator = from;
            record.peers = peersOf(prepare.participants(), from);
            decisions.add(new Decision.PrepareLocal(txn));
        }
    }

    private void onCommit(int from, TxnId txn) {
        TxnRecord record = txns.get(txn);
        if (record == null) {
            if (heuristicallyBackedOut.remove(txn)) {
                heuristicHazards++; // resolveInDoubt guessed backout; the coordinator had decided commit
            }
            acknowledgeEnded(from, txn); // a re-sent Commit: already installed
            return;
        }
        record.acksOwed.add(from);
        installLocal(record);
    }

    private void onBackout(int from, TxnId txn) {
        TxnRecord record = txns.get(txn);
        if (record == null) {
            if (heuristicallyCommitted.remove(txn)) {
                heuristicHazards++; // resolveInDoubt guessed commit; the coordinator had decided backout
            }
            ended.putIfAbsent(txn, false);
            acknowledgeEnded(from, txn);
            return;
        }
        record.acksOwed.add(from);
        abandon(record);
    }

    // ---- cooperative termination ----------------------------------------------------------

    /**
     * The coordinator of a prepared attempt became unreachable. A no vote
     * means the coordinator cannot commit: back out now. After a yes vote the
     * outcome is unknown here; the peers may know it (one committed, or one
     * never voted yes and so can veto), so ask them, and keep asking on ticks.
     */
    private void coordinatorLost(TxnRecord record) {
        if (record.state != State.PREPARED) {
            return; // still preparing: vote() comes back here once the bindings voted
        }
        if (record.localVote != Verdict.YES) {
            backoutLocal(record);
            return;
        }
        record.inDoubt = true;
        queryAll(record);
    }

    /**
     * Asks every peer and the coordinator, reachable or not: peers of a
     * participant often have no link to it yet, and a transport that can
     * dial them does so when asked to send (then reports the link up).
     */
    private void queryAll(TxnRecord record) {
        record.ticksSinceQuery = 0;
        for (int peer : record.peers) {
            query(record, peer);
        }
        if (record.coordinator != host) {
            query(record, record.coordinator); // back, perhaps after a restart: it may still know
        }
    }

    private void query(TxnRecord record, int to) {
        send(to, new Message.Query(record.id));
    }

    /**
     * What this host can tell a participant that asks about {@code txn}. A
     * host that has not voted yes vetoes: it backs the attempt out (so it
     * never votes yes later) and answers backed out. A host that voted yes,
     * or that forgot the attempt (it may have restarted after committing),
     * cannot say.
     */
    private Message.Outcome outcomeOf(TxnId txn) {
        RootRecord root = roots.get(txn);
        if (root != null) {
            return root.phase != RootRecord.Phase.DECIDED ? Message.Outcome.UNDECIDED
                    : root.result == Result.COMMITTED ? Message.Outcome.COMMITTED : Message.Outcome.BACKED_OUT;
        }
        TxnRecord record = txns.get(txn);
        if (record == null) {
            Boolean committed = ended.get(txn);
            return committed == null ? Message.Outcome.UNDECIDED
                    : committed ? Message.Outcome.COMMITTED : Message.Outcome.BACKED_OUT;
        }
        return switch (record.state) {
            case ACTIVE, WOUNDED -> {
                abandon(record);
                yield Message.Outcome.BACKED_OUT;
            }
            case PREPARING -> Message.Outcome.UNDECIDED;
            case PREPARED -> record.localVote == Verdict.YES ? Message.Outcome.UNDECIDED : Message.Outcome.BACKED_OUT;
        };
    }

    private void onAnswer(int from, Message.Answer answer) {
        TxnRecord record = txns.get(answer.txn());
        if (record == null || !record.inDoubt) {
            return; // decided meanwhile, or an answer this host never needed
        }
        switch (answer.outcome()) {
            case COMMITTED -> installLocal(record);
            case BACKED_OUT -> backoutLocal(record);
            case UNDECIDED -> { } // asked again on a later tick
        }
    }

    /**
     * Takes up an attempt that this run never saw but whose bindings journaled
     * a yes vote in an earlier run of this host (which was then killed): the
     * outcome is asked of {@code peers} and the coordinator, right away and
     * again on ticks, exactly as for a participant that lost its coordinator.
     * The first definite answer, or the coordinator's own Commit or Backout,
     * yields the usual {@link Decision.Install} or {@link Decision.Discard}.
     * The placeholder holds no locks and runs no threads; while it waits it
     * answers peers' queries with "undecided", since its vote was yes.
     *
     * @param txn the attempt, as journaled
     * @param peers the other participants the coordinator named (this host and the coordinator are ignored)
     * @return false, changing nothing, if this run already holds the attempt;
     *     if it already ended here, its decision is given again
     */
    public boolean recover(TxnId txn, Set<Integer> peers) {
        if (txns.containsKey(txn)) {
            return false;
        }
        Boolean committed = ended.get(txn);
        if (committed != null) {
            decisions.add(committed ? new Decision.Install(txn) : new Decision.Discard(txn, true));
            return true;
        }
        TxnRecord record = new TxnRecord(txn, new Priority(false, 0, txn.host(), txn.serial()));
        record.state = State.PREPARED;
        record.localVote = Verdict.YES;
        record.coordinator = txn.host();
        record.peers = peersOf(peers, txn.host());
        record.inDoubt = true;
        txns.put(txn, record);
        queryAll(record);
        return true;
    }

    /**
     * The other participants of an attempt prepared here, as its coordinator
     * named them, plus the coordinator itself (unless that is this host): the
     * hosts a participant asks should it lose the coordinator. Empty for an
     * attempt not prepared here.
     */
    public Set<Integer> participantsToAsk(TxnId txn) {
        TxnRecord record = txns.get(txn);
        if (record == null || !record.prepared() || record.coordinator < 0) {
            return Set.of();
        }
        Set<Integer> hosts = new TreeSet<>(record.peers);
        if (record.coordinator != host) {
            hosts.add(record.coordinator);
        }
        return Collections.unmodifiableSet(hosts);
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
        TxnRecord record = txns.get(txn);
        if (record == null || !lostCoordinator(record)) {
            return false;
        }
        if (commit) {
            heuristicallyCommitted.add(txn);
            installLocal(record);
        } else {
            heuristicallyBackedOut.add(txn);
            backoutLocal(record);
        }
        return true;
    }

    /** Prepared here, coordinated elsewhere, and the coordinator is (or was, since the vote) unreachable. */
    private boolean lostCoordinator(TxnRecord record) {
        return record.prepared() && record.coordinator != host
                && (record.inDoubt || down.contains(record.coordinator));
    }

    /** How many heuristic decisions turned out to disagree with their coordinator's. */
    public int heuristicHazards() {
        return heuristicHazards;
    }

    /** The prepared attempts here whose coordinator is unreachable. */
    public List<TxnId> inDoubt() {
        List<TxnId> inDoubt = new ArrayList<>();
        for (TxnRecord record : txns.values()) {
            if (lostCoordinator(record)) {
                inDoubt.add(record.id);
            }
        }
        return inDoubt;
    }

    // ---- links and time --------------------------------------------------------------------

    /**
     * The transport lost host {@code lost}: calls to it fail, attempts that it
     * called here (or whose root it is) back out here unless prepared, and
     * commits this host coordinates stop waiting for it.
     */
    public void linkDown(int lost) {
        down.add(lost);
        for (TxnRecord record : List.copyOf(txns.values())) {
            failCallsTo(record, lost);
            if (!record.prepared() && txns.containsKey(record.id)
                    && (record.id.host() == lost || record.callers.contains(lost))) {
                abandon(record);
            } else if (record.prepared() && record.coordinator == lost && !record.inDoubt) {
                coordinatorLost(record);
            }
        }
        for (RootRecord root : List.copyOf(roots.values())) {
            if (root.phase == RootRecord.Phase.VOTING && root.awaiting.contains(lost)) {
                decideBackout(root, Result.RETRY, "host " + lost + " became unreachable during commit");
            } else if (root.phase == RootRecord.Phase.DECIDED && root.awaiting.remove(lost)) {
                owe(resendable(root), lost);
                finishIfAcknowledged(root);
            }
        }
    }

    private void failCallsTo(TxnRecord record, int lost) {
        var calls = record.outstanding.entrySet().iterator();
        while (calls.hasNext()) {
            Map.Entry<Long, Integer> call = calls.next();
            if (call.getValue() == lost) {
                calls.remove();
                decisions.add(new Decision.CallFailed(record.id, call.getKey(), lost));
            }
        }
    }

    /**
     * Host {@code restarted} is back as a new run, which lost every attempt it
     * held in memory (its bindings' own recovery settles what they journaled).
     * The transport reports it before {@link #linkUp}. Everything the old run
     * was part of is treated as lost with its link, and decisions owed to it
     * are dropped: re-sent to the new run they would name attempts it never
     * saw, which a wire transport rightly refuses.
     */
    public void peerRestarted(int restarted) {
        linkDown(restarted);
        undelivered.values().removeIf(owed -> owed.hosts.remove(restarted) && owed.hosts.isEmpty());
    }

    /** The transport (re)connected host {@code reached}: decisions owed to it go out now. */
    public void linkUp(int reached) {
        down.remove(reached);
        for (Undelivered owed : undelivered.values()) {
            if (owed.hosts.contains(reached)) {
                send(reached, owed.decision);
            }
        }
        for (TxnRecord record : txns.values()) {
            if (record.inDoubt && (record.peers.contains(reached) || record.coordinator == reached)) {
                query(record, reached);
            }
        }
    }

    /**
     * Time passed. Coordinators re-send Prepare, Commit and Backout to
     * participants that have not answered for a while, so that a decision
     * reaches a participant whose messages were lost, and keep re-sending
     * decisions owed to participants that were unreachable.
     */
    public void tick() {
        for (RootRecord root : roots.values()) {
            if (root.phase == RootRecord.Phase.RUNNING || ++root.ticksSinceSend < resendTicks) {
                continue;
            }
            root.ticksSinceSend = 0;
            for (int participant : root.awaiting) {
                if (participant != host && !down.contains(participant)) {
                    send(participant, resendable(root));
                }
            }
        }
        for (Undelivered owed : undelivered.values()) {
            if (++owed.ticksSinceSend < resendTicks) {
                continue;
            }
            owed.ticksSinceSend = 0;
            for (int participant : owed.hosts) {
                if (!down.contains(participant)) {
                    send(participant, owed.decision);
                }
            }
        }
        for (TxnRecord record : txns.values()) {
            if (record.inDoubt && ++record.ticksSinceQuery >= resendTicks) {
                queryAll(record);
            }
        }
    }

    private Message resendable(RootRecord root) {
        if (root.phase == RootRecord.Phase.VOTING) {
            return new Message.Prepare(root.attempt, root.participants);
        }
        return root.result == Result.COMMITTED ? new Message.Commit(root.attempt) : new Message.Backout(root.attempt);
    }

    /** The participants other than this host and the coordinator: whom a participant in doubt asks. */
    private Set<Integer> peersOf(Set<Integer> participants, int coordinator) {
        Set<Integer> peers = new TreeSet<>(participants);
        peers.remove(host);
        peers.remove(coordinator);
        return Collections.unmodifiableSet(peers);
    }

    /**
     * A fixed copy of a host set that iterates in host order: {@code Set.copyOf}
     * iterates in an order salted per JVM, and the core must send the same
     * messages in the same order for the same inputs (simulation seeds replay).
     */
    private static Set<Integer> inOrder(Set<Integer> hosts) {
        return Collections.unmodifiableSet(new TreeSet<>(hosts));
    }

    private void send(int to, Message message) {
        messages.add(new Envelope(host, to, ++clock, message));
    }

    // ---- inspection for tests --------------------------------------------------------------

    /** True unless the transport reported host {@code other} unreachable. */
    public boolean canReach(int other) {
        return !down.contains(other);
    }

    /** Number of decisions still owed to participants that were unreachable. */
    public int undeliveredDecisions() {
        return undelivered.size();
    }

    /** Number of attempts with state or threads on this host. */
    public int liveAttempts() {
        return txns.size();
    }

    /** Number of variables that have lock holders or waiters on this host. */
    public int busyVariables() {
        return locks.busyVariables();
    }

    /** Number of lock requests waiting on this host. */
    public int waitingRequests() {
        return locks.waitingRequests();
    }

    /** The current priority of a live attempt on this host, or null. */
    public Priority priorityOf(TxnId txn) {
        TxnRecord record = txns.get(txn);
        return record == null ? null : record.priority;
    }

    /** True if the attempt is prepared (or preparing) here, so that it can no longer be wounded. */
    public boolean isPrepared(TxnId txn) {
        TxnRecord record = txns.get(txn);
        return record != null && record.prepared();
    }
}
