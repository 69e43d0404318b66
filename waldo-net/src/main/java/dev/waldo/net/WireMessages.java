package dev.waldo.net;

import dev.waldo.net.wire.Ack;
import dev.waldo.net.wire.Answer;
import dev.waldo.net.wire.Backout;
import dev.waldo.net.wire.Call;
import dev.waldo.net.wire.Commit;
import dev.waldo.net.wire.Delegate;
import dev.waldo.net.wire.Entry;
import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.Invocation;
import dev.waldo.net.wire.Prepare;
import dev.waldo.net.wire.Promote;
import dev.waldo.net.wire.Query;
import dev.waldo.net.wire.Reply;
import dev.waldo.net.wire.Response;
import dev.waldo.net.wire.StepInvocation;
import dev.waldo.net.wire.Value;
import dev.waldo.net.wire.Vote;
import dev.waldo.net.wire.Wound;
import dev.waldo.runtime.Requests;
import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.core.TxnId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The mapping between each core {@link Message} and its wire message, field
 * by field. Names and hosts become aliases of the connection; Waldo values go
 * through the {@link ValueCodec}. Decoding checks what protobuf cannot: the
 * frame carries a protocol message, and every alias and enum is known.
 */
final class WireMessages {
    /**
     * The response of a call that returned nothing and changed no sequence data: a Reply that is
     * not wounded and carries no response means this one (two bytes less on the usual reply).
     */
    private static final Requests.Response NOTHING = new Requests.Response(Requests.Kind.VALUE, null, null, Map.of(),
            false);
    private final ValueCodec values;
    private final ProtocolCodec.Aliases aliases;

    WireMessages(ValueCodec values, ProtocolCodec.Aliases aliases) {
        this.values = values;
        this.aliases = aliases;
    }

    // ---- encoding --------------------------------------------------------------------------

    void encode(Message message, long clock, Frame.Builder frame) {
        TxnId txn = message.txn();
        int host = aliases.hostAlias(txn.host());
        long serial = aliases.serialDelta(txn);
        switch (message) {
            case Message.Call call -> frame.setCall(encodeCall(call, clock, host, serial));
            case Message.Reply reply -> frame.setReply(encodeReply(reply, host, serial));
            case Message.Wound ignored -> frame.setWound(Wound.newBuilder().setTxnHost(host).setTxnSerial(serial));
            case Message.Promote promote -> frame.setPromote(Promote.newBuilder().setTxnHost(host).setTxnSerial(serial)
                    .setPriority(aliases.priority(promote.priority(), txn, clock)));
            case Message.Prepare prepare -> frame.setPrepare(Prepare.newBuilder().setTxnHost(host).setTxnSerial(serial)
                    .addAllParticipants(aliases.thirdPartyAliases(prepare.participants())));
            case Message.Vote vote -> frame.setVote(Vote.newBuilder().setTxnHost(host).setTxnSerial(serial)
                    .setVerdictValue(vote.verdict().ordinal()).setReason(vote.reason() == null ? "" : vote.reason())
                    .setUnbound(!vote.bound()));
            case Message.Commit commit -> {
                Commit.Builder wire = Commit.newBuilder().setTxnHost(host).setTxnSerial(serial);
                if (commit.stamp() != 0) {
                    wire.setStampBefore(clock - commit.stamp());
                }
                frame.setCommit(wire);
            }
            case Message.Backout ignored -> frame.setBackout(Backout.newBuilder().setTxnHost(host).setTxnSerial(serial));
            case Message.Ack ignored -> frame.setAck(Ack.newBuilder().setTxnHost(host).setTxnSerial(serial));
            case Message.Query query -> frame.setQuery(Query.newBuilder().setTxnHost(host).setTxnSerial(serial)
                    .setAsked(query.asked()));
            case Message.Delegate ignored -> frame.setDelegate(Delegate.newBuilder().setTxnHost(host).setTxnSerial(serial));
            case Message.Answer answer -> {
                Answer.Builder wire = Answer.newBuilder().setTxnHost(host).setTxnSerial(serial)
                        .setOutcomeValue(answer.outcome().ordinal()).setAsked(answer.asked());
                if (answer.stamp() != 0) {
                    wire.setStampBefore(clock - answer.stamp());
                }
                frame.setAnswer(wire);
            }
        }
    }

    private Call encodeCall(Message.Call call, long clock, int host, long serial) {
        Call.Builder wire = Call.newBuilder().setTxnHost(host).setTxnSerial(serial)
                .setPriority(aliases.priority(call.priority(), call.txn(), clock));
        switch (call.request()) {
            case Requests.Invocation invocation -> wire.setInvocation(encodeInvocation(invocation));
            case Requests.StepInvocation step -> {
                StepInvocation.Builder wireStep = StepInvocation.newBuilder().setObject(step.object())
                        .setSequence(aliases.nameAlias(step.sequence())).setStep(step.step())
                        .addAllChanges(entries(step.changes()));
                wire.setStep(wireStep.setFrame(aliases.frameIdOut(step.frame()))); // once nothing can fail
            }
            default -> throw new IllegalArgumentException("a Call carries a request, not "
                    + call.request().getClass().getName());
        }
        wire.setCallId(aliases.callIdOut(call.callId())); // relative ids advance only for what is sent
        if (call.prepareWith() != null) {
            wire.setPrepare(true).addAllPrepareParticipants(aliases.thirdPartyAliases(call.prepareWith()));
        }
        return wire.setSnapshot(call.snapshot()).build();
    }

    private Reply encodeReply(Message.Reply reply, int host, long serial) {
        Reply.Builder wire = Reply.newBuilder().setTxnHost(host).setTxnSerial(serial).setWounded(reply.wounded());
        for (int participant : reply.participants()) {
            if (!aliases.isLocal(participant)) {
                wire.addParticipants(aliases.hostAlias(participant));
            }
        }
        if (reply.response() != null && !NOTHING.equals(reply.response())) {
            wire.setResponse(encodeResponse(reply.response()));
        }
        wire.setCallId(aliases.replyIdOut(reply.callId())); // after the response, which may fail to encode
        Message.Vote vote = reply.vote();
        if (vote != null) {
            wire.setVote(1 + 2 * vote.verdict().ordinal() + (vote.bound() ? 0 : 1));
            if (vote.reason() != null) {
                wire.setReason(vote.reason());
            }
        }
        return wire.build();
    }

    private Invocation.Builder encodeInvocation(Requests.Invocation call) {
        Invocation.Builder invocation = Invocation.newBuilder().setObject(call.object())
                .setFunction(aliases.nameAlias(call.function()));
        for (Object arg : call.args()) {
            invocation.addArgs(values.encode(arg));
        }
        return invocation;
    }

    private Response encodeResponse(Object payload) {
        if (!(payload instanceof Requests.Response response)) {
            throw new IllegalArgumentException("a Reply carries a response, not " + payload.getClass().getName());
        }
        Response.Builder wire = Response.newBuilder().setKindValue(response.kind().ordinal())
                .setReturned(response.returned()).addAllChanges(entries(response.changes()));
        if (response.value() != null) {
            wire.setValue(values.encode(response.value()));
        }
        if (response.message() != null) {
            wire.setMessage(response.message());
        }
        return wire.build();
    }

    private List<Entry> entries(Map<String, Object> changes) {
        List<Entry> entries = new ArrayList<>(changes.size());
        for (Map.Entry<String, Object> change : changes.entrySet()) {
            entries.add(Entry.newBuilder().setName(aliases.nameAlias(change.getKey()))
                    .setValue(values.encode(change.getValue())).build());
        }
        return entries;
    }

    // ---- decoding --------------------------------------------------------------------------

    Message decode(Frame frame, long clock) {
        return switch (frame.getBodyCase()) {
            case CALL -> decodeCall(frame.getCall(), clock);
            case REPLY -> decodeReply(frame.getReply());
            case WOUND -> new Message.Wound(txn(frame.getWound().getTxnHost(), frame.getWound().getTxnSerial()));
            case PROMOTE -> decodePromote(frame.getPromote(), clock);
            case PREPARE -> new Message.Prepare(txn(frame.getPrepare().getTxnHost(), frame.getPrepare().getTxnSerial()),
                    aliases.receiverAnd(frame.getPrepare().getParticipantsList()));
            case VOTE -> decodeVote(frame.getVote());
            case COMMIT -> new Message.Commit(txn(frame.getCommit().getTxnHost(), frame.getCommit().getTxnSerial()),
                    frame.getCommit().hasStampBefore() ? clock - frame.getCommit().getStampBefore() : 0);
            case BACKOUT -> new Message.Backout(txn(frame.getBackout().getTxnHost(), frame.getBackout().getTxnSerial()));
            case ACK -> new Message.Ack(txn(frame.getAck().getTxnHost(), frame.getAck().getTxnSerial()));
            case QUERY -> new Message.Query(txn(frame.getQuery().getTxnHost(), frame.getQuery().getTxnSerial()),
                    frame.getQuery().getAsked());
            case ANSWER -> decodeAnswer(frame.getAnswer(), clock);
            case DELEGATE -> new Message.Delegate(txn(frame.getDelegate().getTxnHost(), frame.getDelegate().getTxnSerial()));
            case HELLO -> throw new ProtocolViolationException("peer sent a second Hello");
            case HEARTBEAT, ATTACH, ATTACHED, OPEN, OPENED, CLOSE -> throw new IllegalStateException(frame.getBodyCase()
                    + " frames never reach the core");
            case BODY_NOT_SET -> throw new ProtocolViolationException("frame carries no message");
        };
    }

    private TxnId txn(int hostAlias, long serial) {
        return aliases.txn(hostAlias, serial);
    }

    private Message decodeCall(Call call, long clock) {
        TxnId txn = txn(call.getTxnHost(), call.getTxnSerial());
        Object request = switch (call.getRequestCase()) {
            case INVOCATION -> decodeInvocation(call.getInvocation());
            case STEP -> new Requests.StepInvocation(call.getStep().getObject(),
                    aliases.frameIdIn(call.getStep().getFrame()),
                    aliases.name(call.getStep().getSequence()), call.getStep().getStep(),
                    changes(call.getStep().getChangesList()));
            case REQUEST_NOT_SET -> throw new ProtocolViolationException("call " + call.getCallId()
                    + " of attempt " + txn + " carries no request");
        };
        Set<Integer> prepareWith = call.getPrepare() ? aliases.receiverAnd(call.getPrepareParticipantsList()) : null;
        return new Message.Call(txn, aliases.priority(call.getPriority(), txn, clock),
                aliases.callIdIn(call.getCallId()), request, prepareWith, call.getSnapshot());
    }

    private Object decodeInvocation(Invocation invocation) {
        Object[] args = new Object[invocation.getArgsCount()];
        for (int i = 0; i < args.length; i++) {
            args[i] = values.decode(invocation.getArgs(i));
        }
        return new Requests.Invocation(invocation.getObject(), aliases.name(invocation.getFunction()), args);
    }

    private Message decodeReply(Reply reply) {
        TxnId txn = txn(reply.getTxnHost(), reply.getTxnSerial());
        Object response = reply.hasResponse() ? decodeResponse(reply.getResponse())
                : reply.getWounded() ? null : NOTHING;
        Message.Vote vote = reply.getVote() == 0 ? null : new Message.Vote(txn, verdict(reply.getVote() - 1),
                reply.getReason().isEmpty() ? null : reply.getReason(), (reply.getVote() - 1) % 2 == 0);
        return new Message.Reply(txn, aliases.replyIdIn(reply.getCallId()), response, reply.getWounded(),
                aliases.participantsOf(reply.getParticipantsList()), vote);
    }

    private Object decodeResponse(Response response) {
        if (response.getKind() == Response.Kind.UNRECOGNIZED) {
            throw new ProtocolViolationException("response of unknown kind " + response.getKindValue());
        }
        Object value = response.hasValue() ? values.decode(response.getValue()) : null;
        String message = response.getMessage().isEmpty() ? null : response.getMessage();
        return new Requests.Response(Requests.Kind.values()[response.getKindValue()], value, message,
                changes(response.getChangesList()), response.getReturned());
    }

    private Message decodePromote(Promote promote, long clock) {
        TxnId txn = txn(promote.getTxnHost(), promote.getTxnSerial());
        return new Message.Promote(txn, aliases.priority(promote.getPriority(), txn, clock));
    }

    /** A reply's vote as it travels (see the .proto file): 2 * verdict + 1 if unbound, after the 1 taken off. */
    private static Message.Verdict verdict(int vote) {
        int verdict = vote / 2;
        if (verdict >= Message.Verdict.values().length) {
            throw new ProtocolViolationException("reply with unknown vote " + (vote + 1));
        }
        return Message.Verdict.values()[verdict];
    }

    private static Message.Verdict verdict(Vote.Verdict verdict, int value) {
        if (verdict == Vote.Verdict.UNRECOGNIZED) {
            throw new ProtocolViolationException("vote with unknown verdict " + value);
        }
        return Message.Verdict.values()[value];
    }

    private Message decodeVote(Vote vote) {
        Message.Verdict verdict = verdict(vote.getVerdict(), vote.getVerdictValue());
        String reason = vote.getReason().isEmpty() ? null : vote.getReason();
        return new Message.Vote(txn(vote.getTxnHost(), vote.getTxnSerial()), verdict, reason, !vote.getUnbound());
    }

    private Message decodeAnswer(Answer answer, long clock) {
        if (answer.getOutcome() == Answer.Outcome.UNRECOGNIZED) {
            throw new ProtocolViolationException("answer with unknown outcome " + answer.getOutcomeValue());
        }
        return new Message.Answer(txn(answer.getTxnHost(), answer.getTxnSerial()),
                Message.Outcome.values()[answer.getOutcomeValue()], answer.getAsked(),
                answer.hasStampBefore() ? clock - answer.getStampBefore() : 0);
    }

    private Map<String, Object> changes(List<Entry> entries) {
        Map<String, Object> changes = new LinkedHashMap<>();
        for (Entry entry : entries) {
            changes.put(aliases.name(entry.getName()), values.decode(entry.getValue()));
        }
        return changes;
    }
}
