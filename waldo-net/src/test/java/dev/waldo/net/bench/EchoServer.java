package dev.waldo.net.bench;

import dev.waldo.net.FrameDecoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;

/**
 * The floor's far end: echoes every frame back, on the same framing, socket
 * implementation and TLS as a Waldo host, with nothing else in between.
 */
final class EchoServer {
    private EchoServer() {
    }

    /** Listens on an ephemeral loopback port and returns it. */
    static int start(EventLoopGroup group, Class<? extends io.netty.channel.ServerChannel> type, SslContext tls) {
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(type)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        if (tls != null) {
                            channel.pipeline().addLast("tls", tls.newHandler(channel.alloc()));
                        }
                        channel.pipeline().addLast("frameDecoder", new FrameDecoder(1 << 20));
                        channel.pipeline().addLast("echo", new Echo());
                    }
                });
        Channel bound = bootstrap.bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
        return ((InetSocketAddress) bound.localAddress()).getPort();
    }

    /** Writes each frame back with its length prefix. */
    private static final class Echo extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            ctx.writeAndFlush(PingPongClient.framed(ctx.alloc(), frame));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
