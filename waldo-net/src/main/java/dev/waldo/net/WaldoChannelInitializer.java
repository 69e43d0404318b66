package dev.waldo.net;

import dev.waldo.net.wire.Frame;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.Channel;
import io.netty.handler.codec.protobuf.ProtobufDecoder;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Builds the pipeline of one connection, inbound from top to bottom:
 * byte counting, TLS, flush consolidation, idle detection, framing, protobuf decoding, heartbeats, handshake,
 * then the {@link Connection}, which carries the streams of the node's hosts.
 */
final class WaldoChannelInitializer extends ChannelInitializer<Channel> {
    /**
     * Where TLS runs the slow steps of a handshake (validating the peer's certificate chain in Java):
     * on virtual threads, off the I/O thread, so that one I/O thread carrying many links keeps
     * reading, writing and heartbeating them while handshakes are validated on every core. Made on
     * first use, so that a pipeline without TLS never starts the virtual-thread machinery.
     */
    private static final class HandshakeTasks {
        static final Executor EXECUTOR = Executors.newVirtualThreadPerTaskExecutor();
    }
    private final NetNode node;
    private final SslContext tls;
    private final PeerPins pins;
    private final FrameEncoder frameEncoder;
    private final TrafficCounter traffic;
    private final boolean accepting;

    /**
     * @param node the node whose connections these are: its configuration and hosts
     * @param tls the client or server TLS context, or null when TLS is off
     * @param pins pinned peer certificates, for self-signed TLS
     * @param accepting true for connections the node accepts (they answer the peer's Hello), false for
     *     those it dials
     */
    WaldoChannelInitializer(NetNode node, SslContext tls, PeerPins pins, TrafficCounter traffic, boolean accepting) {
        this.node = node;
        this.accepting = accepting;
        this.traffic = traffic;
        this.tls = tls;
        this.pins = pins;
        this.frameEncoder = new FrameEncoder(node.config().maxFrameBytes());
    }

    @Override
    protected void initChannel(Channel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        NetConfig config = node.config();
        pipeline.addLast("traffic", traffic);
        if (tls != null) {
            pipeline.addLast("tls", tls.newHandler(channel.alloc(), HandshakeTasks.EXECUTOR));
        }
        // Messages written while reading a burst of frames leave in one flush when
        // the read completes: one system call, and under TLS one record instead of
        // one per message. Outside a read, Connection already writes what is queued
        // and flushes once, so such a flush goes out at once instead of one task later.
        pipeline.addLast("flushConsolidation", new FlushConsolidationHandler(256, false));
        pipeline.addLast("idle", new IdleStateHandler(config.heartbeatTimeoutMs(), config.heartbeatPeriodMs(), 0,
                TimeUnit.MILLISECONDS));
        pipeline.addLast("frameDecoder", new FrameDecoder(config.maxFrameBytes()));
        pipeline.addLast("protobufDecoder", new ProtobufDecoder(Frame.getDefaultInstance()));
        pipeline.addLast("frameEncoder", frameEncoder);
        pipeline.addLast("heartbeat", new HeartbeatHandler(config.heartbeatTimeoutMs()));
        pipeline.addLast("handshake", new HandshakeHandler(config, pins, accepting));
        pipeline.addLast("connection", new Connection(node, !accepting));
    }
}
