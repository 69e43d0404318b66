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
import org.junit.jupiter.api.Test;

/** The whole connection pipeline, without TLS, fed split, garbage and hostile bytes through EmbeddedChannel. */
class PipelineTest {
    private final RecordingListener listener = new RecordingListener();
    private final NetConfig config = NetConfig.defaults("local", Path.of("unused")).insecure()
            .withHeartbeat(100, 300).withMaxFrameBytes(1024);

    private EmbeddedChannel channel() {
        EmbeddedChannel channel = new EmbeddedChannel(new WaldoChannelInitializer(config, null, null, listener, null));
        channel.freezeTime();
        return channel;
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
        byte[] stream = Frames.frames(Frames.hello("peer"), named(1, "first"), named(2, "second"));
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
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(Frames.hello("peer"), named(1, "a"),
                named(2, "b"), named(3, "c"))));
        assertThat(listener.messages).hasSize(3);
    }

    @Test
    void garbageBytesCloseTheConnectionWithAReason() throws InterruptedException {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(Frames.hello("peer"))));
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
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(Frames.hello("peer"), big)));
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
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(Frames.hello("peer"))));
        written(channel).release();
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
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(Frames.hello("peer"))));
        channel.advanceTimeBy(301, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isActive()).isFalse();
        assertThat(listener.nextDown()).isEqualTo("peer: no frame from peer for 300 ms (heartbeat timeout)");
    }

    @Test
    void heartbeatsKeepTheLinkUpAndDoNotReachTheListener() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(Frames.frames(Frames.hello("peer"))));
        byte[] heartbeat = Frames.frames(Frame.newBuilder().setHeartbeat(Heartbeat.getDefaultInstance()).build());
        for (int i = 0; i < 5; i++) {
            channel.advanceTimeBy(200, TimeUnit.MILLISECONDS);
            channel.writeInbound(Unpooled.wrappedBuffer(heartbeat));
            channel.runScheduledPendingTasks();
        }
        assertThat(channel.isActive()).isTrue();
        assertThat(listener.messages).isEmpty();
    }
}
