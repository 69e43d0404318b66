package dev.waldo.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The network side of a process, or of one host: it listens and dials, makes and checks the
 * connections (TLS, Hello, heartbeats, see {@link WaldoChannelInitializer}), and carries on them the
 * streams of the hosts that live on it ({@link Resident}s), reporting each host's links to that
 * host's {@link LinkListener}. A connection joins two nodes and carries the links of any pairs of
 * their hosts; the node that dials opens a stream per pair, and the node that accepts routes it to
 * the host the stream names (see {@link Connection}).
 *
 * <p>A host started on its own ({@link NetHost#start(NetConfig)}) has a node of its own whose
 * identity is the host's. A site agent serving many switches, each its own Waldo host, starts one
 * node with an identity of its own ({@link #shared}) and every switch's host on it: one listening
 * port, one TLS handshake and one heartbeat per operator instead of one per switch. Which hosts a
 * peer node may speak for is its configuration's {@link HostAuthority}.
 *
 * <pre>{@code
 * try (NetNode a = NetNode.start(NetConfig.defaults("a", stateDir), listener)) {
 *     InetSocketAddress bound = a.listen(new InetSocketAddress("127.0.0.1", 0));
 *     PeerLink link = a.connect(otherAddress).get();
 * }
 * }</pre>
 */
public final class NetNode implements AutoCloseable {
    private final NetConfig config;
    private final EventLoopGroup group;
    /** The shared threads this node runs on (their tick batches tick its hosts); null on threads of its own. */
    private final NetLoops shared;
    private final IoTransport io;
    private final WaldoChannelInitializer serverInitializer;
    private final WaldoChannelInitializer clientInitializer;
    private final TrafficCounter traffic = new TrafficCounter();
    private final ChannelGroup channels = new DefaultChannelGroup("waldo", GlobalEventExecutor.INSTANCE);
    private final Map<String, Resident> residents = new ConcurrentHashMap<>();
    /** The connection this node dialed to each address, while it is usable: its hosts' links share it. */
    private final Map<InetSocketAddress, CompletableFuture<Connection>> dialed = new ConcurrentHashMap<>();
    /** Addresses this node listens on, as asked (with a port) and as bound. */
    private final Map<InetSocketAddress, InetSocketAddress> listening = new ConcurrentHashMap<>();

    private NetNode(NetConfig config, int ioThreads, NetLoops shared) {
        this.config = config;
        this.shared = shared;
        this.io = shared == null ? IoTransport.best() : shared.io();
        HostCredentials credentials = HostCredentials.load(config);
        TlsContexts tls = credentials == null ? null : TlsContexts.build(credentials);
        PeerPins pins = config.security() == Security.SELF_SIGNED ? new PeerPins(config.stateDir()) : null;
        this.serverInitializer = new WaldoChannelInitializer(this, tls == null ? null : tls.server(), pins, traffic,
                true);
        this.clientInitializer = new WaldoChannelInitializer(this, tls == null ? null : tls.client(), pins, traffic,
                false);
        this.group = shared == null ? io.newGroup(ioThreads, "waldo-net-" + config.hostId()) : shared.group();
    }

    /**
     * Starts a node of one host, {@code config.hostId()}, with one I/O thread per core (Netty's
     * default), creating its self-signed certificate in its state directory on first start. Its
     * links carry frames as they are (no core messages): for tools and tests of the connection layer.
     */
    public static NetNode start(NetConfig config, LinkListener listener) {
        return start(config, listener, 0);
    }

    /** Starts a node of one host, as {@link #start(NetConfig, LinkListener)} does, with {@code ioThreads} I/O threads. */
    public static NetNode start(NetConfig config, LinkListener listener, int ioThreads) {
        NetNode node = new NetNode(config, ioThreads, null);
        node.join(config.hostId(), 0, listener, null);
        return node;
    }

    /**
     * Starts a node with identity {@code config.hostId()} on {@code loops}, for the hosts of a process
     * that serves many ({@link NetHost#start(NetConfig, StructResolver, dev.waldo.runtime.storage.Storage,
     * NetNode)}): they share its listening address and its connections, and their clock ticks come in
     * the loops' batches. Closing the node closes its connections and leaves the loops running.
     */
    public static NetNode shared(NetConfig config, NetLoops loops) {
        return new NetNode(config, 1, java.util.Objects.requireNonNull(loops, "loops"));
    }

    /** A node of its own for one host with {@code config.ioThreads()} I/O threads; the host joins it. */
    static NetNode own(NetConfig config) {
        return new NetNode(config, config.ioThreads(), null);
    }

    /**
     * Makes host {@code hostId} live on this node: streams opened to it are routed to {@code
     * listener}, each with the codec {@code codecs} makes for its peer host (null: frames as they are).
     *
     * @param incarnation the host's run, told to every peer it links to
     * @throws IllegalStateException if a host of that id lives here already
     */
    Resident join(String hostId, long incarnation, LinkListener listener, Function<String, ProtocolCodec> codecs) {
        Resident resident = new Resident(hostId, incarnation, listener, codecs);
        if (residents.putIfAbsent(hostId, resident) != null) {
            throw new IllegalStateException("host " + hostId + " already lives on node " + config.hostId());
        }
        return resident;
    }

    /** The host {@code hostId} of this node, or null. */
    Resident resident(String hostId) {
        return residents.get(hostId);
    }

    /** Whether peer node {@code node} may speak for host {@code hostId}. */
    boolean vouches(PeerIdentity node, String hostId) {
        return config.authority().vouches(node, hostId);
    }

    /** The I/O threads; with one thread, everything the node reports happens on it, in order. */
    EventLoopGroup group() {
        return group;
    }

    /** The shared loops this node runs on, or null when it has threads of its own. */
    NetLoops loops() {
        return shared;
    }

    /** Bytes on the wire through all of this node's connections (all its hosts'). */
    public TrafficCounter traffic() {
        return traffic;
    }

    /** This node's configuration. */
    public NetConfig config() {
        return config;
    }

    /**
     * Accepts peers on {@code address} (port 0 picks a free port), for every host of this node. An
     * address this node listens on already is not bound twice.
     *
     * @return the address actually bound
     * @throws UncheckedIOException if the address cannot be bound
     */
    public InetSocketAddress listen(InetSocketAddress address) {
        InetSocketAddress known = listening.get(address);
        if (known != null) {
            return known;
        }
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
        InetSocketAddress actual = (InetSocketAddress) bound.channel().localAddress();
        listening.put(actual, actual);
        if (address.getPort() != 0) {
            listening.put(address, actual);
        }
        return actual;
    }

    /**
     * Links this node's one host to the host of the node at {@code address} (the host its Hello
     * names): for a node started with {@link #start(NetConfig, LinkListener)}.
     *
     * @return completes with the link once the peer answered, or exceptionally if the connection,
     *     its handshake or the link fails
     */
    public CompletableFuture<PeerLink> connect(InetSocketAddress address) {
        Resident own = residents.get(config.hostId());
        if (own == null) {
            throw new IllegalStateException("node " + config.hostId() + " has no host of its own id");
        }
        return own.open(address, null, null);
    }

    /** The connection this node dialed to {@code address}, reused while it is up, else dialed now. */
    private CompletableFuture<Connection> connection(InetSocketAddress address) {
        return dialed.compute(address, (key, known) -> usable(known) ? known : dial(key));
    }

    private static boolean usable(CompletableFuture<Connection> known) {
        if (known == null || known.isCompletedExceptionally()) {
            return false;
        }
        return !known.isDone() || known.join().isActive();
    }

    private CompletableFuture<Connection> dial(InetSocketAddress address) {
        CompletableFuture<Connection> connected = new CompletableFuture<>();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(io.socket())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.heartbeatTimeoutMs())
                .attr(Connection.DIALED, connected)
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
     * Closes every listener and connection and stops the I/O threads; on shared {@link NetLoops}
     * the threads keep running for the others, and the connections peers opened are closed one by
     * one (they are in the channel group).
     */
    @Override
    public void close() {
        channels.close().awaitUninterruptibly(config.heartbeatTimeoutMs());
        if (shared != null) {
            return;
        }
        group.shutdownGracefully(0, config.heartbeatPeriodMs(), TimeUnit.MILLISECONDS).awaitUninterruptibly();
    }

    /**
     * A host that lives on this node: the links (streams) to its peers, on whichever connections
     * carry them, and where their events go.
     */
    final class Resident {
        private final String hostId;
        private final long incarnation;
        private final LinkListener listener;
        private final Function<String, ProtocolCodec> codecs;
        private final Set<PeerLink> links = ConcurrentHashMap.newKeySet();
        private volatile boolean left;

        private Resident(String hostId, long incarnation, LinkListener listener,
                Function<String, ProtocolCodec> codecs) {
            this.hostId = hostId;
            this.incarnation = incarnation;
            this.listener = listener;
            this.codecs = codecs;
        }

        String hostId() {
            return hostId;
        }

        long incarnation() {
            return incarnation;
        }

        LinkListener listener() {
            return listener;
        }

        /**
         * Links this host to host {@code to} (null: the host the peer node's Hello names) of the
         * node at {@code address}, over the connection this node keeps there (dialed if there is
         * none). When {@code expected} is given, the node there must be that identity, and it then
         * speaks for {@code to}; otherwise this node's {@link HostAuthority} must let it.
         *
         * @return completes with the link once the peer answered; fails with {@link
         *     WrongPeerException} (nothing but the handshake crossed) when someone other than
         *     {@code expected} is at the address
         */
        CompletableFuture<PeerLink> open(InetSocketAddress address, String to, String expected) {
            return connection(address).thenCompose(connection -> connection.open(this, to, expected, address));
        }

        /**
         * The link of a stream just opened to or by peer host {@code peerHost} of node {@code node},
         * or null when this host has left.
         */
        PeerLink link(Connection connection, int stream, String peerHost, PeerIdentity node, long peerIncarnation) {
            if (left) {
                return null;
            }
            PeerIdentity identity = new PeerIdentity(peerHost, node.name(), node.roles(), node.certified());
            PeerLink link = new PeerLink(connection, stream, identity, peerIncarnation, this,
                    codecs == null ? null : codecs.apply(peerHost));
            links.add(link);
            return link;
        }

        /** {@code link} went down. */
        void forget(PeerLink link) {
            links.remove(link);
        }

        /** Closes every link of this host, telling its peers {@code reason}, and leaves the node. */
        void leave(String reason) {
            left = true;
            residents.remove(hostId, this);
            for (PeerLink link : List.copyOf(links)) {
                link.close(reason);
            }
        }
    }
}
