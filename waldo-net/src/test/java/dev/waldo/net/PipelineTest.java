package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.Heartbeat;
import dev.waldo.net.wire.NameDefinition;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The whole connection pipeline of an accepting node, without TLS, fed split, garbage and hostile
 * bytes through EmbeddedChannel: the peer says Hello, opens a stream to the node's host, and sends
 * frames on it.
 */
class PipelineTest {
    private final RecordingListener listener = new RecordingListener();
    private final NetConfig config = NetConfig.defaults("local", Path.of("unused")).insecure()
            .withHeartbeat(100, 300).withMaxFrameBytes(1024);
    private final NetNode node = NetNode.start(config, listener, 1);

    @AfterEach
    void closeNode() {
        node.close();
    }

    private EmbeddedChannel channel() {
        EmbeddedChannel channel = new EmbeddedChannel(new WaldoChannelInitializer(node, null, null,
                new TrafficCounter(), true));
        channel.freezeTime();
        return channel;
    }

    /** The peer's Hello and its opening of stream 0 from host "peer". */
    private static Frame[] greeting() {
        return new Frame[] {Frames.hello("peer"), Frames.open(0, "peer")};
    }

    private static byte[] greetingThen(Frame... frames) {
        Frame[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(greeting()), java.util.Arrays.stream(frames))
                .toArray(Frame[]::new);
        return Frames.frames(all);
    }

    /** Runs the flushes that FlushConsolidationHandler deferred to a task, then reads what was written. */
    private static ByteBuf written(EmbeddedChannel channel) {
        channel.runPendingTasks();
        return channel.readOutbound();
    }

    private static Frame named(int alias, String name) {
        return Frame.newBuilder().addNames(NameDefinition.newBuilder().setAlias(alias).setName(name)).build();
    }

    @Test
    void sendsHelloFirst() {
        EmbeddedChannel channel = channel();
        ByteBuf first = written(channel);
        byte[] bytes = new byte[first.readableBytes()];
        first.readBytes(bytes);
        first.release();
        assertThat(bytes).isEqualTo(Frames.frames(Frames.hello("local")));
    }

    @Test
    void framesSplitOneByteAtATimeArriveWholeAndInOrder() {
        EmbeddedChannel channel = channel();
        byte[] stream = greetingThen(named(1, "first"), named(2, "second"));
        for (byte b : stream) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        assertThat(listener.ups).extracting(PeerLink::hostId).containsExactly("peer");
        assertThat(listener.messages).containsExactly(named(1, "first"), named(2, "second"));
        assertThat(channel.isActive()).isTrue();
    }

    @Test
    void manyFramesInOneReadAllArrive() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen(named(1, "a"), named(2, "b"), named(3, "c"))));
        assertThat(listener.messages).hasSize(3);
    }

    @Test
    void garbageBytesCloseTheConnectionWithAReason() throws InterruptedException {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen()));
        // A length of 4 followed by bytes that are no protobuf message (field 0 is invalid).
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {4, 0, 0, 0, 0}));
        assertThat(channel.isActive()).isFalse();
        assertThat(listener.nextDown()).startsWith("peer: undecodable frame");
    }

    @Test
    void oversizeFrameClosesBeforeItsPayloadArrives() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.lengthOnly(1025)));
        assertThat(channel.isActive()).isFalse();
        assertThat(Links.reason(channel)).startsWith("oversize frame: frame of 1025 bytes");
    }

    @Test
    void frameAtTheLimitIsAccepted() {
        EmbeddedChannel channel = channel();
        String name = "x".repeat(1024 - 8);
        Frame big = named(1, name);
        assertThat(big.getSerializedSize()).isEqualTo(1024);
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen(big)));
        assertThat(listener.messages).containsExactly(big);
    }

    @Test
    void lengthThatIsNoVarint32Closes() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, 1}));
        assertThat(channel.isActive()).isFalse();
        assertThat(Links.reason(channel)).startsWith("corrupt frame");
    }

    @Test
    void truncatedFrameIsReportedWhenThePeerCloses() {
        EmbeddedChannel channel = channel();
        byte[] hello = Frames.frames(Frames.hello("peer"));
        channel.writeInbound(Unpooled.wrappedBuffer(hello, 0, hello.length - 2));
        channel.close();
        assertThat(Links.reason(channel)).isEqualTo("corrupt frame: truncated frame: connection ended "
                + (hello.length - 2) + " bytes into a frame");
        assertThat(listener.ups).isEmpty();
    }

    @Test
    void firstFrameMustBeHello() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(named(1, "sneaky"))));
        assertThat(channel.isActive()).isFalse();
        assertThat(Links.reason(channel)).isEqualTo("protocol violation: first frame from peer is not a Hello");
        assertThat(listener.messages).isEmpty();
    }

    @Test
    void helloWithOtherVersionIsRefused() {
        EmbeddedChannel channel = channel();
        Frame hello = Frames.hello("peer").toBuilder().setHello(Frames.hello("peer").getHello().toBuilder()
                .setVersion(99)).build();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(hello)));
        assertThat(Links.reason(channel)).contains("protocol version 99");
        assertThat(listener.ups).isEmpty();
    }

    @Test
    void quietLinkSendsHeartbeat() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen()));
        written(channel).release(); // the Hello
        written(channel).release(); // Opened
        channel.advanceTimeBy(101, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        ByteBuf heartbeat = written(channel);
        assertThat(heartbeat).isNotNull();
        byte[] bytes = new byte[heartbeat.readableBytes()];
        heartbeat.readBytes(bytes);
        heartbeat.release();
        assertThat(bytes).isEqualTo(Frames.frames(Frame.newBuilder()
                .setHeartbeat(Heartbeat.getDefaultInstance()).build()));
    }

    @Test
    void silentPeerIsDeclaredDownAfterTheTimeout() throws InterruptedException {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen()));
        channel.advanceTimeBy(301, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isActive()).isFalse();
        assertThat(listener.nextDown()).isEqualTo("peer: no frame from peer for 300 ms (heartbeat timeout)");
    }

    @Test
    void heartbeatsKeepTheLinkUpAndDoNotReachTheListener() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen()));
        byte[] heartbeat = Frames.frames(Frame.newBuilder().setHeartbeat(Heartbeat.getDefaultInstance()).build());
        for (int i = 0; i < 5; i++) {
            channel.advanceTimeBy(200, TimeUnit.MILLISECONDS);
            channel.writeInbound(Unpooled.wrappedBuffer(heartbeat));
            channel.runScheduledPendingTasks();
        }
        assertThat(channel.isActive()).isTrue();
        assertThat(listener.messages).isEmpty();
    }

    // ---- streams ---------------------------------------------------------------------------

    /** The frames {@code channel} wrote, decoded. */
    private static java.util.List<Frame> writtenFrames(EmbeddedChannel channel) {
        java.util.List<Frame> frames = new java.util.ArrayList<>();
        EmbeddedChannel decoder = new EmbeddedChannel(new FrameDecoder(1 << 20),
                new io.netty.handler.codec.protobuf.ProtobufDecoder(Frame.getDefaultInstance()));
        for (ByteBuf bytes = written(channel); bytes != null; bytes = written(channel)) {
            decoder.writeInbound(bytes);
        }
        for (Object frame = decoder.readInbound(); frame != null; frame = decoder.readInbound()) {
            frames.add((Frame) frame);
        }
        return frames;
    }

    @Test
    void anOpenedStreamIsAnsweredWithTheHostAndItsRun() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen()));
        assertThat(writtenFrames(channel)).extracting(Frame::getBodyCase)
                .containsExactly(Frame.BodyCase.HELLO, Frame.BodyCase.OPENED);
        assertThat(listener.ups).extracting(PeerLink::hostId).containsExactly("peer");
    }

    @Test
    void aStreamToAHostThatDoesNotLiveHereIsRefusedAndTheConnectionStays() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(Frames.hello("peer"),
                Frames.open(0, "peer", "elsewhere"))));
        List<Frame> answers = writtenFrames(channel);
        assertThat(answers.getLast().getClose().getReason()).isEqualTo("no host elsewhere at this address");
        assertThat(answers.getLast().getStream()).isZero();
        assertThat(listener.ups).isEmpty();
        assertThat(channel.isActive()).isTrue();
    }

    @Test
    void aPeerMayNotSpeakForAHostOfAnotherIdentity() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(Frames.hello("peer"),
                Frames.open(0, "someone-else"))));
        assertThat(writtenFrames(channel).getLast().getClose().getReason())
                .isEqualTo("node peer may not speak for host someone-else");
        assertThat(listener.ups).isEmpty();
    }

    @Test
    void aFrameOnAStreamNeverOpenedClosesTheConnection() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen(named(1, "a").toBuilder().setStream(7).build())));
        assertThat(channel.isActive()).isFalse();
        assertThat(Links.reason(channel)).isEqualTo("protocol violation: peer sent BODY_NOT_SET on stream 7,"
                + " which was never open");
    }

    @Test
    void aStreamOpenedTwiceClosesTheConnection() throws InterruptedException {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen(Frames.open(0, "peer"))));
        assertThat(Links.reason(channel)).isEqualTo("protocol violation: peer opened stream 0 twice");
        assertThat(listener.nextDown()).startsWith("peer: protocol violation");
    }

    @Test
    void aStreamThePeerClosesGoesDownAloneAndLateFramesOnItAreDropped() throws InterruptedException {
        EmbeddedChannel channel = channel();
        Frame close = Frame.newBuilder().setStream(0).setClose(dev.waldo.net.wire.Close.newBuilder()
                .setReason("leaving")).build();
        channel.writeInbound(Unpooled.wrappedBuffer(greetingThen(close, named(1, "late"), Frames.open(1, "peer"))));
        assertThat(listener.nextDown()).isEqualTo("peer: closed by peer: leaving");
        assertThat(listener.messages).isEmpty();
        assertThat(listener.ups).hasSize(2);
        assertThat(channel.isActive()).isTrue();
    }
}
