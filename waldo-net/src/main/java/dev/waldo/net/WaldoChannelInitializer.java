package dev.waldo.net;

import dev.waldo.net.wire.Frame;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.protobuf.ProtobufDecoder;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Builds the pipeline of one connection, inbound from top to bottom:
 * byte counting, TLS, flush consolidation, idle detection, framing, protobuf decoding, heartbeats, handshake,
 * the protocol codec (when the node carries core messages), then the link
 * handler that talks to the node.
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
    private final NetConfig config;
    private final SslContext tls;
    private final PeerPins pins;
    private final LinkListener listener;
    private final FrameEncoder frameEncoder;
    private final Supplier<ChannelHandler> protocolStage;
    private final TrafficCounter traffic;
    private final long incarnation;
    private final boolean accepting;

    /**
     * @param tls the client or server TLS context, or null when TLS is off
     * @param pins pinned peer certificates, for self-signed TLS
     * @param protocolStage makes the stage that turns frames into protocol messages, or null to hand frames on
     */
    WaldoChannelInitializer(NetConfig config, SslContext tls, PeerPins pins, LinkListener listener,
                            Supplier<ChannelHandler> protocolStage) {
        this(config, tls, pins, listener, protocolStage, new TrafficCounter(), 0, false);
    }

    /**
     * @param incarnation this host's run, announced in its Hello (see {@link PeerLink#incarnation})
     * @param accepting true for connections this host accepts (they answer the peer's Hello), false for
     *     those it opens
     */
    WaldoChannelInitializer(NetConfig config, SslContext tls, PeerPins pins, LinkListener listener,
                            Supplier<ChannelHandler> protocolStage, TrafficCounter traffic, long incarnation,
                            boolean accepting) {
        this.config = config;
        this.accepting = accepting;
        this.incarnation = incarnation;
        this.traffic = traffic;
        this.protocolStage = protocolStage;
        this.tls = tls;
        this.pins = pins;
        this.listener = listener;
        this.frameEncoder = new FrameEncoder(config.maxFrameBytes());
    }

    @Override
    protected void initChannel(Channel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        pipeline.addLast("traffic", traffic);
        if (tls != null) {
            pipeline.addLast("tls", tls.newHandler(channel.alloc(), HandshakeTasks.EXECUTOR));
        }
        // Messages written while reading a burst of frames leave in one flush when
        // the read completes: one system call, and under TLS one record instead of
        // one per message. Outside a read, PeerLink already writes what is queued
        // and flushes once, so such a flush goes out at once instead of one task later.
        pipeline.addLast("flushConsolidation", new FlushConsolidationHandler(256, false));
        pipeline.addLast("idle", new IdleStateHandler(config.heartbeatTimeoutMs(), config.heartbeatPeriodMs(), 0,
                TimeUnit.MILLISECONDS));
        pipeline.addLast("frameDecoder", new FrameDecoder(config.maxFrameBytes()));
        pipeline.addLast("protobufDecoder", new ProtobufDecoder(Frame.getDefaultInstance()));
        pipeline.addLast("frameEncoder", frameEncoder);
        pipeline.addLast("heartbeat", new HeartbeatHandler(config.heartbeatTimeoutMs()));
        pipeline.addLast("handshake", new HandshakeHandler(config, incarnation, pins, accepting));
        if (protocolStage != null) {
            pipeline.addLast("protocol", protocolStage.get());
        }
        pipeline.addLast("link", new LinkHandler(listener));
    }
}
