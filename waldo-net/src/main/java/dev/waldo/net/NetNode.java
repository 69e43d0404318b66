package dev.waldo.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
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
    /** False when the node runs on one thread of shared {@link NetLoops}, which outlive it. */
    private final boolean ownsGroup;
    private final IoTransport io;
    private final WaldoChannelInitializer serverInitializer;
    private final WaldoChannelInitializer clientInitializer;
    private final TrafficCounter traffic = new TrafficCounter();
    private final ChannelGroup channels = new DefaultChannelGroup("waldo", GlobalEventExecutor.INSTANCE);

    private NetNode(NetConfig config, LinkListener listener, int ioThreads, Supplier<ChannelHandler> protocolStage,
                    long incarnation, NetLoops shared) {
        this.config = config;
        this.io = shared == null ? IoTransport.best() : shared.io();
        HostCredentials credentials = HostCredentials.load(config);
        TlsContexts tls = credentials == null ? null : TlsContexts.build(credentials);
        PeerPins pins = config.security() == Security.SELF_SIGNED ? new PeerPins(config.stateDir()) : null;
        this.serverInitializer = new WaldoChannelInitializer(config, tls == null ? null : tls.server(), pins, listener,
                protocolStage, traffic, incarnation, true);
        this.clientInitializer = new WaldoChannelInitializer(config, tls == null ? null : tls.client(), pins, listener,
                protocolStage, traffic, incarnation, false);
        this.ownsGroup = shared == null;
        this.group = shared == null ? io.newGroup(ioThreads, "waldo-net-" + config.hostId()) : shared.next();
    }

    /**
     * Starts a node with one I/O thread per core (Netty's default), creating
     * the host's self-signed certificate in its state directory on first start.
     */
    public static NetNode start(NetConfig config, LinkListener listener) {
        return new NetNode(config, listener, 0, null, 0, null);
    }

    /** Starts a node with {@code ioThreads} I/O threads. */
    public static NetNode start(NetConfig config, LinkListener listener, int ioThreads) {
        return new NetNode(config, listener, ioThreads, null, 0, null);
    }

    /**
     * Starts a node whose connections carry the runtime core's protocol
     * messages: {@code protocolStage} makes each connection's codec, and
     * {@code incarnation} tells peers which run of this host they reach.
     */
    static NetNode start(NetConfig config, LinkListener listener, int ioThreads,
                         Supplier<ChannelHandler> protocolStage, long incarnation) {
        return new NetNode(config, listener, ioThreads, protocolStage, incarnation, null);
    }

    /**
     * Starts a node as {@link #start(NetConfig, LinkListener, int, Supplier, long)} does, on one
     * thread of {@code shared} instead of threads of its own.
     */
    static NetNode start(NetConfig config, LinkListener listener, Supplier<ChannelHandler> protocolStage,
                         long incarnation, NetLoops shared) {
        return new NetNode(config, listener, 1, protocolStage, incarnation, shared);
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
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel accepted) {
                        // Tracked so that close() ends them even when the threads outlive this node.
                        channels.add(accepted);
                        accepted.pipeline().addLast(serverInitializer);
                    }
                });
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
     * the group down also closes the connections that peers opened. On shared
     * {@link NetLoops} the threads keep running for the other hosts, and the
     * connections peers opened are closed one by one (they are in the channel group).
     */
    @Override
    public void close() {
        channels.close().awaitUninterruptibly(config.heartbeatTimeoutMs());
        if (!ownsGroup) {
            return;
        }
        group.shutdownGracefully(0, config.heartbeatPeriodMs(), TimeUnit.MILLISECONDS).awaitUninterruptibly();
    }
}
