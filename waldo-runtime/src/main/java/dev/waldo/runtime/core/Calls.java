package dev.waldo.runtime.core;

import dev.waldo.runtime.core.TxnRecord.State;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The execution role of a host's core: calls made and served inside an
 * attempt, and the participants each reply reveals, which the coordinator
 * later asks to prepare.
 */
final class Calls {
    private final CoreState state;
    private final Locking locking;
    private Participant participant;
    private Coordinator coordinator;

    Calls(CoreState state, Locking locking) {
        this.state = state;
        this.locking = locking;
    }

    void wire(Participant participant, Coordinator coordinator) {
        this.participant = participant;
        this.coordinator = coordinator;
    }

    /** See {@link HostCore#call(TxnId, int, Object, boolean)}. */
    long call(TxnId txn, int to, Object request, boolean last) {
        TxnRecord record = state.txns.get(txn);
        if (record == null || record.state != State.ACTIVE) {
            return -1;
        }
        if (coordinator.sentLastCall(txn)) {
            coordinator.calledAfterLastCall(record);
            return HostCore.CALLED_AFTER_LAST;
        }
        long callId = ((long) state.host << 40) | ++state.calls;
        if (state.down.contains(to)) {
            state.decide(new Decision.CallFailed(txn, callId, to));
            return callId;
        }
        Set<Integer> prepareWith = last ? coordinator.prepareWith(record, to, callId) : null;
        record.outstanding.put(callId, to);
        state.send(to, new Message.Call(txn, record.priority, callId, request, prepareWith, record.snapshot));
        return callId;
    }

    /** See {@link HostCore#finishCall}. */
    void finishCall(TxnId txn, long callId, Object response, boolean wounded) {
        TxnRecord record = state.txns.get(txn);
        Integer caller = record == null ? null : record.serving.remove(callId);
        if (caller == null) {
            throw new IllegalStateException("call " + callId + " of " + txn + " is not being served here");
        }
        record.active--;
        if (wounded && record.state == State.ACTIVE) {
            locking.markWounded(record);
        }
        Set<Integer> touched = new HashSet<>(record.participants);
        touched.add(state.host);
        Set<Integer> prepareWith = record.prepareWith.remove(callId);
        if (prepareWith != null && canPrepareWithReply(record, caller)) {
            participant.prepareWithReply(record, caller, prepareWith,
                    new Message.Reply(txn, callId, response, false, touched));
            return;
        }
        state.send(caller, new Message.Reply(txn, callId, response, record.state == State.WOUNDED, touched));
        if (record.state == State.WOUNDED && record.active == 0 && state.txns.containsKey(txn)) {
            participant.backoutLocal(record);
        }
    }

    /**
     * A call that carried the prepare is prepared here with its reply only if the root's host
     * made it, nothing else of the attempt runs or waits here, the attempt was not wounded, and
     * it called no other host from here (the root would not know to prepare those in time).
     * Otherwise the reply goes back without a vote and the coordinator sends Prepare as usual.
     */
    private static boolean canPrepareWithReply(TxnRecord record, int caller) {
        return caller == record.id.host() && record.state == State.ACTIVE && record.active == 0
                && record.serving.isEmpty() && record.outstanding.isEmpty() && record.participants.isEmpty();
    }

    void onCall(int from, Message.Call call) {
        TxnRecord record = state.txns.get(call.txn());
        if (record == null && !state.ended.containsKey(call.txn()) && !state.votedReadOnly.contains(call.txn())) {
            record = new TxnRecord(call.txn(), call.priority());
            record.snapshot = call.snapshot();
            state.txns.put(call.txn(), record);
        }
        if (record == null || record.state != State.ACTIVE) {
            state.send(from, new Message.Reply(call.txn(), call.callId(), null, true, Set.of(state.host)));
            return;
        }
        if (call.priority().beats(record.priority)) {
            record.priority = call.priority();
        }
        record.callers.add(from);
        record.serving.put(call.callId(), from);
        if (call.prepareWith() != null) {
            record.prepareWith.put(call.callId(), call.prepareWith());
        }
        record.active++;
        state.decide(new Decision.RunCall(call.txn(), call.callId(), from, call.request()));
    }

    void onReply(Message.Reply reply) {
        TxnRecord record = state.txns.get(reply.txn());
        Integer to = record == null ? null : record.outstanding.remove(reply.callId());
        if (to == null) {
            return;
        }
        Set<Integer> learned = new HashSet<>(reply.participants());
        learned.add(to);
        learned.remove(state.host);
        learned.removeAll(record.participants);
        record.participants.addAll(learned);
        if (record.state == State.WOUNDED) {
            // Hosts learned only now may not have heard that this attempt ends here.
            for (int participant : learned) {
                state.send(participant, new Message.Backout(record.id));
            }
        }
        if (reply.wounded()) {
            locking.markWounded(record);
        }
        if (reply.vote() != null && record.state == State.ACTIVE) {
            coordinator.onEarlyVote(to, reply.vote());
        }
        state.decide(new Decision.Replied(reply.txn(), reply.callId(), reply.response(), reply.wounded()));
    }

    /** Calls outstanding to a host that was lost fail now. */
    void failCallsTo(TxnRecord record, int lost) {
        var calls = record.outstanding.entrySet().iterator();
        while (calls.hasNext()) {
            Map.Entry<Long, Integer> call = calls.next();
            if (call.getValue() == lost) {
                calls.remove();
                coordinator.callFailed(record, call.getKey(), lost);
                state.decide(new Decision.CallFailed(record.id, call.getKey(), lost));
            }
        }
    }
}
