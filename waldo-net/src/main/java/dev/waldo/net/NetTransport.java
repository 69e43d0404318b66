package dev.waldo.net;

import dev.waldo.runtime.Transport;
import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's {@link Transport} over TCP: one host living on a {@link NetNode}, its own with a
 * single I/O thread, so that every event the host receives (messages, links going
 * down and up, ticks) arrives on that one thread, in order, as the contract
 * requires. On a node shared with other hosts ({@link NetNode#shared}), or on
 * several I/O threads of its own ({@link NetConfig#ioThreads}), the events are handed, in
 * the same order, to a serial executor of the host's own, because the host blocks while it persists
 * its votes and decisions. Messages to a host travel on the one link (stream) to it, so they arrive in
 * the order sent; when the link fails the host hears {@code onLinkDown}, and
 * links this host opened are opened again until the peer is back, so a
 * commit decision reaches a participant that was unreachable for a while.
 */
public final class NetTransport implements Transport {
    /** How often the core's clock ticks (re-sending unanswered commit messages every 10 ticks). */
    static final long TICK_MS = 50;
    private static final Logger log = LoggerFactory.getLogger(NetTransport.class);

    private final NetConfig config;
    private final int localHost;
    private final HostNumbers hosts = new HostNumbers();
    private final ProtocolGuard guard;
    private final NetNode node;
    /** False when the host lives on a node shared with other hosts, which outlives it. */
    private final boolean ownsNode;
    private final NetNode.Resident resident;
    private final EventLoop loop;
    /**
     * Where the host hears its events, in order: its own I/O thread, or on shared loops a serial
     * executor of its own (see {@link SerialExecutor}); null for the former.
     */
    private final SerialExecutor events;
    private final long serialBase = System.currentTimeMillis() << 20;
    private final Map<Integer, PeerLink> links = new ConcurrentHashMap<>();
    /** The run of each peer last linked, to tell a restarted peer from a reconnected one. */
    private final Map<Integer, Long> incarnations = new ConcurrentHashMap<>();
    /**
     * Peers this host linked to, by host number, with the identity expected of their node ("" for
     * any the node's authority accepts): linked again after their link goes down, at the address
     * {@link HostNumbers#locate} keeps for them.
     */
    private final Map<Integer, String> dialed = new ConcurrentHashMap<>();
    /** Hosts being dialed on demand by {@link #reach}. */
    private final Set<Integer> reaching = ConcurrentHashMap.newKeySet();
    private final LinkListener linkEvents;
    private volatile Receiver receiver;
    private volatile LinkListener observer;
    private volatile Function<Object, String> callCheck = request -> null;
    private volatile boolean closed;
    private ScheduledFuture<?> ticks;
    private volatile Runnable tick;

    /** A transport for host {@code config.hostId()} on a node of its own; Waldo struct values are rebuilt with {@code structs}. */
    public NetTransport(NetConfig config, StructResolver structs) {
        this(config, structs, null);
    }

    /**
     * A transport for host {@code config.hostId()} living on {@code shared} (null: on a node of its
     * own, with {@code config}'s identity and threads); Waldo struct values are rebuilt with {@code structs}.
     */
    public NetTransport(NetConfig config, StructResolver structs, NetNode shared) {
        this.config = config;
        this.localHost = hosts.register(config.hostId());
        this.guard = new ProtocolGuard(localHost, serialBase);
        ValueCodec values = new ValueCodec(structs);
        this.linkEvents = new LinkEvents();
        this.ownsNode = shared == null;
        this.node = shared == null ? NetNode.own(config) : shared;
        this.loop = node.group().next();
        // One thread of its own hears everything in order by itself; links on several threads
        // (a shared node's, or more than one of its own) hand their events to one serial executor.
        this.events = ownsNode && config.ioThreads() == 1 ? null
                : new SerialExecutor("waldo-events-" + config.hostId());
        this.resident = node.join(config.hostId(), serialBase, linkEvents,
                peer -> new ProtocolCodec(localHost, hosts.register(peer), hosts, guard, values));
    }

    /** Runs {@code event} for the host, from the I/O thread: at once, or queued for the host's own thread. */
    private void hear(Runnable event) {
        if (events == null) {
            event.run();
        } else {
            events.execute(event);
        }
    }

    /** Runs {@code event} for the host, from any thread. */
    private void hearLater(Runnable event) {
        if (events == null) {
            loop.execute(event);
        } else {
            events.execute(event);
        }
    }

    /** This host's configuration. */
    public NetConfig config() {
        return config;
    }

    /**
     * Accepts peers on {@code address} (port 0 picks one) and returns the bound address: the node's,
     * which on a shared node every host of it shares.
     */
    public InetSocketAddress listen(InetSocketAddress address) {
        return node.listen(address);
    }

    /**
     * Links to the host of the node at {@code address} (the host its Hello names), or reuses the
     * link this transport already opened there. If the link later goes down, this transport opens
     * it again every heartbeat period until the peer answers or the transport closes.
     *
     * @return completes with the peer's host id once the link is up
     */
    public CompletableFuture<String> connect(InetSocketAddress address) {
        return connect(address, null, null);
    }

    /**
     * Links to host {@code host} of the node at {@code address}, as {@link #connect(InetSocketAddress)}
     * does; the node there must speak for {@code host}.
     *
     * @param host the peer host, or null for the host the node's Hello names
     * @param expected the identity of the node that must answer there (see {@link PeerIdentity#name}),
     *     which then speaks for {@code host}; null for any node this node's {@link HostAuthority}
     *     lets speak for it. Anyone else fails the future with a {@link WrongPeerException}, and no
     *     link is made (nor made again).
     */
    public CompletableFuture<String> connect(InetSocketAddress address, String host, String expected) {
        // One link per host: a second would replace the first and fail the calls in flight on it,
        // so a host already linked at that address is reused.
        PeerLink known = linkedAt(address, host);
        if (known != null) {
            return wrongPeer(expected, known) ? CompletableFuture.failedFuture(
                    new WrongPeerException(address, expected, known.identity()))
                    : CompletableFuture.completedFuture(known.hostId());
        }
        return resident.open(address, host, expected).thenApply(link -> {
            hosts.locate(link.hostId(), address);
            dialed.put(HostNumbers.of(link.hostId()), expected == null ? "" : expected);
            return link.hostId();
        });
    }

    /**
     * The active link this transport opened to {@code host} (null: any host) at {@code address}, or
     * null. A named host is looked up by its number: an operator connecting to the 1,000 switches of
     * one site agent went through every link it had dialed for each (5 % of its CPU).
     */
    private PeerLink linkedAt(InetSocketAddress address, String host) {
        if (host != null) {
            int peer = hosts.known(host);
            return peer != -1 && dialed.containsKey(peer) ? activeAt(peer, address, host) : null;
        }
        for (int peer : dialed.keySet()) {
            PeerLink link = activeAt(peer, address, null);
            if (link != null) {
                return link;
            }
        }
        return null;
    }

    /** The link to {@code peer} if it is active, at {@code address} and (unless null) to {@code host}; else null. */
    private PeerLink activeAt(int peer, InetSocketAddress address, String host) {
        PeerLink link = links.get(peer);
        return address.equals(hosts.address(peer)) && link != null && link.isActive()
                && (host == null || host.equals(link.hostId())) ? link : null;
    }

    private static boolean wrongPeer(String expected, PeerLink link) {
        return expected != null && !expected.equals(link.identity().name());
    }

    /**
     * Bytes on the wire through all of this host's node's connections, heartbeats and TLS included
     * (on a shared node, all its hosts').
     */
    public TrafficCounter traffic() {
        return node.traffic();
    }

    /** The link to {@code hostId}, or null when there is none. */
    public PeerLink link(String hostId) {
        return links.get(HostNumbers.of(hostId));
    }

    /**
     * Checks every incoming call's request before the host sees it: a non-null
     * answer is a protocol violation that closes the link (a step for an
     * endpoint that does not exist here, for instance).
     */
    void checkCalls(Function<Object, String> check) {
        this.callCheck = check;
    }

    /** Also reports link events and non-protocol messages to {@code observer} (the host wiring uses it). */
    void observe(LinkListener observer) {
        this.observer = observer;
    }

    @Override
    public int localHost() {
        return localHost;
    }

    /** Hosts become known once a link to them was up; others are not on the network. */
    @Override
    public int hostNumber(String hostId) {
        return hosts.known(hostId);
    }

    /**
     * Registers {@code hostId} without a link or an address, so that frames can
     * name it; -1 if its number collides with another known host's.
     */
    @Override
    public int learnHost(String hostId) {
        try {
            return hosts.register(hostId);
        } catch (ProtocolViolationException collision) {
            return -1;
        }
    }

    @Override
    public String hostId(int host) {
        return hosts.id(host);
    }

    /**
     * The start time in milliseconds, shifted left 20 bits: a restarted host
     * begins above its previous run unless that run started over a million
     * attempts per millisecond it was up, or the clock stepped back. The wire
     * sends serials as differences, so their size costs no bytes.
     */
    @Override
    public long attemptSerialBase() {
        return serialBase;
    }

    @Override
    public void start(Receiver receiver) {
        this.receiver = receiver;
        NetLoops shared = node.loops();
        if (shared == null) {
            ticks = loop.scheduleAtFixedRate(() -> hear(receiver::onTick), TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
            return;
        }
        // On shared threads the loops' batch ticks every host (see NetLoops): the receiver takes
        // its core's lock for every event, so a tick from the batch's thread is safe beside the
        // events this host's own thread hears. A host whose thread is at work now (it may be
        // writing its log, holding that lock) skips this tick rather than stall the batch for
        // every other host; the next tick comes one period later.
        tick = () -> {
            if (!closed && !events.busy()) {
                receiver.onTick();
            }
        };
        shared.tickEvery(tick);
    }

    @Override
    public void send(Envelope envelope) {
        if (envelope.to() == localHost) {
            hearLater(() -> deliver(envelope));
            return;
        }
        PeerLink link = links.get(envelope.to());
        if (link == null) {
            // The contract: a message that cannot arrive is followed by link down. The
            // core asks again later (a participant in doubt re-sends its Query), and by
            // then the link this starts may be up.
            hearLater(() -> {
                if (!links.containsKey(envelope.to()) && receiver != null) {
                    receiver.onLinkDown(envelope.to());
                }
                reach(envelope.to());
            });
            return;
        }
        (envelope.unhurried() ? link.sendUnhurried(envelope) : link.send(envelope)).addListener(written -> {
            if (!written.isSuccess() && link.isActive()) {
                // A message that cannot be written must be followed by link down (the
                // Transport contract), or the core would wait for its answer forever.
                link.close("cannot send " + envelope.message().getClass().getSimpleName() + ": "
                        + written.cause().getMessage());
            }
        });
    }

    private void deliver(Envelope envelope) {
        if (receiver != null && !closed) {
            receiver.onMessage(envelope);
        }
    }

    /**
     * On shared threads, a host whose core has nothing timed leaves the loops' batch of ticks, and
     * joins it again when something reaches its core: an idle site agent's batch then visits only
     * the hosts with something to re-send or ask. A host on threads of its own keeps its timer
     * (its host skips the quiet ticks itself).
     */
    @Override
    public void wantTicks(boolean wanted) {
        Runnable mine = tick;
        if (mine == null) {
            return;
        }
        if (wanted && !closed) {
            node.loops().tickEvery(mine);
            if (closed) {
                node.loops().stopTicking(mine); // close() ran meanwhile: it may have missed this
            }
        } else {
            node.loops().stopTicking(mine);
        }
    }

    /** Closes every link of this host and leaves its node (closing the node if it is the host's own). */
    @Override
    public void close() {
        closed = true;
        if (ticks != null) {
            ticks.cancel(false);
        }
        if (tick != null) {
            node.loops().stopTicking(tick);
        }
        resident.leave("host " + config.hostId() + " closed");
        if (ownsNode) {
            node.close();
        }
    }

    /**
     * Links to a host this host has no link to, if it knows where the host is
     * (it dialed it before, or a peer said, see {@link HostNumbers#hearOf}):
     * the other participants of a transaction whose coordinator was lost. One
     * attempt at a time; the node there must speak for that host.
     */
    private void reach(int host) {
        InetSocketAddress address = hosts.address(host);
        if (address == null || closed || links.containsKey(host) || !reaching.add(host)) {
            return;
        }
        resident.open(address, hosts.id(host), null).whenComplete((link, failure) -> reaching.remove(host));
    }

    private void redial(int host) {
        String expected = dialed.get(host);
        InetSocketAddress address = expected == null ? null : hosts.address(host);
        if (address == null || closed) {
            return;
        }
        loop.schedule(() -> {
            if (closed || links.containsKey(host)) {
                return;
            }
            resident.open(address, hosts.id(host), expected.isEmpty() ? null : expected)
                    .whenComplete((link, failure) -> {
                        if (failure != null) {
                            redial(host);
                        }
                    });
        }, config.heartbeatPeriodMs(), TimeUnit.MILLISECONDS);
    }

    /** Keeps one link per peer host and turns link events into the receiver's. Runs on the I/O thread. */
    private final class LinkEvents implements LinkListener {
        @Override
        public void linkUp(PeerLink link) {
            int host = hosts.register(link.hostId());
            PeerLink previous = links.put(host, link);
            if (previous != null) {
                // Messages on the old link may be lost: tell the core, as for any link down.
                previous.close("replaced by a newer connection to the same host");
                notifyDown(host);
            }
            Long before = incarnations.put(host, link.incarnation());
            if (before != null && before != link.incarnation() && receiver != null) {
                log.info("host {}: {} restarted", config.hostId(), link.hostId());
                hear(() -> receiver.onPeerRestarted(host));
            }
            if (receiver != null) {
                hear(() -> receiver.onLinkUp(host));
            }
            LinkListener watcher = observer;
            if (watcher != null) {
                watcher.linkUp(link);
            }
        }

        @Override
        public void message(PeerLink link, Object message) {
            if (message instanceof Envelope envelope) {
                if (envelope.message() instanceof Message.Call call) {
                    String refusal = callCheck.apply(call.request());
                    if (refusal != null) {
                        throw new ProtocolViolationException(refusal);
                    }
                }
                hear(() -> deliver(envelope));
                return;
            }
            LinkListener watcher = observer;
            if (watcher == null) {
                throw new ProtocolViolationException("unexpected frame " + message.getClass().getSimpleName());
            }
            watcher.message(link, message);
        }

        @Override
        public void linkDown(PeerLink link, String reason) {
            int host = HostNumbers.of(link.hostId());
            if (!links.remove(host, link)) {
                return;
            }
            log.info("host {} lost link to {}: {}", config.hostId(), link.hostId(), reason);
            notifyDown(host);
            LinkListener watcher = observer;
            if (watcher != null) {
                watcher.linkDown(link, reason);
            }
            redial(host);
        }

        private void notifyDown(int host) {
            if (receiver != null && !closed) {
                hear(() -> receiver.onLinkDown(host));
            }
        }
    }
}
