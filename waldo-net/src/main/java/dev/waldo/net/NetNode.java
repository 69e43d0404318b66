package dev.waldo.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The network side of one host: it listens for peers, connects to peers, and
 * reports their links to a {@link LinkListener}. Every connection runs the
 * pipeline of {@link WaldoChannelInitializer}: TLS as configured, framing,
 * heartbeats and the Hello handshake.
 *
 * <pre>{@code
 * try (NetNode node = NetNode.start(NetConfig.defaults("a", stateDir), listener)) {
 *     InetSocketAddress bound = node.listen(new InetSocketAddress("127.0.0.1", 0));
 *     PeerLink link = node.connect(otherAddress).get();
 * }
 * }</pre>
 */
public final class NetNode implements AutoCloseable {
    private final NetConfig config;
    private final EventLoopGroup group;
    private final IoTransport io;
    private final WaldoChannelInitializer serverInitializer;
    private final WaldoChannelInitializer clientInitializer;
    private final TrafficCounter traffic = new TrafficCounter();
    private final ChannelGroup channels = new DefaultChannelGroup("waldo", GlobalEventExecutor.INSTANCE);

    private NetNode(NetConfig config, LinkListener listener, int ioThreads, Supplier<ChannelHandler> protocolStage,
                    long incarnation) {
        this.config = config;
        this.io = IoTransport.best();
        HostCredentials credentials = HostCredentials.load(config);
        TlsContexts tls = credentials == null ? null : TlsContexts.build(credentials);
        PeerPins pins = config.security() == Security.SELF_SIGNED ? new PeerPins(config.stateDir()) : null;
        this.serverInitializer = new WaldoChannelInitializer(config, tls == null ? null : tls.server(), pins, listener,
                protocolStage, traffic, incarnation, true);
        this.clientInitializer = new WaldoChannelInitializer(config, tls == null ? null : tls.client(), pins, listener,
                protocolStage, traffic, incarnation, false);
        this.group = io.newGroup(ioThreads, "waldo-net-" + config.hostId());
    }

    /**
     * Starts a node with one I/O thread per core (Netty's default), creating
     * the host's self-signed certificate in its state directory on first start.
     */
    public static NetNode start(NetConfig config, LinkListener listener) {
        return new NetNode(config, listener, 0, null, 0);
    }

    /** Starts a node with {@code ioThreads} I/O threads. */
    public static NetNode start(NetConfig config, LinkListener listener, int ioThreads) {
        return new NetNode(config, listener, ioThreads, null, 0);
    }

    /**
     * Starts a node whose connections carry the runtime core's protocol
     * messages: {@code protocolStage} makes each connection's codec, and
     * {@code incarnation} tells peers which run of this host they reach.
     */
    static NetNode start(NetConfig config, LinkListener listener, int ioThreads,
                         Supplier<ChannelHandler> protocolStage, long incarnation) {
        return new NetNode(config, listener, ioThreads, protocolStage, incarnation);
    }

    /** The I/O threads; with one thread, everything the node reports happens on it, in order. */
    EventLoopGroup group() {
        return group;
    }

    /** Bytes on the wire through all of this node's connections. */
    public TrafficCounter traffic() {
        return traffic;
    }

    /** This node's configuration. */
    public NetConfig config() {
        return config;
    }

    /**
     * Accepts peers on {@code address} (port 0 picks a free port).
     *
     * @return the address actually bound
     * @throws UncheckedIOException if the address cannot be bound
     */
    public InetSocketAddress listen(InetSocketAddress address) {
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(io.serverSocket())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(serverInitializer);
        ChannelFuture bound = bootstrap.bind(address).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            throw new UncheckedIOException(new IOException("cannot listen on " + address + ": "
                    + bound.cause().getMessage(), bound.cause()));
        }
        channels.add(bound.channel());
        return (InetSocketAddress) bound.channel().localAddress();
    }

    /**
     * Opens a connection to the peer at {@code address}.
     *
     * @return completes with the link once the handshake is done, or
     *     exceptionally if the connection or the handshake fails
     */
    public CompletableFuture<PeerLink> connect(InetSocketAddress address) {
        CompletableFuture<PeerLink> connected = new CompletableFuture<>();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(io.socket())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.heartbeatTimeoutMs())
                .attr(LinkHandler.CONNECTED, connected)
                .handler(clientInitializer);
        bootstrap.connect(address).addListener((ChannelFuture opened) -> {
            if (opened.isSuccess()) {
                channels.add(opened.channel());
            } else {
                connected.completeExceptionally(new IOException("cannot connect to " + address + ": "
                        + opened.cause().getMessage(), opened.cause()));
            }
        });
        return connected;
    }

    /**
     * Closes every listener and connection and stops the I/O threads; shutting
     * the group down also closes the connections that peers opened.
     */
    @Override
    public void close() {
        channels.close().awaitUninterruptibly(config.heartbeatTimeoutMs());
        group.shutdownGracefully(0, config.heartbeatPeriodMs(), TimeUnit.MILLISECONDS).awaitUninterruptibly();
    }
}
