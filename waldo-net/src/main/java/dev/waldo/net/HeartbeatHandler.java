package dev.waldo.net;

import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.Heartbeat;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;

/**
 * Keeps a quiet link alive and declares a silent one dead. It reacts to the
 * {@link io.netty.handler.timeout.IdleStateHandler} before it: when this host
 * wrote nothing for the heartbeat period it sends a heartbeat; when the peer
 * sent nothing for the heartbeat timeout it closes the link. Any frame counts
 * as proof of life, so a busy link carries no heartbeats at all.
 */
final class HeartbeatHandler extends ChannelDuplexHandler {
    private static final Frame HEARTBEAT = Frame.newBuilder()
            .setHeartbeat(Heartbeat.getDefaultInstance()).build();
    private final long timeoutMs;

    HeartbeatHandler(long timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent idle) {
            switch (idle.state()) {
                case WRITER_IDLE -> ctx.writeAndFlush(HEARTBEAT, ctx.voidPromise());
                case READER_IDLE -> Links.close(ctx.channel(), "no frame from peer for " + timeoutMs
                        + " ms (heartbeat timeout)");
                case ALL_IDLE -> { }
            }
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof Frame frame && frame.hasHeartbeat()) {
            return;
        }
        ctx.fireChannelRead(message);
    }
}
