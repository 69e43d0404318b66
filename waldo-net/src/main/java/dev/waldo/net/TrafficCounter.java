package dev.waldo.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the bytes a node reads from and writes to its sockets, TLS records
 * and heartbeats included: the first stage of every pipeline, so it sees what
 * the wire carries (TCP/IP headers aside).
 */
@ChannelHandler.Sharable
public final class TrafficCounter extends ChannelDuplexHandler {
    private final LongAdder read = new LongAdder();
    private final LongAdder written = new LongAdder();

    /** Bytes read from all connections since the node started. */
    public long bytesRead() {
        return read.sum();
    }

    /** Bytes written to all connections since the node started. */
    public long bytesWritten() {
        return written.sum();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof ByteBuf bytes) {
            read.add(bytes.readableBytes());
        }
        ctx.fireChannelRead(message);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        if (message instanceof ByteBuf bytes) {
            written.add(bytes.readableBytes());
        }
        ctx.write(message, promise);
    }
}
