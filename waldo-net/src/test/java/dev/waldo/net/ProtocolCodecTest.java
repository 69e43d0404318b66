package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.Requests;
import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.core.Priority;
import dev.waldo.runtime.core.TxnId;
import dev.waldo.runtime.lang.WList;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every core message through the real pipeline of host "a", over the wire
 * bytes, into the pipeline of host "b": it arrives equal, with third-party
 * hosts and names resolved through the connection's aliases.
 */
class ProtocolCodecTest {
    private final EmbeddedPair pair = new EmbeddedPair(config -> config);
    private final RecordingListener aEvents = pair.aEvents;
    private final RecordingListener bEvents = pair.bEvents;
    private final int a = pair.a;
    private final int b = pair.b;
    private final int c = HostNumbers.of("c");
    private final EmbeddedChannel aChannel = pair.aChannel;
    private final EmbeddedChannel bChannel = pair.bChannel;

    ProtocolCodecTest() {
        // Both learned c's id when they linked to c; each names it to the other once.
        pair.aHosts.register("c");
        pair.bHosts.register("c");
    }

    @AfterEach
    void close() {
        pair.close();
    }

    private static void pump(EmbeddedChannel from, EmbeddedChannel to) {
        EmbeddedPair.pump(from, to);
    }

    private Message aToB(Message message, long clock) {
        pair.aToB.send(new Envelope(a, b, clock, message));
        pump(aChannel, bChannel);
        Envelope received = (Envelope) bEvents.messages.poll();
        assertThat(received).isNotNull();
        assertThat(received.from()).isEqualTo(a);
        assertThat(received.clock()).isEqualTo(clock);
        return received.message();
    }

    private Message bToA(Message message, long clock) {
        pair.bToA.send(new Envelope(b, a, clock, message));
        pump(bChannel, aChannel);
        Envelope received = (Envelope) aEvents.messages.poll();
        assertThat(received).as("a received; a's channel %s", aChannel.isActive() ? "open"
                : "closed: " + Links.reason(aChannel)).isNotNull();
        return received.message();
    }

    @Test
    void aWholeTransactionArrivesIntact() {
        TxnId txn = new TxnId(a, 12);
        Priority priority = new Priority(false, 40, a, 11);
        Object invocation = new Requests.Invocation(7, "setVlan", new Object[] {10.0, "uplink", WList.of(true)});
        Message.Call call = (Message.Call) aToB(new Message.Call(txn, priority, ((long) a << 40) | 3, invocation),
                45);
        assertThat(call.txn()).isEqualTo(txn);
        assertThat(call.priority()).isEqualTo(priority);
        assertThat(call.callId()).isEqualTo(((long) a << 40) | 3);
        Requests.Invocation received = (Requests.Invocation) call.request();
        assertThat(received.object()).isEqualTo(7);
        assertThat(received.function()).isEqualTo("setVlan");
        assertThat(received.args()).containsExactly(10.0, "uplink", WList.of(true));

        Object response = new Requests.Response(Requests.Kind.APPLICATION_ERROR, null, "division by zero",
                Map.of("x", 1.5), true);
        Message.Reply reply = (Message.Reply) bToA(new Message.Reply(txn, call.callId(), response, false,
                Set.of(b, c)), 50);
        assertThat(reply.callId()).isEqualTo(call.callId());
        assertThat(reply.participants()).containsExactlyInAnyOrder(b, c);
        assertThat(reply.response()).isEqualTo(response);

        assertThat(aToB(new Message.Prepare(txn, Set.of(b, c)), 51)).isEqualTo(new Message.Prepare(txn, Set.of(b, c)));
        assertThat(bToA(new Message.Vote(txn, Message.Verdict.REFUSED, "device said no", true), 52))
                .isEqualTo(new Message.Vote(txn, Message.Verdict.REFUSED, "device said no", true));
        // A yes without bindings lets the coordinator return at the decision; it must stay so on the wire.
        assertThat(bToA(new Message.Vote(txn, Message.Verdict.YES, null, false), 52))
                .isEqualTo(new Message.Vote(txn, Message.Verdict.YES, null, false));
        assertThat(bToA(new Message.Vote(txn, Message.Verdict.YES, null, true), 52))
                .isEqualTo(new Message.Vote(txn, Message.Verdict.YES, null, true));
        assertThat(aToB(new Message.Commit(txn), 53)).isEqualTo(new Message.Commit(txn));
        assertThat(bToA(new Message.Ack(txn), 54)).isEqualTo(new Message.Ack(txn));
        assertThat(aChannel.isActive() && bChannel.isActive()).isTrue();
    }

    /**
     * The root's last call carries the prepare (with the other participants the root knew) and
     * the reply carries the vote; both decode to what was sent. A plain call and reply decode
     * with neither, as they did before the fields existed, so a peer that does not set them
     * (or read them) keeps the Prepare round trip.
     */
    @Test
    void theLastCallCarriesThePrepareAndItsReplyTheVote() {
        TxnId txn = new TxnId(a, 12);
        Priority priority = new Priority(false, 40, a, 12);
        Object step = new Requests.StepInvocation(4, ((long) a << 40) | 17, "Bump", 1, Map.of("total", 2.0));
        long callId = ((long) a << 40) | 5;
        Message.Call call = (Message.Call) aToB(new Message.Call(txn, priority, callId, step, Set.of(c)), 10);
        assertThat(call.prepareWith()).as("the other participant, and the receiver the codec adds back")
                .containsExactlyInAnyOrder(b, c);
        assertThat(call.request()).isEqualTo(step);
        Message.Call alone = (Message.Call) aToB(new Message.Call(txn, priority, callId + 1, step, Set.of()), 11);
        assertThat(alone.prepareWith()).as("a carried prepare with no other participant is still one").containsExactly(b);

        Object response = new Requests.Response(Requests.Kind.VALUE, null, null, Map.of("total", 4.0), false);
        for (Message.Vote vote : List.of(new Message.Vote(txn, Message.Verdict.YES, null, false),
                new Message.Vote(txn, Message.Verdict.YES, null, true),
                new Message.Vote(txn, Message.Verdict.REFUSED, "device said no", false))) {
            Message.Reply reply = (Message.Reply) bToA(new Message.Reply(txn, call.callId(), response, false,
                    Set.of(b), vote), 12);
            assertThat(reply.vote()).isEqualTo(vote);
            assertThat(reply.response()).isEqualTo(response);
            // the guard lets a reply through only for a call it saw: each vote answers a call of its own
            call = (Message.Call) aToB(new Message.Call(txn, priority, ++callId + 10, step, Set.of()), 13);
        }

        Message.Call plain = (Message.Call) aToB(new Message.Call(txn, priority, callId + 20, step), 14);
        assertThat(plain.prepareWith()).isNull();
        Message.Reply unvoted = (Message.Reply) bToA(new Message.Reply(txn, plain.callId(), response, false, Set.of(b)), 15);
        assertThat(unvoted.vote()).isNull();
        assertThat(aChannel.isActive() && bChannel.isActive()).isTrue();
    }

    /**
     * A read-only attempt's calls say that it reads a snapshot (the callee takes no locks for it),
     * with or without the prepare; every other call says it locks.
     */
    @Test
    void aSnapshotReadersCallsSaySo() {
        TxnId txn = new TxnId(a, 12);
        Priority priority = new Priority(false, 40, a, 12);
        Object invocation = new Requests.Invocation(7, "status", new Object[0]);
        long callId = ((long) a << 40) | 5;
        Message.Call snapshot = (Message.Call) aToB(new Message.Call(txn, priority, callId, invocation, null, true), 10);
        assertThat(snapshot.snapshot()).isTrue();
        assertThat(snapshot.prepareWith()).isNull();
        Message.Call last = (Message.Call) aToB(new Message.Call(txn, priority, callId + 1, invocation, Set.of(), true), 11);
        assertThat(last.snapshot()).isTrue();
        assertThat(last.prepareWith()).containsExactly(b);
        Message.Call locking = (Message.Call) aToB(new Message.Call(txn, priority, callId + 2, invocation), 12);
        assertThat(locking.snapshot()).isFalse();
    }

    @Test
    void cooperativeTerminationQueryAndAnswerArriveIntact() {
        TxnId txn = new TxnId(a, 12);
        Priority priority = new Priority(false, 40, a, 12);
        aToB(new Message.Call(txn, priority, ((long) a << 40) | 1, new Requests.Invocation(7, "f", new Object[0])), 10);
        assertThat(aToB(new Message.Prepare(txn, Set.of(b)), 11)).isEqualTo(new Message.Prepare(txn, Set.of(b)));
        assertThat(bToA(new Message.Query(txn), 12)).isEqualTo(new Message.Query(txn));
        assertThat(bToA(new Message.Query(txn, 41), 12)).isEqualTo(new Message.Query(txn, 41));
        for (Message.Outcome outcome : Message.Outcome.values()) {
            assertThat(aToB(new Message.Answer(txn, outcome), 13)).isEqualTo(new Message.Answer(txn, outcome));
            assertThat(aToB(new Message.Answer(txn, outcome, 41), 13)).isEqualTo(new Message.Answer(txn, outcome, 41));
        }
    }

    @Test
    void woundsPromotionsAndBackoutsForThirdPartyAttemptsArriveIntact() {
        TxnId foreign = new TxnId(c, 99);
        Priority primary = new Priority(true, 7, c, 98);
        for (Message message : List.of(new Message.Wound(foreign), new Message.Promote(foreign, primary),
                new Message.Backout(foreign))) {
            assertThat(aToB(message, 100)).isEqualTo(message);
        }
    }

    @Test
    void stepCarriesSequenceDataAndAFrameId() {
        TxnId txn = new TxnId(a, 3);
        long frame = ((long) a << 40) | 17;
        Object step = new Requests.StepInvocation(4, frame, "Bump", 1, Map.of("total", 2.0));
        Message.Call call = (Message.Call) aToB(new Message.Call(txn, new Priority(false, 1, a, 2), 5, step), 9);
        assertThat(call.request()).isEqualTo(step);
    }
}
