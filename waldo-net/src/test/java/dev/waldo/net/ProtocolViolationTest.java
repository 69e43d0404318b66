package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.testing.PeerEndpoint;
import dev.waldo.net.wire.Answer;
import dev.waldo.net.wire.Call;
import dev.waldo.net.wire.Commit;
import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.NameDefinition;
import dev.waldo.net.wire.Priority;
import dev.waldo.net.wire.Query;
import dev.waldo.net.wire.Reply;
import dev.waldo.net.wire.StepInvocation;
import dev.waldo.net.wire.Vote;
import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.core.TxnId;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Valid protobuf that breaks the protocol: each costs the sender its
 * connection, with the reason logged, and never reaches the core.
 */
class ProtocolViolationTest {
    private static final int SENDER = OutboundNames.SENDER;
    private static final int RECEIVER = OutboundNames.RECEIVER;
    private final RecordingListener listener = new RecordingListener();

    @TempDir
    Path state;

    private final NetNode node = NetNode.own(NetConfig.defaults("local", Path.of("unused")).insecure());

    ProtocolViolationTest() {
        HostNumbers hosts = new HostNumbers();
        int local = hosts.register("local");
        ProtocolGuard guard = new ProtocolGuard(local, 0);
        ValueCodec values = new ValueCodec(StructResolver.NONE);
        node.join("local", 1, listener, peer -> new ProtocolCodec(local, hosts.register(peer), hosts, guard, values));
    }

    @AfterEach
    void closeNode() {
        node.close();
    }

    /** A connection the peer opened, with stream 0 open from host "peer" to this node's host. */
    private EmbeddedChannel channel() {
        EmbeddedChannel channel = new EmbeddedChannel(new WaldoChannelInitializer(node, null, null,
                new TrafficCounter(), true));
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(Frames.hello("peer"), Frames.open(0, "peer"))));
        return channel;
    }

    private static Frame stepCall(long serial, String sequence) {
        return Frame.newBuilder().addNames(NameDefinition.newBuilder().setAlias(2).setName(sequence))
                .setCall(Call.newBuilder().setTxnHost(SENDER).setTxnSerial(serial).setCallId(1)
                        .setPriority(Priority.getDefaultInstance())
                        .setStep(StepInvocation.newBuilder().setObject(999).setSequence(2).setStep(1))).build();
    }

    private String closeReasonAfter(Frame frame) {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(frame)));
        assertThat(channel.isActive()).isFalse();
        assertThat(listener.messages).isEmpty();
        return Links.reason(channel);
    }

    @Test
    void voteForAnAttemptNeverPreparedClosesTheConnection() {
        Frame vote = Frame.newBuilder().setVote(Vote.newBuilder().setTxnHost(RECEIVER).setTxnSerial(7)).build();
        assertThat(closeReasonAfter(vote)).startsWith("protocol violation: vote for attempt")
                .endsWith("which this host never prepared with that peer");
    }

    @Test
    void voteForAnAttemptThisHostDoesNotCoordinateClosesTheConnection() {
        Frame vote = Frame.newBuilder().setVote(Vote.newBuilder().setTxnHost(SENDER).setTxnSerial(7)).build();
        assertThat(closeReasonAfter(vote)).endsWith("which this host does not coordinate");
    }

    @Test
    void replyToACallNeverMadeClosesTheConnection() {
        Frame reply = Frame.newBuilder().setReply(Reply.newBuilder().setTxnHost(RECEIVER).setTxnSerial(3)
                .setCallId(42)).build();
        assertThat(closeReasonAfter(reply)).contains("that this host never sent to that peer");
    }

    @Test
    void commitFromAHostThatDoesNotCoordinateTheAttemptClosesTheConnection() {
        Frame commit = Frame.newBuilder().setCommit(Commit.newBuilder().setTxnHost(RECEIVER).setTxnSerial(9)).build();
        assertThat(closeReasonAfter(commit)).endsWith("from a host that does not coordinate it");
    }

    /** A coordinator re-sends its logged commit to a participant that restarted since the attempt reached it. */
    @Test
    void commitForAnAttemptOfAnEarlierRunReachesTheCoreToBeAcknowledged() {
        Frame commit = Frame.newBuilder().setCommit(Commit.newBuilder().setTxnHost(SENDER).setTxnSerial(9)).build();
        assertThat(reachesTheCore(commit)).isEqualTo(new Message.Commit(new TxnId(HostNumbers.of("peer"), 9)));
    }

    /** A participant in doubt asks every other participant, some of which restarted since. */
    @Test
    void queryAboutAnAttemptOfAnEarlierRunReachesTheCoreToBeAnswered() {
        Frame query = Frame.newBuilder().setQuery(Query.newBuilder().setTxnHost(SENDER).setTxnSerial(6)).build();
        assertThat(reachesTheCore(query)).isEqualTo(new Message.Query(new TxnId(HostNumbers.of("peer"), 6)));
    }

    private Message reachesTheCore(Frame frame) {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(frame)));
        assertThat(channel.isActive()).isTrue();
        return ((Envelope) listener.messages.poll()).message();
    }

    @Test
    void answerToAQueryNeverAskedClosesTheConnection() {
        Frame answer = Frame.newBuilder().setAnswer(Answer.newBuilder().setTxnHost(SENDER).setTxnSerial(4)
                .setOutcome(Answer.Outcome.COMMITTED)).build();
        assertThat(closeReasonAfter(answer)).isEqualTo("protocol violation: answer about attempt "
                + HostNumbers.of("peer") + ".4, which this host never asked that peer about");
    }

    @Test
    void undefinedNameAliasClosesTheConnection() {
        Frame call = stepCall(1, "Bump").toBuilder().clearNames().build();
        assertThat(closeReasonAfter(call)).isEqualTo("protocol violation: peer used name alias 2 that it never defined");
    }

    @Test
    void secondHelloAndEmptyFrameCloseTheConnection() {
        assertThat(closeReasonAfter(Frames.hello("peer"))).isEqualTo("protocol violation: peer sent a second Hello");
        assertThat(closeReasonAfter(Frame.getDefaultInstance()))
                .isEqualTo("protocol violation: frame carries no message");
    }

    @Test
    void validCallReachesTheCoreAsAnEnvelope() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(stepCall(5, "Bump"))));
        assertThat(channel.isActive()).isTrue();
        Envelope envelope = (Envelope) listener.messages.poll();
        assertThat(envelope.from()).isEqualTo(HostNumbers.of("peer"));
        assertThat(envelope.message()).isInstanceOf(Message.Call.class);
        assertThat(envelope.message().txn().serial()).isEqualTo(5);
    }

    @Test
    void rawSocketBreakingTheProtocolCostsOnlyItsConnection() throws Exception {
        try (NetHost server = NetHost.start(NetConfig.defaults("server", state.resolve("server")).insecure());
             NetHost client = NetHost.start(NetConfig.defaults("client", state.resolve("client")).insecure())) {
            InetSocketAddress address = server.listen(new InetSocketAddress("127.0.0.1", 0),
                    PeerEndpoint::create, null);
            PeerEndpoint good = client.connect(address, PeerEndpoint::create);
            assertThat(good.bump(1)).isEqualTo(2.0);

            Frame neverPrepared = Frame.newBuilder().setVote(Vote.newBuilder().setTxnHost(RECEIVER)
                    .setTxnSerial(3)).build();
            assertThat(rawExchange(address, "mallory", neverPrepared)).isEqualTo(-1);
            assertThat(rawExchange(address, "mallory2", stepCall(1, "NoSuchSequence"))).isEqualTo(-1);

            assertThat(good.bump(1)).isEqualTo(4.0);
            // A call returns at the commit decision; the Commit reaches the server a moment later.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (server.host().liveTransactions() != 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(server.host().liveTransactions()).as("attempts left on the server").isZero();
        }
    }

    /** Says Hello as {@code host}, opens a stream to the server, sends {@code frame}, and reads until the server closes. */
    private static int rawExchange(InetSocketAddress address, String host, Frame frame) throws Exception {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(Frames.frames(Frames.hello(host), Frames.open(0, host), frame));
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[256];
            int read;
            do {
                read = in.read(buffer);
            } while (read > 0);
            return read;
        }
    }
}
