package dev.waldo.net;

import dev.waldo.runtime.Transport;
import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's {@link Transport} over TCP: one {@link NetNode} with a single
 * I/O thread, so that every event the host receives (messages, links going
 * down and up, ticks) arrives on that one thread, in order, as the contract
 * requires. On I/O threads shared with other hosts ({@link NetLoops}), or on
 * several of its own ({@link NetConfig#ioThreads}), the events are handed, in
 * the same order, to a serial executor of the host's own, because the host blocks while it persists its votes and decisions. Messages to a host travel on the one link to it, so they arrive in
 * the order sent; when the link fails the host hears {@code onLinkDown}, and
 * connections this host opened are dialed again until the peer is back, so a
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
     * Peers this host dialed, by host number: dialed again after their link goes down, at the
     * address {@link HostNumbers#locate} keeps for them.
     */
    private final Set<Integer> dialed = ConcurrentHashMap.newKeySet();
    /** Hosts being dialed on demand by {@link #reach}. */
    private final Set<Integer> reaching = ConcurrentHashMap.newKeySet();
    private final LinkListener linkEvents;
    private volatile Receiver receiver;
    private volatile LinkListener observer;
    private volatile Function<Object, String> callCheck = request -> null;
    private volatile boolean closed;
    private ScheduledFuture<?> ticks;
    /** The shared I/O threads this host runs on, whose batches tick it; null on a thread of its own. */
    private final NetLoops shared;
    private volatile Runnable tick;

    /** A transport for host {@code config.hostId()}; Waldo struct values are rebuilt with {@code structs}. */
    public NetTransport(NetConfig config, StructResolver structs) {
        this(config, structs, null);
    }

    /**
     * A transport for host {@code config.hostId()} on one thread of {@code shared} (null: a thread of
     * its own); Waldo struct values are rebuilt with {@code structs}.
     */
    public NetTransport(NetConfig config, StructResolver structs, NetLoops shared) {
        this.config = config;
        this.localHost = hosts.register(config.hostId());
        this.guard = new ProtocolGuard(localHost, serialBase);
        ValueCodec values = new ValueCodec(structs);
        this.linkEvents = new LinkEvents();
        Supplier<ChannelHandler> codec = () -> new ProtocolCodec(localHost, hosts, guard, values);
        this.node = shared == null ? NetNode.start(config, linkEvents, config.ioThreads(), codec, serialBase)
                : NetNode.start(config, linkEvents, codec, serialBase, shared);
        this.loop = node.group().next();
        // One thread of its own hears everything in order by itself; links on several threads
        // (shared ones, or more than one of its own) hand their events to one serial executor.
        this.events = shared == null && config.ioThreads() == 1 ? null
                : new SerialExecutor("waldo-events-" + config.hostId());
        this.shared = shared;
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

    /** Accepts peers on {@code address} (port 0 picks one) and returns the bound address. */
    public InetSocketAddress listen(InetSocketAddress address) {
        return node.listen(address);
    }

    /**
     * Connects to the host at {@code address}, or reuses the link this
     * transport already opened to that address. If the link later goes down,
     * this transport dials the address again every heartbeat period until the
     * peer answers or the transport closes.
     *
     * @return completes with the peer's host id once the link is up
     */
    public CompletableFuture<String> connect(InetSocketAddress address) {
        return connect(address, null);
    }

    /**
     * Connects as {@link #connect(InetSocketAddress)} does, but only to identity
     * {@code expected} (see {@link PeerIdentity#name}): a link to anyone else
     * is closed at once, never dialed again, and the future fails with a
     * {@link WrongPeerException}.
     *
     * @param expected the identity that must answer, or null for any
     */
    public CompletableFuture<String> connect(InetSocketAddress address, String expected) {
        // One link per host: a second connection would replace the first and fail
        // the calls in flight on it, so an address already linked is reused.
        for (int known : dialed) {
            PeerLink link = links.get(known);
            if (address.equals(hosts.address(known)) && link != null && link.isActive()) {
                return wrongPeer(expected, link) ? CompletableFuture.failedFuture(
                        new WrongPeerException(address, expected, link.identity()))
                        : CompletableFuture.completedFuture(link.hostId());
            }
        }
        return node.connect(address).thenApply(link -> {
            if (wrongPeer(expected, link)) {
                WrongPeerException wrong = new WrongPeerException(address, expected, link.identity());
                link.close(wrong.getMessage());
                throw new CompletionException(wrong);
            }
            hosts.locate(link.hostId(), address);
            dialed.add(HostNumbers.of(link.hostId()));
            return link.hostId();
        });
    }

    private static boolean wrongPeer(String expected, PeerLink link) {
        return expected != null && !expected.equals(link.identity().name());
    }

    /** Bytes on the wire through all of this host's connections, heartbeats and TLS included. */
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

    @Override
    public void close() {
        closed = true;
        if (ticks != null) {
            ticks.cancel(false);
        }
        if (tick != null) {
            shared.stopTicking(tick);
        }
        node.close();
    }

    /**
     * Dials a host this host has no link to, if it knows where the host is
     * (it dialed it before, or a peer said, see {@link HostNumbers#hearOf}):
     * the other participants of a transaction whose coordinator was lost. One
     * attempt at a time; a link that answers with another host id is closed.
     */
    private void reach(int host) {
        InetSocketAddress address = hosts.address(host);
        if (address == null || closed || links.containsKey(host) || !reaching.add(host)) {
            return;
        }
        node.connect(address).whenComplete((link, failure) -> {
            reaching.remove(host);
            if (link != null && HostNumbers.of(link.hostId()) != host) {
                link.close("dialed " + hosts.id(host) + " at " + address + " but " + link.hostId() + " answered");
            }
        });
    }

    private void redial(int host) {
        InetSocketAddress address = dialed.contains(host) ? hosts.address(host) : null;
        if (address == null || closed) {
            return;
        }
        loop.schedule(() -> {
            if (closed || links.containsKey(host)) {
                return;
            }
            node.connect(address).whenComplete((link, failure) -> {
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
