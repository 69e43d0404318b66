package dev.waldo.runtime.core;

import dev.waldo.runtime.core.Message.Verdict;
import dev.waldo.runtime.core.TxnRecord.State;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The participant role of a host's core: prepare and vote (logging a yes
 * vote before it leaves), commit and backout here, acknowledgements, and an
 * attempt in doubt — one whose coordinator was lost after a yes vote, or that
 * a restart found logged as prepared — which asks its peers and coordinator
 * for the outcome (cooperative termination).
 */
final class Participant {
    /**
     * A deliberately broken scheduler, for waldo-check's test that its checker catches one: with
     * the system property {@code waldo.test.releaseLocksAtVote=true} an attempt's locks go as soon
     * as it votes yes, before the decision, so others read and overwrite state it is about to
     * install. Never set it elsewhere.
     */
    private static final boolean RELEASE_LOCKS_AT_VOTE = Boolean.getBoolean("waldo.test.releaseLocksAtVote");
    private final CoreState state;
    private final Locking locking;
    private Coordinator coordinator;
    /**
     * A deliberately broken participant, for the simulation's test that it catches one: an
     * attempt prepared with its call's reply releases its locks as that reply carries the yes
     * vote, before the decision. Set only through {@link HostCore#breakByReleasingLocksAtEarlyVote}.
     */
    boolean releaseLocksAtEarlyVote;
    /**
     * A deliberately broken delegate, for the simulation's test that it catches one: it commits a
     * delegated attempt without logging the commit, so after a restart it answers a delegation
     * sent again as backed out though it committed. Set only through
     * {@link HostCore#breakBySkippingDelegatedCommitLog}.
     */
    boolean skipDelegatedCommitLog;
    /**
     * Attempts installed or discarded here that wait for {@link #finished}: their bindings are
     * still committing or undoing (those keep their locks meanwhile), or their end is still to be
     * logged. Each record's {@code acksOwed} says whom to acknowledge then.
     */
    private final Map<TxnId, TxnRecord> finishing = new HashMap<>();
    /** Logged attempts that ended here: their end is logged once the host layer applied it. */
    private final Map<TxnId, Boolean> endsToLog = new HashMap<>();
    /** Logged attempts whose records may be forgotten once they are acknowledged. */
    private final Set<TxnId> forgetOnAck = new HashSet<>();
    private final Set<TxnId> heuristicallyCommitted = new HashSet<>();
    private final Set<TxnId> heuristicallyBackedOut = new HashSet<>();
    /** Installs shared appends in the order of their commits' stamps. */
    private final AppendOrder appendOrder = new AppendOrder();
    /** True while {@link #installReleased} installs: an install it makes does not start another round. */
    private boolean releasing;
    private int heuristicHazards;

    Participant(CoreState state, Locking locking) {
        this.state = state;
        this.locking = locking;
    }

    void wire(Coordinator coordinator) {
        this.coordinator = coordinator;
    }

    // ---- prepare and vote -----------------------------------------------------------------

    void onPrepare(int from, Message.Prepare prepare) {
        TxnId txn = prepare.txn();
        TxnRecord record = state.txns.get(txn);
        if (record == null && state.votedReadOnly.contains(txn)) {
            state.send(from, new Message.Vote(txn, Verdict.READ_ONLY, null, false)); // the vote was lost or is late
            return;
        }
        if (record == null || record.state == State.WOUNDED || record.active > 0) {
            state.send(from, new Message.Vote(txn, Verdict.WOUNDED,
                    "attempt " + txn + " was backed out on host " + state.host, false));
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
            String refusal = locking.validate(record);
            if (refusal != null) {
                state.send(from, new Message.Vote(txn, Verdict.WOUNDED, refusal + " (host " + state.host + ")", false));
                abandon(record);
                return;
            }
            record.state = State.PREPARING;
            record.coordinator = from;
            record.peers = state.peersOf(prepare.participants(), from);
            state.decide(new Decision.PrepareLocal(txn));
        }
    }

    /**
     * The coordinator delegated the decision here (see {@link Message.Delegate}): prepare, and
     * decide at the vote ({@link #decideDelegated}). A delegation this host already decides is
     * ignored (it answers when done); one for an attempt that ended here is answered with its
     * outcome; one for an attempt it does not know (it restarted, or forgot what the root's host
     * acknowledged) was never committed here, since a delegated commit is logged before its
     * answer leaves and kept until acknowledged: it is backed out, and stays so.
     */
    void onDelegate(int from, TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        if (record == null) {
            boolean yes = coordinator.outcomeOf(txn) == Message.Outcome.COMMITTED;
            if (!yes) {
                state.ended.put(txn, false); // a delegation that arrives later is refused too
            }
            state.send(from, new Message.Vote(txn, yes ? Verdict.YES : Verdict.WOUNDED,
                    yes ? null : "attempt " + txn + " was backed out on host " + state.host, false));
            return;
        }
        if (record.delegated) {
            return;
        }
        if (record.state != State.ACTIVE || record.active > 0) {
            state.send(from, new Message.Vote(txn, Verdict.WOUNDED,
                    "attempt " + txn + " was backed out on host " + state.host, false));
            abandon(record);
            return;
        }
        String refusal = locking.validate(record);
        if (refusal != null) {
            state.send(from, new Message.Vote(txn, Verdict.WOUNDED, refusal + " (host " + state.host + ")", false));
            abandon(record);
            return;
        }
        record.state = State.PREPARING;
        record.coordinator = from;
        record.delegated = true;
        state.decide(new Decision.PrepareLocal(txn));
    }

    /**
     * The bindings of a delegated attempt voted: this host decides. A commit is logged first
     * (persist before you send: a root's host that missed the answer asks again, perhaps after
     * a restart here, and must hear "committed"), owed to the root's host until it
     * acknowledges, and installed; the answer leaves once the bindings finished (see
     * {@link #acknowledge}). A no backs out and answers at once, as REFUSED if a binding said no,
     * WOUNDED (the root retries) if a check that ended after the prepare began refused it.
     */
    private void decideDelegated(TxnRecord record, Verdict verdict, String reason, byte[] payload) {
        boolean yes = verdict == Verdict.YES;
        record.state = State.PREPARED;
        if (!yes || record.backoutAfterVote) {
            record.localVote = yes ? Verdict.WOUNDED : verdict;
            backoutLocal(record);
            state.send(record.coordinator, new Message.Vote(record.id, record.localVote,
                    yes ? "attempt " + record.id + " was backed out on host " + state.host : reason, false));
            return;
        }
        record.localVote = Verdict.YES;
        if (!skipDelegatedCommitLog) {
            // Its part, as a participant's (a restart installs it again), and the decision, in one write.
            logPrepared(record, payload);
            state.persist(new StorageRecord.Committed(record.id, Set.of(record.coordinator)));
        }
        coordinator.delegatedCommitLogged(record.id, record.coordinator);
        record.acksOwed.add(state.host); // the logged commit is kept until this part installed
        if (AppendOrder.appends(record)) {
            stampVote(record); // deciding alone, its vote's stamp is its commit's
        }
        commitLocal(record, record.preparedAt);
    }

    /**
     * The root's last call, which carried the prepare, was served here: prepare now, and hold
     * {@code reply} until the vote, which it then carries back to the coordinator (the caller).
     */
    void prepareWithReply(TxnRecord record, int coordinatorHost, Set<Integer> prepareWith, Message.Reply reply) {
        if (locking.validate(record) != null) {
            // Refused before the bindings prepared: the reply goes back wounded, and the root retries.
            state.send(coordinatorHost, new Message.Reply(reply.txn(), reply.callId(), reply.response(), true,
                    reply.participants()));
            abandon(record);
            return;
        }
        record.state = State.PREPARING;
        record.coordinator = coordinatorHost;
        record.peers = state.peersOf(prepareWith, coordinatorHost);
        record.heldReply = reply;
        state.decide(new Decision.PrepareLocal(record.id));
    }

    /**
     * The coordinator's own part of an attempt it asks to vote: the local bindings prepare
     * unless the concurrency control refuses the attempt first (an optimistic host found that
     * something it read changed since), in which case its own vote is WOUNDED and the root
     * retries, as after a wound. Every path to the bindings' prepare validates first (here,
     * {@link #onPrepare}, {@link #prepareWithReply}), so that the validation locks protect
     * the state the bindings push to their devices.
     */
    void prepareOwnPart(TxnRecord record) {
        String refusal = locking.validate(record);
        if (refusal == null) {
            state.decide(new Decision.PrepareLocal(record.id));
            return;
        }
        record.state = State.PREPARED;
        record.localVote = Verdict.WOUNDED;
        record.localReason = refusal + " (host " + state.host + ")";
        deliverVote(record);
    }

    /** See {@link HostCore#vote(TxnId, boolean, String, boolean, byte[])}. */
    void vote(TxnId txn, boolean yes, String reason, boolean finishLater, byte[] payload) {
        vote(txn, yes ? Verdict.YES : Verdict.REFUSED, reason, finishLater, payload);
    }

    /**
     * The host layer prepared {@code txn}, which changed nothing here (see {@link
     * HostCore#voteReadOnly}): votes READ_ONLY, releases its locks and forgets it, if it only read
     * here under locks for another host's root; else votes yes as usual.
     */
    boolean voteReadOnly(TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        boolean readOnly = record != null && record.state == State.PREPARING && mayVoteReadOnly(record);
        vote(txn, readOnly ? Verdict.READ_ONLY : Verdict.YES, null, false, HostCore.NO_PAYLOAD);
        return readOnly;
    }

    /** After its READ_ONLY vote left: the attempt ends here, with nothing to install or log. */
    private void forgetReadOnly(TxnRecord record) {
        state.txns.remove(record.id);
        state.votedReadOnly.add(record.id);
        locking.releaseLocks(record);
        state.decide(new Decision.Discard(record.id, false)); // nothing to install: the host layer drops what it read
    }

    /**
     * Whether the attempt may leave here at its vote: it took part for another host's root (the
     * root's own part waits for the decision with it), not by delegation, not as a snapshot
     * reader (which validates at its vote), on a locking host (an optimistic one validates reads
     * at the vote and keeps no read locks), and every lock it holds here is READ.
     */
    private boolean mayVoteReadOnly(TxnRecord record) {
        if (record.coordinator == state.host || record.delegated || record.snapshot || locking.optimistic()
                || record.anyLockMayAppend) {
            return false;
        }
        for (LockId lock : record.held) {
            if (lock.mode() != LockMode.READ) {
                return false;
            }
        }
        return true;
    }

    /**
     * Votes on a preparing attempt: YES, READ_ONLY ({@link #voteReadOnly}), REFUSED (a binding
     * said no: not retried) or WOUNDED (a check that ended after the prepare began refused it,
     * such as a read-only attempt's snapshot validation waiting for writers' coordinators: its
     * root retries it).
     */
    void vote(TxnId txn, Verdict verdict, String reason, boolean finishLater, byte[] payload) {
        TxnRecord record = state.txns.get(txn);
        if (record == null || record.state != State.PREPARING) {
            return;
        }
        boolean yes = verdict == Verdict.YES;
        record.finishLater = finishLater;
        if (record.delegated) {
            decideDelegated(record, verdict, reason, payload);
            return;
        }
        record.state = State.PREPARED;
        record.localVote = verdict;
        record.localReason = reason;
        if (record.backoutAfterVote) {
            releaseHeldReply(record);
            backoutLocal(record);
            return;
        }
        if (verdict == Verdict.READ_ONLY) {
            deliverVote(record);
            forgetReadOnly(record);
            return;
        }
        if (yes && AppendOrder.appends(record)) {
            stampVote(record);
        }
        if (yes && !record.snapshot && (record.coordinator != state.host || !record.peers.isEmpty())) {
            // A coordinator logs its own part too: a restart must finish it like any participant's.
            // A read-only attempt has nothing to finish after a restart: its vote is not logged.
            logPrepared(record, payload);
        }
        boolean early = record.heldReply != null;
        deliverVote(record);
        if (yes && (RELEASE_LOCKS_AT_VOTE || releaseLocksAtEarlyVote && early)) {
            locking.releaseLocks(record);
        }
        if (record.coordinator != state.host && state.down.contains(record.coordinator)) {
            coordinatorLost(record);
        }
    }

    /** Places an appender's yes vote in the order of shared appends: at this host's clock, now. */
    private void stampVote(TxnRecord record) {
        record.preparedAt = state.stamp();
        appendOrder.voted(record);
    }

    /**
     * Persist before you send: once the yes vote leaves, the coordinator may
     * commit, so a restart must find this host prepared, with whom to ask.
     */
    private void logPrepared(TxnRecord record, byte[] payload) {
        List<LockId> locks = new ArrayList<>();
        for (LockId lock : record.held) {
            if (!locks.contains(lock.wholeLock())) {
                locks.add(lock.wholeLock()); // map keys need not be storable; the whole variable covers them
            }
        }
        state.persist(new StorageRecord.Prepared(record.id, record.coordinator, record.peers, locks, payload));
        record.logged = true;
    }

    /** A reply held for its vote goes back without one: the coordinator already backed the attempt out. */
    private void releaseHeldReply(TxnRecord record) {
        Message.Reply held = record.heldReply;
        if (held != null) {
            record.heldReply = null;
            state.send(record.coordinator, new Message.Reply(held.txn(), held.callId(), held.response(), true,
                    held.participants()));
        }
    }

    private void deliverVote(TxnRecord record) {
        // An appender's install may wait for others' (AppendOrder): the root's caller waits for it too.
        boolean bound = record.finishLater || record.preparedAt != 0 && !appendOrder.unordered;
        Message.Vote vote = new Message.Vote(record.id, record.localVote, record.localReason,
                bound && record.localVote == Verdict.YES);
        Message.Reply held = record.heldReply;
        if (held != null) {
            record.heldReply = null;
            state.send(record.coordinator, new Message.Reply(held.txn(), held.callId(), held.response(), false,
                    held.participants(), vote));
        } else if (record.coordinator == state.host) {
            coordinator.onVote(state.host, vote);
        } else {
            state.send(record.coordinator, vote);
        }
    }

    // ---- commit and backout ---------------------------------------------------------------

    void onCommit(int from, Message.Commit commit) {
        TxnId txn = commit.txn();
        TxnRecord record = state.txns.get(txn);
        if (record == null) {
            if (heuristicallyBackedOut.remove(txn)) {
                heuristicHazards++; // resolveInDoubt guessed backout; the coordinator had decided commit
            }
            acknowledgeEnded(from, txn); // a re-sent Commit: already installed
            return;
        }
        record.acksOwed.add(from);
        commitLocal(record, commit.stamp());
    }

    void onBackout(int from, TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        if (record == null) {
            if (heuristicallyCommitted.remove(txn)) {
                heuristicHazards++; // resolveInDoubt guessed commit; the coordinator had decided backout
            }
            state.ended.putIfAbsent(txn, false);
            acknowledgeEnded(from, txn);
            return;
        }
        record.acksOwed.add(from);
        abandon(record);
    }

    /**
     * Ends the attempt's part here and downstream without committing, as soon
     * as that is safe: for a coordinator's backout, or because this host lost
     * its way to the caller. Unlike a wound it does not stop the root, which
     * may go on without this host (after catching a NetworkException).
     */
    void abandon(TxnRecord record) {
        switch (record.state) {
            case PREPARING -> record.backoutAfterVote = true;
            case PREPARED -> backoutLocal(record);
            case ACTIVE, WOUNDED -> {
                if (record.state == State.ACTIVE) {
                    record.state = State.WOUNDED;
                    state.decide(new Decision.Wounded(record.id));
                    for (int callee : record.downstream(state.host)) {
                        state.send(callee, new Message.Backout(record.id));
                    }
                    locking.cancelWaits(record);
                }
                if (record.active == 0) {
                    backoutLocal(record);
                }
            }
        }
    }

    void backoutLocal(TxnRecord record) {
        end(record, false);
        state.decide(new Decision.Discard(record.id, record.prepared()));
        settle(record);
        installReleased();
    }

    /**
     * The attempt committed, with the commit's {@code stamp} (0 if not known: a heuristic
     * decision, or a peer that sent none): installs it now, or, if it appends to a list that an
     * attempt ordered before it still appends to here, once that one ended ({@link AppendOrder}).
     */
    void commitLocal(TxnRecord record, long stamp) {
        state.clock = Math.max(state.clock, stamp); // every vote from now on is stamped above it
        state.committedAt(record.id, stamp);
        record.commitStamp = stamp != 0 ? stamp : ++state.clock;
        record.inDoubt = false; // decided: a held-back install waits for no coordinator
        if (appendOrder.mayInstall(record)) {
            installLocal(record);
        } else {
            installReleased(); // its stamp may put it after an install it held back while undecided
        }
    }

    /** See {@link HostCore#breakByInstallingAppendsAsTheyArrive}. */
    void breakAppendOrder() {
        appendOrder.unordered = true;
    }

    /** Installs the committed attempts whose turn came, as the ending of another released them. */
    private void installReleased() {
        if (releasing || !appendOrder.holdsBack()) {
            return;
        }
        releasing = true;
        try {
            boolean installed;
            do {
                installed = false;
                for (TxnRecord record : appendOrder.heldBack()) {
                    if (state.txns.get(record.id) == record && appendOrder.mayInstall(record)) {
                        installLocal(record); // may release others: the round goes again
                        installed = true;
                    }
                }
            } while (installed);
        } finally {
            releasing = false;
        }
    }

    private void installLocal(TxnRecord record) {
        locking.installed(record);
        end(record, true);
        state.decide(new Decision.Install(record.id));
        settle(record);
        installReleased();
    }

    /**
     * Forgets the live attempt. A logged one logs its end only once the host
     * layer applied it ({@link #finished}): logged earlier, a crash between
     * the log and the install would leave the install undone for good.
     */
    private void end(TxnRecord record, boolean committed) {
        appendOrder.ended(record);
        state.txns.remove(record.id);
        state.ended.put(record.id, committed);
        if (record.logged) {
            endsToLog.put(record.id, committed);
            // The coordinator's own committed part is forgotten with its logged commit, once every
            // participant acknowledged; a restored attempt's bindings finish through their own
            // recovery, which may ask again after another restart, so its end stays on record.
            boolean ownCommit = committed && (record.coordinator == state.host || record.delegated);
            if (!record.restored && !ownCommit) {
                forgetOnAck.add(record.id);
            }
        }
    }

    /**
     * Releases an ended attempt's locks and acknowledges, now or at
     * {@link #finished}. An attempt whose bindings took part here keeps its
     * locks until they finished: the outside system holds the attempt's
     * change until their commit or abort is done (an undo pushes the old
     * state back), so a transaction that took the locks sooner would load
     * the outside system mid-change and push what it read back again.
     */
    private void settle(TxnRecord record) {
        if (!record.finishLater) {
            locking.releaseLocks(record);
        }
        if (record.finishLater || record.logged) {
            finishing.put(record.id, record);
            return;
        }
        acknowledge(record);
    }

    /**
     * Acknowledges an ended attempt to whoever sent its decision. The acknowledgement of a
     * commit whose bindings did not take part here is unhurried (see {@link Envelope}): the
     * root's caller returned at the decision, and the ack only lets the coordinator forget it.
     * A backout's is not: the root retries only once every participant acknowledged it.
     */
    private void acknowledge(TxnRecord record) {
        TxnId txn = record.id;
        Boolean committed = endsToLog.remove(txn);
        if (committed != null) {
            state.persist(new StorageRecord.Ended(txn, committed)); // before the acknowledgement leaves
        }
        boolean unhurried = Boolean.TRUE.equals(state.ended.get(txn)) && !record.finishLater;
        if (record.delegated && record.localVote == Verdict.YES) {
            // The outcome of a delegated commit, once its bindings committed: the root's caller waits for it.
            state.send(record.coordinator, new Message.Vote(txn, Verdict.YES, null, false));
        }
        for (int to : new TreeSet<>(record.acksOwed)) {
            if (to == state.host) {
                coordinator.onAck(state.host, txn);
            } else if (unhurried) {
                state.sendUnhurried(to, new Message.Ack(txn));
            } else {
                state.send(to, new Message.Ack(txn));
            }
        }
        if (forgetOnAck.remove(txn)) {
            state.persist(new StorageRecord.Forgotten(txn));
        }
    }

    /** See {@link HostCore#finished}. */
    void finished(TxnId txn) {
        TxnRecord record = finishing.remove(txn);
        if (record != null) {
            locking.releaseLocks(record);
            acknowledge(record);
        }
    }

    /** Attempts installed or discarded here that wait for {@link #finished}. */
    int finishingAttempts() {
        return finishing.size();
    }

    /** Answers a commit or backout for an attempt that already ended here, once its bindings finished. */
    private void acknowledgeEnded(int from, TxnId txn) {
        TxnRecord record = finishing.get(txn);
        if (record != null) {
            record.acksOwed.add(from);
        } else {
            state.send(from, new Message.Ack(txn));
        }
    }

    // ---- cooperative termination ----------------------------------------------------------

    /**
     * The coordinator of a prepared attempt became unreachable. A no vote
     * means the coordinator cannot commit: back out now. After a yes vote the
     * outcome is unknown here; the peers may know it (one committed, or one
     * never voted yes and so can veto), so ask them, and keep asking on ticks.
     */
    void coordinatorLost(TxnRecord record) {
        if (record.state != State.PREPARED || record.commitStamp != 0) {
            return; // still preparing (vote() comes back here once the bindings voted), or committed
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
            state.send(peer, new Message.Query(record.id));
        }
        if (record.coordinator != state.host) {
            state.send(record.coordinator, new Message.Query(record.id)); // back, perhaps after a restart
        }
    }

    /**
     * What this participant can tell a host that asks about {@code txn}, or
     * null if it has nothing to say (the coordinator role answers then). A
     * host that has not voted yes vetoes: it backs the attempt out (so it
     * never votes yes later) and answers backed out.
     */
    Message.Outcome outcomeOf(TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        if (record == null) {
            Boolean committed = state.ended.get(txn);
            return committed == null ? null : committed ? Message.Outcome.COMMITTED : Message.Outcome.BACKED_OUT;
        }
        return switch (record.state) {
            case ACTIVE, WOUNDED -> {
                abandon(record);
                yield Message.Outcome.BACKED_OUT;
            }
            case PREPARING -> Message.Outcome.UNDECIDED;
            case PREPARED -> record.commitStamp != 0 ? Message.Outcome.COMMITTED // its install waits its turn
                    : record.localVote == Verdict.YES ? Message.Outcome.UNDECIDED : Message.Outcome.BACKED_OUT;
        };
    }

    void onAnswer(Message.Answer answer) {
        TxnRecord record = state.txns.get(answer.txn());
        if (record == null || !record.inDoubt) {
            return; // decided meanwhile, or an answer this host never needed
        }
        if (answer.outcome() == Message.Outcome.COMMITTED && answer.stamp() == 0 && appendOrder.orders(record)) {
            return; // an appender needs the commit's stamp to take its place: asked again on a later tick
        }
        if (answer.outcome() != Message.Outcome.UNDECIDED && record.logged) {
            // The coordinator keeps its logged commit until every participant acknowledged it.
            record.acksOwed.add(record.coordinator);
        }
        switch (answer.outcome()) {
            case COMMITTED -> commitLocal(record, answer.stamp());
            case BACKED_OUT -> backoutLocal(record);
            case UNDECIDED -> { } // asked again on a later tick
        }
    }

    /** See {@link HostCore#recover}. */
    boolean recover(TxnId txn, Set<Integer> peers) {
        TxnRecord live = state.txns.get(txn);
        if (live != null) {
            return live.restored && live.inDoubt; // taken up from storage at start: its decision is still to come
        }
        Boolean committed = state.ended.get(txn);
        if (committed != null) {
            state.decide(committed ? new Decision.Install(txn) : new Decision.Discard(txn, true));
            return true;
        }
        if (state.earlierRunsLogged && !state.preparedInEarlierRuns.contains(txn)) {
            // The log every yes vote of this host goes to before it leaves holds no prepare of it:
            // no earlier run voted yes, so its coordinator cannot have committed it. Back it out
            // here at once, whoever else is reachable (its other participants may have forgotten it).
            state.ended.put(txn, false);
            state.decide(new Decision.Discard(txn, true));
            return true;
        }
        TxnRecord record = inDoubtRecord(txn, txn.host(), state.peersOf(peers, txn.host()));
        state.txns.put(txn, record);
        queryAll(record);
        return true;
    }

    /**
     * Whether {@link #recover} can settle or attach to {@code txn} from what the log told this
     * run, without being told whom to ask: taken up from storage, ended in this run, or never
     * prepared by a logged earlier run (so backed out at once).
     */
    boolean knownFromStorage(TxnId txn) {
        TxnRecord live = state.txns.get(txn);
        return (live != null && live.restored) || state.ended.containsKey(txn)
                || (state.earlierRunsLogged && !state.preparedInEarlierRuns.contains(txn));
    }

    /** See {@link HostCore#restoredInDoubt}. */
    Map<TxnId, Set<Integer>> restoredInDoubt() {
        Map<TxnId, Set<Integer>> restored = new TreeMap<>(Comparator.comparingInt(TxnId::host).thenComparingLong(TxnId::serial));
        for (TxnRecord record : state.txns.values()) {
            if (record.restored && record.inDoubt) {
                restored.put(record.id, participantsToAsk(record.id));
            }
        }
        return restored;
    }

    private TxnRecord inDoubtRecord(TxnId txn, int coordinatorHost, Set<Integer> peers) {
        TxnRecord record = new TxnRecord(txn, new Priority(false, 0, txn.host(), txn.serial()));
        record.state = State.PREPARED;
        record.localVote = Verdict.YES;
        record.coordinator = coordinatorHost;
        record.peers = peers;
        record.inDoubt = true;
        return record;
    }

    /**
     * Takes up what the log says this host prepared in an earlier run. An
     * attempt with its end logged is remembered as ended (and acknowledged to
     * its coordinator, which keeps its logged commit until then). An attempt
     * whose commit this host logged (as coordinator, or as a fast commit's
     * delegate) is committed by {@link #installLoggedCommit} once every
     * record is restored, and its logged commit is kept until it installed.
     * This host's own part of an attempt it coordinated without logging a
     * commit is backed out now (presumed abort), unless a decision register
     * settles outcomes (it may hold a commit this host did not live to log).
     * Any other is in doubt and asks its peers and coordinator. Both keep
     * their variables locked if {@code retakeLocks}.
     */
    void restore(StorageRecord.Prepared prepared, Boolean endedCommitted, boolean commitLogged, boolean retakeLocks) {
        TxnId txn = prepared.txn();
        boolean own = prepared.coordinator() == state.host;
        if (endedCommitted != null) {
            state.ended.put(txn, endedCommitted);
            if (!own && !commitLogged) { // a delegate's logged commit is acknowledged to it, not by it
                state.send(prepared.coordinator(), new Message.Ack(txn));
            }
            return;
        }
        TxnRecord record = inDoubtRecord(txn, prepared.coordinator(), CoreState.inOrder(prepared.peers()));
        record.logged = true;
        record.restored = true;
        state.txns.put(txn, record);
        // A logged commit is this host's own decision: as coordinator, or as the delegate of a fast commit.
        if (commitLogged || own && !state.replicatedDecisions) {
            record.inDoubt = false;
            if (commitLogged) {
                retake(record, prepared, retakeLocks); // installed by installLoggedCommit, once every record is restored
                record.acksOwed.add(state.host);
                coordinator.awaitRestoredPart(txn);
            } else {
                backoutLocal(record); // presumed abort: this host alone decided, and logged no commit
            }
            return;
        }
        if (!own) {
            record.acksOwed.add(prepared.coordinator());
        }
        // Else the register may have settled it as committed before this host logged the commit: in doubt.
        retake(record, prepared, retakeLocks);
        queryAll(record);
    }

    /**
     * Keeps a restored attempt's variables locked (if {@code retakeLocks}) and, if it may have
     * appended, places it in the order of shared appends with no stamp: it holds back every
     * overlapping commit until it is decided.
     */
    private void retake(TxnRecord record, StorageRecord.Prepared prepared, boolean retakeLocks) {
        if (!retakeLocks) {
            return;
        }
        for (LockId lock : prepared.locks()) {
            record.held.add(lock);
            locking.retake(record, lock);
        }
        record.anyLockMayAppend = true;
        if (AppendOrder.appends(record)) {
            appendOrder.voted(record);
        }
    }

    /**
     * Installs a restored attempt whose commit this host logged (see {@link #restore}), with the
     * logged stamp, once every logged record is restored: in the run that logged the commit, its
     * install may have been held back behind an appender ordered before it, which is now restored
     * in doubt and must install first (installed at once, it would take its place before that one
     * here while other hosts put it after).
     */
    void installLoggedCommit(TxnId txn, long stamp) {
        TxnRecord record = state.txns.get(txn);
        if (record != null && record.restored && !record.inDoubt && record.commitStamp == 0) {
            commitLocal(record, stamp);
        }
    }

    // ---- in doubt --------------------------------------------------------------------------

    /** See {@link HostCore#participantsToAsk}. */
    Set<Integer> participantsToAsk(TxnId txn) {
        TxnRecord record = state.txns.get(txn);
        if (record == null || !record.prepared() || record.coordinator < 0) {
            return Set.of();
        }
        Set<Integer> hosts = new TreeSet<>(record.peers);
        if (record.coordinator != state.host) {
            hosts.add(record.coordinator);
        }
        return Collections.unmodifiableSet(hosts);
    }

    /** See {@link HostCore#resolveInDoubt}. */
    boolean resolveInDoubt(TxnId txn, boolean commit) {
        TxnRecord record = state.txns.get(txn);
        if (record == null || !lostCoordinator(record)) {
            return false;
        }
        if (commit) {
            heuristicallyCommitted.add(txn);
            commitLocal(record, 0); // a guess with no stamp: ordered after every commit this host knows
        } else {
            heuristicallyBackedOut.add(txn);
            backoutLocal(record);
        }
        return true;
    }

    /** Prepared here, coordinated elsewhere, and the coordinator is (or was, since the vote) unreachable. */
    private boolean lostCoordinator(TxnRecord record) {
        return record.prepared() && record.commitStamp == 0 && record.coordinator != state.host
                && (record.inDoubt || state.down.contains(record.coordinator));
    }

    int heuristicHazards() {
        return heuristicHazards;
    }

    List<TxnId> inDoubt() {
        List<TxnId> inDoubt = new ArrayList<>();
        for (TxnRecord record : state.txns.values()) {
            if (lostCoordinator(record)) {
                inDoubt.add(record.id);
            }
        }
        return inDoubt;
    }

    // ---- links and time --------------------------------------------------------------------

    /** A prepared attempt whose coordinator was lost goes in doubt. */
    void linkDown(TxnRecord record, int lost) {
        if (record.prepared() && record.coordinator == lost && !record.inDoubt) {
            coordinatorLost(record);
        }
    }

    /** Attempts in doubt ask a host that became reachable again. */
    void linkUp(int reached) {
        for (TxnRecord record : state.txns.values()) {
            if (record.inDoubt && (record.peers.contains(reached) || record.coordinator == reached)) {
                state.send(reached, new Message.Query(record.id));
            }
        }
    }

    /** Whether {@link #tick} has anything to do: an attempt in doubt here. */
    boolean needsTicks() {
        for (TxnRecord record : state.txns.values()) {
            if (record.inDoubt) {
                return true;
            }
        }
        return false;
    }

    /**
     * Attempts in doubt ask again every few ticks. With replicated decisions they also ask the
     * register to settle them as backed out: if the coordinator had it settle a commit first,
     * the register answers committed, so no attempt waits on a lost coordinator for longer.
     */
    void tick() {
        for (TxnRecord record : state.txns.values()) {
            if (record.inDoubt && ++record.ticksSinceQuery >= state.resendTicks) {
                queryAll(record);
                if (state.replicatedDecisions) {
                    state.decide(new Decision.Register(record.id, 0));
                }
            }
        }
    }

    /** The decision register settled {@code txn}: an attempt in doubt here ends as it says. */
    void registered(TxnId txn, long commitStamp) {
        onAnswer(new Message.Answer(txn, commitStamp != 0 ? Message.Outcome.COMMITTED : Message.Outcome.BACKED_OUT,
                0, commitStamp));
    }
}
