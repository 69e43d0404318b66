package dev.waldo.net;

import dev.waldo.net.wire.Attach;
import dev.waldo.net.wire.Attached;
import dev.waldo.net.wire.Frame;
import dev.waldo.runtime.DecisionRegister;
import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.Requests;
import dev.waldo.runtime.WaldoEndpoint;
import dev.waldo.runtime.core.TxnId;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.storage.Storage;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Waldo {@link Host} on the network, with socket-like calls for endpoints:
 * {@link #listen} offers an endpoint factory at an address, and
 * {@link #connect} creates a local endpoint whose partner the listening host
 * creates with that factory.
 *
 * <pre>{@code
 * // switch side
 * NetHost service = NetHost.start(NetConfig.defaults("switch-1", Path.of("state")));
 * service.listen(new InetSocketAddress("127.0.0.1", 7400), Agent::create, agent -> log.info("new {}", agent));
 * // CLI side
 * NetHost cli = NetHost.start(NetConfig.defaults("cli", Path.of("cli-state")));
 * Manager manager = cli.connect(new InetSocketAddress("127.0.0.1", 7400), Manager::create);
 * manager.apply(plan); // one transaction across both processes
 * }</pre>
 */
public final class NetHost implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NetHost.class);
    /** How long {@link #connect} waits for the link and the partner endpoint, at least. */
    static final long CONNECT_TIMEOUT_MS = 10_000;
    private final NetTransport transport;
    private final Host host;
    private final Map<Integer, Listener<?>> listeners = new ConcurrentHashMap<>();
    private final Map<Long, CompletableFuture<Attached>> attaching = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();
    /** Endpoint factories run onCreate transactions, which block: never on the I/O thread. */
    private final ExecutorService factoryWork = Executors.newVirtualThreadPerTaskExecutor();

    private NetHost(NetConfig config, StructResolver structs, Storage storage, NetNode shared,
            DecisionRegister register) {
        this.transport = new NetTransport(config, structs, shared);
        this.transport.observe(new Wiring());
        this.host = register == null ? Host.create(config.hostId(), transport, storage)
                : Host.create(config.hostId(), transport, storage, register);
        this.transport.checkCalls(this::refusal);
    }

    /** Why a call from a peer cannot be for this host, or null: its target object must exist here. */
    private String refusal(Object request) {
        return switch (request) {
            case Requests.Invocation call -> host.object(call.object()) == null ? "call of " + call.function()
                    + " on object " + call.object() + ", which does not exist on host " + host.id() : null;
            case Requests.StepInvocation step -> host.object(step.object()) instanceof WaldoEndpoint ? null
                    : "step " + step.step() + " of sequence " + step.sequence() + " for endpoint " + step.object()
                    + ", which does not exist on host " + host.id();
            default -> "a call that carries no request";
        };
    }

    /** Starts a host for programs without structs, whose transaction records last as long as it runs. */
    public static NetHost start(NetConfig config) {
        return new NetHost(config, StructResolver.NONE, new InMemoryStorage(), null, null);
    }

    /**
     * Starts a host whose struct values are rebuilt with {@code structs} and
     * whose transaction records last as long as it runs.
     */
    public static NetHost start(NetConfig config, StructResolver structs) {
        return new NetHost(config, structs, new InMemoryStorage(), null, null);
    }

    /**
     * Starts a host that keeps its transaction records in {@code storage} and
     * first takes up what an earlier run logged there: to survive a crash,
     * {@code FileStorage.open(config.stateDir().resolve("transactions"))}.
     * The host closes the storage with itself.
     */
    public static NetHost start(NetConfig config, StructResolver structs, Storage storage) {
        return new NetHost(config, structs, storage, null, null);
    }

    /**
     * Starts a host as {@link #start(NetConfig, StructResolver, Storage)} does, whose distributed
     * transactions have their outcomes settled by {@code register} (see {@link DecisionRegister}):
     * every host of the network must use the same register.
     */
    public static NetHost start(NetConfig config, StructResolver structs, Storage storage, DecisionRegister register) {
        return new NetHost(config, structs, storage, null, java.util.Objects.requireNonNull(register, "register"));
    }

    /**
     * Starts a host as {@link #start(NetConfig, StructResolver, Storage)} does, living on {@code
     * shared} instead of a node of its own: many hosts of one process (a site agent's switches) share
     * its listening address, its connections and its threads, and peers reach each host by its id
     * over them. Of {@code config} only the host id and the heartbeat period (how often a lost peer
     * is dialed again) count; the node's configuration decides the rest. Closing the host closes its
     * links and leaves the node running.
     */
    public static NetHost start(NetConfig config, StructResolver structs, Storage storage, NetNode shared) {
        return new NetHost(config, structs, storage, java.util.Objects.requireNonNull(shared, "shared"), null);
    }

    /** The Waldo host, for services and in-process connections. */
    public Host host() {
        return host;
    }

    /** The transport underneath, for diagnostics. */
    public NetTransport transport() {
        return transport;
    }

    /**
     * Offers endpoints made by {@code factory} at {@code address}: each peer
     * that {@link #connect}s to this host there gets a new endpoint as its partner, and
     * {@code onEndpoint} (may be null) runs with it, off the I/O thread. On a shared node the
     * address is the node's, bound once for all its hosts.
     *
     * @return the bound address (port 0 picks a free port)
     */
    public <E extends WaldoEndpoint> InetSocketAddress listen(InetSocketAddress address, EndpointFactory<E> factory,
                                                              Consumer<? super E> onEndpoint) {
        InetSocketAddress bound = transport.listen(address);
        listeners.put(bound.getPort(), new Listener<>(factory, onEndpoint));
        return bound;
    }

    /**
     * Creates an endpoint here with {@code factory} and connects it to a new
     * partner made by the factory listening at {@code address}.
     *
     * @throws NetworkException if the host at {@code address} cannot be
     *     reached within 10 s (or the heartbeat timeout, if longer) or refuses the connection
     */
    public <E extends WaldoEndpoint> E connect(InetSocketAddress address, EndpointFactory<E> factory) {
        return connect(address, null, factory);
    }

    /**
     * Connects as {@link #connect(InetSocketAddress, EndpointFactory)} does, but only to the host
     * whose identity ({@link PeerIdentity#name}) is {@code expected}: under mutual TLS the name its
     * certificate from the project CA carries.
     *
     * @param expected the identity that must answer at {@code address}, or null for any
     * @throws WrongPeerException if another host answered (nothing but the handshake was exchanged)
     * @throws NetworkException if the host cannot be reached or refuses the connection
     */
    public <E extends WaldoEndpoint> E connect(InetSocketAddress address, String expected,
                                               EndpointFactory<E> factory) {
        return connect(address, null, expected, factory);
    }

    /**
     * Connects as {@link #connect(InetSocketAddress, EndpointFactory)} does, to host {@code host} of
     * the node at {@code address}, which must be identity {@code expected}: a site agent's node
     * speaks for the hosts of its switches, each reached by its own host id over one connection.
     *
     * @param target the host to create the partner on, or null for the host the node there names itself
     * @param expected the identity of the node that must answer at {@code address}, or null for any
     *     node this host's {@link HostAuthority} lets speak for {@code target}
     * @throws WrongPeerException if another node answered (nothing but the handshake was exchanged)
     * @throws LinkRefusedException if the node there does not serve {@code target} (now)
     * @throws NetworkException if the node cannot be reached
     */
    public <E extends WaldoEndpoint> E connect(InetSocketAddress address, String target, String expected,
                                               EndpointFactory<E> factory) {
        long timeoutMs = Math.max(CONNECT_TIMEOUT_MS, transport.config().heartbeatTimeoutMs());
        String peer = await(transport.connect(address, target, expected), timeoutMs, "connect to "
                + (target == null ? "" : target + " at ") + address);
        E local = factory.create(host);
        long request = requests.incrementAndGet();
        CompletableFuture<Attached> answer = new CompletableFuture<>();
        attaching.put(request, answer);
        PeerLink link = transport.link(peer);
        if (link == null) {
            attaching.remove(request);
            throw new NetworkException("link to " + peer + " went down while connecting");
        }
        link.send(Frame.newBuilder().setAttach(Attach.newBuilder().setRequest(request)
                .setPort(address.getPort()).setPartner(local.ref().object())).build());
        Attached attached = await(answer, timeoutMs, "create a partner on " + peer);
        if (!attached.getError().isEmpty()) {
            throw new NetworkException("host " + peer + " refused the endpoint: " + attached.getError());
        }
        Host.pair(local, new EndpointRef(peer, attached.getObject()));
        return local;
    }

    private <T> T await(CompletableFuture<T> future, long timeoutMs, String what) {
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof WrongPeerException || e.getCause() instanceof LinkRefusedException) {
                throw (NetworkException) e.getCause();
            }
            throw new NetworkException("cannot " + what + ": " + e.getCause().getMessage());
        } catch (TimeoutException e) {
            throw new NetworkException("cannot " + what + ": no answer within " + timeoutMs + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NetworkException("interrupted while trying to " + what);
        }
    }

    /** Who is at the other end of the link to host {@code hostId}, if there is a link now. */
    public Optional<PeerIdentity> peer(String hostId) {
        return Optional.ofNullable(transport.link(hostId)).map(PeerLink::identity);
    }

    /**
     * The host that started transaction attempt {@code transactionId} (as
     * {@link dev.waldo.runtime.BoundTransaction#id()} gives it): this host's
     * own identity, certified, when it started it; else the identity on the
     * link to that host; empty when the host is unknown or has no link now.
     * A binding uses it to decide whom to let change its device, and to record who did.
     */
    public Optional<PeerIdentity> originOf(String transactionId) {
        String origin = transport.hostId(TxnId.parse(transactionId).host());
        if (origin == null) {
            return Optional.empty();
        }
        if (origin.equals(host.id())) {
            return Optional.of(new PeerIdentity(origin, PeerIdentity.nameOf(origin), Set.of(), true));
        }
        return peer(origin);
    }

    /** Stops the host: its partners see a NetworkException from then on. */
    @Override
    public void close() {
        host.close();
        factoryWork.shutdown();
    }

    /** One listening factory and its callback. */
    private record Listener<E extends WaldoEndpoint>(EndpointFactory<E> factory, Consumer<? super E> onEndpoint) {
        long create(Host host, EndpointRef partner) {
            E endpoint = factory.create(host);
            Host.pair(endpoint, partner);
            if (onEndpoint != null) {
                onEndpoint.accept(endpoint);
            }
            return endpoint.ref().object();
        }
    }

    /** Handles the Attach handshake that creates partner endpoints. */
    private final class Wiring implements LinkListener {
        @Override
        public void linkUp(PeerLink link) {
        }

        @Override
        public void message(PeerLink link, Object message) {
            if (!(message instanceof Frame frame)) {
                throw new ProtocolViolationException("unexpected message " + message.getClass().getSimpleName());
            }
            if (frame.hasAttach()) {
                Attach attach = frame.getAttach();
                factoryWork.execute(() -> attach(link, attach));
            } else if (frame.hasAttached()) {
                CompletableFuture<Attached> waiting = attaching.remove(frame.getAttached().getRequest());
                if (waiting == null) {
                    throw new ProtocolViolationException("answer to endpoint request "
                            + frame.getAttached().getRequest() + " that this host never made");
                }
                waiting.complete(frame.getAttached());
            } else {
                throw new ProtocolViolationException("unexpected frame " + frame.getBodyCase());
            }
        }

        private void attach(PeerLink link, Attach attach) {
            Attached.Builder answer = Attached.newBuilder().setRequest(attach.getRequest());
            Listener<?> listener = listeners.get(attach.getPort());
            if (listener == null) {
                answer.setError("no endpoint factory listens on port " + attach.getPort());
            } else {
                try {
                    answer.setObject(listener.create(host, new EndpointRef(link.hostId(), attach.getPartner())));
                } catch (RuntimeException e) {
                    log.warn("endpoint factory on port {} failed for host {}", attach.getPort(), link.hostId(), e);
                    answer.setError("endpoint factory failed: " + e.getMessage());
                }
            }
            link.send(Frame.newBuilder().setAttached(answer).build());
        }

        @Override
        public void linkDown(PeerLink link, String reason) {
        }
    }
}
