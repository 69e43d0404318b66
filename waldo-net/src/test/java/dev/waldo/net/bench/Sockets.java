package dev.waldo.net.bench;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.SelfSignedCertificate;

/** The floor's sockets and TLS, chosen exactly as waldo-net chooses them for hosts. */
final class Sockets {
    private Sockets() {
    }

    static EventLoopGroup group() {
        return new MultiThreadIoEventLoopGroup(1, Epoll.isAvailable() ? EpollIoHandler.newFactory()
                : NioIoHandler.newFactory());
    }

    static Class<? extends Channel> socket() {
        return Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    static Class<? extends ServerChannel> serverSocket() {
        return Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    private static SslProvider provider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    static SslContext serverTls() throws Exception {
        SelfSignedCertificate certificate = new SelfSignedCertificate("floor", "EC", 256);
        return SslContextBuilder.forServer(certificate.key(), certificate.cert()).sslProvider(provider())
                .protocols("TLSv1.3").build();
    }

    static SslContext clientTls() throws Exception {
        return SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
                .endpointIdentificationAlgorithm(null).sslProvider(provider()).protocols("TLSv1.3").build();
    }
}
