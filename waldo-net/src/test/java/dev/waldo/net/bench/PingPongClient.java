package dev.waldo.net.bench;

import dev.waldo.net.FrameDecoder;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The floor's near end: one connection on which caller threads each send a
 * frame and block until its echo returns, the same thread handoff a Waldo
 * caller pays. A 4-byte tag in each payload routes echoes to their callers.
 */
final class PingPongClient implements AutoCloseable {
    private final Channel channel;
    private final Map<Integer, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger tags = new AtomicInteger();
    private final int payloadBytes;

    PingPongClient(EventLoopGroup group, Class<? extends Channel> type, SslContext tls, int port, int payloadBytes) {
        this.payloadBytes = Math.max(4, payloadBytes);
        Bootstrap bootstrap = new Bootstrap().group(group).channel(type).option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        if (tls != null) {
                            channel.pipeline().addLast("tls", tls.newHandler(channel.alloc()));
                        }
                        channel.pipeline().addLast("frameDecoder", new FrameDecoder(1 << 20));
                        channel.pipeline().addLast("answers", new Answers());
                    }
                });
        channel = bootstrap.connect(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().channel();
    }

    /** One round trip of a frame of the configured size. */
    void ping() {
        int tag = tags.incrementAndGet();
        CompletableFuture<Void> echo = new CompletableFuture<>();
        waiting.put(tag, echo);
        ByteBuf payload = channel.alloc().buffer(payloadBytes);
        payload.writeInt(tag).writeZero(payloadBytes - 4);
        channel.writeAndFlush(framed(channel.alloc(), payload));
        payload.release();
        echo.join();
    }

    /** A varint length prefix and a copy of {@code payload}. */
    static ByteBuf framed(ByteBufAllocator alloc, ByteBuf payload) {
        int length = payload.readableBytes();
        ByteBuf out = alloc.ioBuffer(length + 5);
        while ((length & ~0x7f) != 0) {
            out.writeByte((length & 0x7f) | 0x80);
            length >>>= 7;
        }
        out.writeByte(length);
        out.writeBytes(payload, payload.readerIndex(), payload.readableBytes());
        return out;
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }

    private final class Answers extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            CompletableFuture<Void> echo = waiting.remove(frame.getInt(frame.readerIndex()));
            if (echo != null) {
                echo.complete(null);
            }
        }
    }
}
