package dev.waldoconf.service;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.net.Security;
import dev.waldo.net.StructResolver;
import dev.waldo.net.LinkRefusedException;
import dev.waldo.net.WrongPeerException;
import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.WaldoEndpoint;
import dev.waldoconf.engine.BoundedParallel;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.engine.ProgressListener.Stage;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import dev.waldoconf.config.SwitchEntry;
import java.util.function.Function;

/**
 * The operator's side over the network, for every operator command: one Waldo host with the
 * operator's identity (one pin store, {@link Operator}), connected to the services of the switches
 * an operation names. The VLAN commands (apply, confirm, rollback, status, through {@link
 * ChangeRunner}) and {@code waldoconf call} ({@link dev.waldoconf.custom.CustomCall}) differ only in
 * the desk they connect and what they call through it ({@link ServiceKind}).
 *
 * <p>Every switch's service is its own Waldo host ({@code switch-NAME}), reached at an address
 * where a node serves it: its own, or its site agent's, which serves every switch of the site over
 * one connection ({@link Service}). Addresses are connected in parallel, at most {@link
 * #CONNECTIONS_IN_FLIGHT} at once; at each address the first switch's link dials the node (one TLS
 * handshake), and the others' links then open over that connection, {@link #LINKS_IN_FLIGHT} at a
 * time. The node at each address must be the one the inventory names there ({@link
 * Identities#nodeIdentity}, proved by its certificate under mutual TLS); another one answering is
 * refused before anything is sent, for every switch at that address.
 */
public final class OperatorSession implements AutoCloseable {
    /**
     * How many service addresses are connected at once. A connection is a TLS handshake and the
     * desk's attach, a few round trips and a little CPU at each end; a window of 8 hides the round
     * trips while neither end gets more handshakes at once than it can finish before its peer's
     * heartbeat timeout (64 at once against a 1,000-switch lab sharing 2 busy cores lost most links
     * that way, and 16 at once still lost one of 128 at a load average of 30).
     */
    public static final int CONNECTIONS_IN_FLIGHT = 8;

    /**
     * How many switches' links are opened at once over the connection to one address (a site
     * agent's). Opening a link is two round trips on a connection already made (the link, then the
     * switch's desk) and a little work in the switch's host; a window keeps a thousand of them from
     * queueing at once behind the agent's I/O thread.
     */
    public static final int LINKS_IN_FLIGHT = 64;

    /**
     * Where an operator reaches one switch's service: the address of the node that serves it, which is
     * its site's agent when it belongs to a site, or else its own.
     */
    public record Service(InetSocketAddress address, Optional<String> site) {
        /** Checks the parts. */
        public Service {
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(site, "site");
        }

        /** Where switch {@code entry}'s service is, as the inventory says. */
        public static Service of(SwitchEntry entry) {
            return new Service(entry.service().resolve(), entry.site());
        }

        /** The service of a switch served alone at {@code address}, on a node of its own. */
        public static Service alone(InetSocketAddress address) {
            return new Service(address, Optional.empty());
        }

        /** The identity of the node that must answer at the address for switch {@code name}. */
        String node(String name) {
            return site.map(Identities::siteIdentity).orElseGet(() -> Identities.serviceIdentity(name));
        }

        /** How {@code waldoconf serve} is told to serve switch {@code name}: {@code --site S} or {@code --switch N}. */
        String served(String name) {
            return site.map(s -> "--site " + s).orElseGet(() -> "--switch " + name);
        }
    }

    /** Where each of {@code switches} has its service, by switch name, in their order. */
    public static Map<String, Service> servicesOf(List<SwitchEntry> switches) {
        Map<String, Service> services = new LinkedHashMap<>();
        switches.forEach(entry -> services.put(entry.name(), Service.of(entry)));
        return services;
    }

    /**
     * The operator's heartbeats: sent every second, as the runtime's default, because each service
     * declares the operator's link down after its own 3 s of silence (a 2 s period lost a link in a
     * 128-switch apply on a busy machine); the operator waits 10 s, not 3 s, before it declares a
     * service's link down, so that a service slowed by a thousand connections at once is not taken
     * for dead. A service that really died is still found within 10 s, and a change never commits
     * without every switch's vote.
     */
    static final long HEARTBEAT_PERIOD_MS = 1_000;
    static final long HEARTBEAT_TIMEOUT_MS = 10_000;
    /** How long closing waits for the services to acknowledge the session's decisions. */
    static final Duration DECISION_DELIVERY = Duration.ofSeconds(10);
    private static final System.Logger LOG = System.getLogger(OperatorSession.class.getName());

    /**
     * The operator host's I/O threads, one per core: its links to a thousand services are spread over
     * them. On one thread, every handshake, every message and the heartbeats of all links took turns,
     * and encoding the prepares of a 1,000-switch change there kept heartbeats from going out for
     * longer than the services wait (3 s), so they dropped the operator's links.
     */
    static final int IO_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

    private final NetHost net;
    private final Map<String, EndpointRef> desks;
    private final Map<String, String> unreachable;
    /** Where the session coordinates from, released at close; null for a session on a log in memory. */
    private CoordinatorSlot slot;

    private OperatorSession(NetHost net, Map<String, EndpointRef> desks, Map<String, String> unreachable) {
        this.net = net;
        this.desks = desks;
        this.unreachable = unreachable;
    }

    /**
     * Who the operator is: where its key and certificate live (under {@code --tofu}, with the
     * service certificates it pinned) and how it authenticates. Every operator session of one
     * WaldoConf opens its host from the same one, so apply and call share one pin store.
     *
     * @param state the operator's TLS directory
     * @param security how the operator and the services authenticate each other
     */
    public record Operator(Path state, Security security) {
        /** Checks the parts. */
        public Operator {
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(security, "security");
        }

        /**
         * The operator's host configuration, as {@link Identities#operatorNet} sets it up, for a
         * session in {@code slot}.
         *
         * @throws EngineException ({@link EngineException.Kind#UNAVAILABLE}) when the operator has no
         *     identity to connect with, saying how to make one
         */
        NetConfig net(CoordinatorSlot slot) throws EngineException {
            try {
                return Identities.operatorNet(state, security, slot.run());
            } catch (IllegalStateException e) {
                throw new EngineException(EngineException.Kind.UNAVAILABLE, e.getMessage(), e);
            }
        }

        /**
         * Takes a free coordinator slot in the operator's state directory ({@link CoordinatorSlot}).
         *
         * @throws EngineException ({@link EngineException.Kind#UNAVAILABLE}) when none can be taken
         */
        CoordinatorSlot claimSlot() throws EngineException {
            try {
                return CoordinatorSlot.claim(state);
            } catch (dev.waldo.runtime.storage.StorageException e) {
                throw new EngineException(EngineException.Kind.UNAVAILABLE, e.getMessage(), e);
            }
        }
    }

    /**
     * What kind of service a session connects to.
     *
     * @param structs rebuilds the struct values the service's program sends
     * @param desk the operator's endpoint, whose partner the service creates
     * @param serveCommand the command that runs a service, given what it serves ({@code --switch NAME}
     *     or {@code --site SITE}), for the message when it cannot be reached
     */
    public record ServiceKind(StructResolver structs, EndpointFactory<? extends WaldoEndpoint> desk,
            Function<String, String> serveCommand) {
    }

    /**
     * Opens the operator's host as {@code operator} and connects to the services {@code services}
     * (by switch name, in the order the operation uses them); see {@link #open(NetConfig,
     * ServiceKind, Map, ProgressListener)}. The host coordinates from a {@link CoordinatorSlot}: its
     * decisions are logged durably, and if this process dies mid-commit, the next session (the next
     * command) runs as the same host and settles what this one left undecided.
     *
     * @throws EngineException ({@link EngineException.Kind#UNAVAILABLE}) when the operator has no
     *     identity, or no coordinator slot can be taken
     */
    public static OperatorSession open(Operator operator, ServiceKind kind, Map<String, Service> services,
            ProgressListener progress) throws EngineException {
        CoordinatorSlot slot = operator.claimSlot();
        try {
            NetConfig config = operator.net(slot);
            OperatorSession session = connect(NetHost.start(withHeartbeat(config), kind.structs(), slot.storage()),
                    kind, services, progress);
            session.slot = slot;
            return session;
        } catch (EngineException | RuntimeException e) {
            slot.storage().close();
            slot.close();
            throw e;
        }
    }

    /**
     * Opens an operator host with {@code config}, its transaction log in memory (for tests and tools
     * whose sessions never outlive their process), and connects to the services {@code services}
     * (by switch name, in the order the operation uses them). A switch whose service cannot
     * be reached is listed in {@link #unreachable()} with the reason and reported to {@code progress}
     * as {@link Stage#UNREACHABLE}; each one connected as {@link Stage#CONNECTED}.
     */
    public static OperatorSession open(NetConfig config, ServiceKind kind, Map<String, Service> services,
            ProgressListener progress) {
        return connect(NetHost.start(withHeartbeat(config), kind.structs()), kind, services, progress);
    }

    private static NetConfig withHeartbeat(NetConfig config) {
        return config.withHeartbeat(HEARTBEAT_PERIOD_MS, HEARTBEAT_TIMEOUT_MS).withIoThreads(IO_THREADS);
    }

    private static OperatorSession connect(NetHost net, ServiceKind kind, Map<String, Service> services,
            ProgressListener progress) {
        // Status and the trial look-ups of confirm and rollback read the services read-only
        // (ChangeRunner): with snapshot reads they neither wait for nor wound an apply in progress.
        net.host().useSnapshotReads(true);
        try {
            Map<Service, List<String>> byNode = new LinkedHashMap<>();
            services.forEach((name, service) -> byNode.computeIfAbsent(service, s -> new ArrayList<>()).add(name));
            BoundedParallel.Outcome<Service, Map<String, Connection>> connected =
                    connector(byNode).run(List.copyOf(byNode.keySet()),
                            service -> connectAll(net, kind, service, byNode.get(service), progress));
            return collect(net, kind, services, connected, progress);
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
    }

    /**
     * The runner for connections: a slot per address, and for each as long as its switches' links
     * may take, {@link #LINKS_IN_FLIGHT} at a time (each connect is bounded by {@link NetHost#connect}'s
     * own timeout).
     */
    private static BoundedParallel connector(Map<Service, List<String>> byNode) {
        int mostAtOneAddress = byNode.values().stream().mapToInt(List::size).max().orElse(1);
        long rounds = 1 + (mostAtOneAddress + LINKS_IN_FLIGHT - 1) / LINKS_IN_FLIGHT;
        return new BoundedParallel(CONNECTIONS_IN_FLIGHT, PER_CONNECT.multipliedBy(rounds));
    }

    /** Two tries of {@link NetHost#connect}'s own limit (10 s), with room for a busy machine. */
    private static final Duration PER_CONNECT = Duration.ofSeconds(25);

    /** One switch's desk, or why it could not be connected. */
    private record Connection(EndpointRef desk, NetworkException failure) {
        /** Whether the node at the address answered as the one expected (the failure, if any, was this switch's alone). */
        boolean nodeAnswered() {
            return failure == null || failure instanceof LinkRefusedException;
        }
    }

    /**
     * Connects every switch served at {@code service}: the first dials the node there (the TLS
     * handshake and its identity check); unless that showed the node unreachable or not the one
     * expected, which then holds for every switch there, the others' links open over the same
     * connection, {@link #LINKS_IN_FLIGHT} at a time.
     */
    private static Map<String, Connection> connectAll(NetHost net, ServiceKind kind, Service service,
            List<String> names, ProgressListener progress) {
        Map<String, Connection> connections = new LinkedHashMap<>();
        Connection first = connectOne(net, kind, service, names.getFirst(), progress);
        connections.put(names.getFirst(), first);
        List<String> rest = names.subList(1, names.size());
        if (!first.nodeAnswered()) {
            rest.forEach(name -> connections.put(name, first));
            return connections;
        }
        BoundedParallel.Outcome<String, Connection> others = new BoundedParallel(LINKS_IN_FLIGHT, PER_CONNECT)
                .run(rest, name -> connectOne(net, kind, service, name, progress));
        for (String name : rest) {
            connections.put(name, others.results().getOrDefault(name,
                    new Connection(null, new NetworkException(others.failures().get(name)))));
        }
        return connections;
    }

    private static Connection connectOne(NetHost net, ServiceKind kind, Service service, String name,
            ProgressListener progress) {
        try {
            Connection connection = new Connection(connectWithRetry(net, name, service, kind), null);
            progress.onProgress(name, Stage.CONNECTED, "");
            return connection;
        } catch (NetworkException e) {
            return new Connection(null, e);
        }
    }

    /**
     * Connects once more when the first try failed for the network's sake (a link closed or silent
     * in the handshake, as a service busy with many handshakes does): nothing was sent to the
     * service yet, so trying again is safe. A wrong node, or a node that refused the link, is not
     * retried: that will not change within the connect.
     */
    private static EndpointRef connectWithRetry(NetHost net, String name, Service service, ServiceKind kind) {
        try {
            return connectDesk(net, name, service, kind.desk());
        } catch (WrongPeerException | LinkRefusedException e) {
            throw e;
        } catch (NetworkException e) {
            return connectDesk(net, name, service, kind.desk());
        }
    }

    /**
     * Connects {@code net} to switch {@code name}'s service at {@code service} with the operator's
     * {@code desk} and returns the service's side. The node there must be the one the inventory
     * names ({@link Service#node}); another one answering is refused before anything is sent.
     */
    private static EndpointRef connectDesk(NetHost net, String name, Service service,
            EndpointFactory<? extends WaldoEndpoint> desk) {
        return net.connect(service.address(), Identities.serviceIdentity(name), service.node(name), desk).partner();
    }

    private static OperatorSession collect(NetHost net, ServiceKind kind, Map<String, Service> services,
            BoundedParallel.Outcome<Service, Map<String, Connection>> connected, ProgressListener progress) {
        Map<String, EndpointRef> desks = new LinkedHashMap<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        for (Map.Entry<String, Service> entry : services.entrySet()) {
            String name = entry.getKey();
            Service service = entry.getValue();
            Map<String, Connection> atAddress = connected.results().get(service);
            Connection connection = atAddress == null ? null : atAddress.get(name);
            if (connection != null && connection.desk() != null) {
                desks.put(name, connection.desk());
                continue;
            }
            String why = connection != null ? failure(name, service, kind, connection.failure())
                    : "cannot reach the service of switch " + name + " at " + show(service.address()) + ": "
                    + connected.failures().get(service);
            unreachable.put(name, why);
            progress.onProgress(name, Stage.UNREACHABLE, why);
        }
        return new OperatorSession(net, desks, unreachable);
    }

    /** Why switch {@code name} could not be connected, naming the address and what to check. */
    private static String failure(String name, Service service, ServiceKind kind, NetworkException failure) {
        String serve = kind.serveCommand().apply(service.served(name));
        return switch (failure) {
            case WrongPeerException wrong -> wrongService(name, service, wrong);
            case LinkRefusedException refused -> "the service of switch " + name + " is not served at "
                    + show(service.address()) + ": " + refused.node().name() + " there answered '" + refused.reason()
                    + "'; is it running '" + serve + "'?";
            default -> "cannot reach the service of switch " + name + " at " + show(service.address()) + " ("
                    + failure.getMessage() + "); is '" + serve + "' running?";
        };
    }

    private static String show(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }

    /**
     * The message for a node that is not switch {@code name}'s: the inventory's address for it leads
     * elsewhere (swapped addresses, or another node listening there).
     */
    static String wrongService(String name, Service service, WrongPeerException wrong) {
        return "the service at " + show(wrong.address()) + " is not switch " + name + "'s: "
                + wrong.answered().name() + " answered"
                + (wrong.answered().certified() ? ", as its certificate from the project CA proves" : "")
                + ", where " + service.node(name) + " was expected; check "
                + service.site().map(site -> "the service: address of site " + site + " under sites:")
                        .orElseGet(() -> "the service: address of " + name)
                + " in the inventory (nothing was sent to it)";
    }

    /**
     * Fails unless every service was reached: for operations that must reach all of them (a change
     * cannot be atomic across switches it cannot talk to). Closes the session when it fails.
     *
     * @return this session
     * @throws NetworkException listing every switch not reached and why
     */
    public OperatorSession requireAll() {
        if (unreachable.isEmpty()) {
            return this;
        }
        close();
        throw new NetworkException(unreachable.size() == 1 ? unreachable.values().iterator().next()
                : "cannot reach the services of " + unreachable.size() + " of " + (unreachable.size() + desks.size())
                + " switches:\n" + String.join("\n", unreachable.entrySet().stream()
                        .map(e -> "  " + e.getKey() + ": " + e.getValue()).toList()));
    }

    /** The operator's Waldo host, where coordinators run. */
    public Host host() {
        return net.host();
    }

    /** The connected switches' desks (the service's side of each), in the order given. */
    public Map<String, EndpointRef> desks() {
        return desks;
    }

    /** Switches whose service could not be reached, with the reason. */
    public Map<String, String> unreachable() {
        return unreachable;
    }

    /**
     * Lets every commit or backout this session decided reach the services before its host goes:
     * a service that voted yes and never heard the decision would hold the switch's variables
     * until a later session took this coordinator slot again (ConcurrentApplyTest hung on one
     * such backout: an apply ended, the services stayed prepared, and every later apply of the
     * round waited for them).
     */
    private void deliverDecisions() {
        try {
            Host host = net.host();
            int owedAtClose = host.decisionsOwed();
            long start = System.nanoTime();
            int owed = host.awaitDecisionsDelivered(DECISION_DELIVERY);
            if (owedAtClose > 0) {
                LOG.log(System.Logger.Level.INFO, "host " + host.id() + " waited " + Duration.ofNanos(System.nanoTime()
                        - start).toMillis() + " ms for the services to acknowledge " + owedAtClose + " decisions");
            }
            if (owed > 0) {
                LOG.log(System.Logger.Level.WARNING, "host " + host.id() + " closes with " + owed + " decisions not yet"
                        + " acknowledged by reachable services; they are settled when this coordinator slot runs again"
                        + " (a logged commit is sent again, anything else is answered backed out)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Leaves the network, then frees the session's coordinator slot. */
    @Override
    public void close() {
        deliverDecisions();
        net.close();
        if (slot != null) {
            slot.close();
        }
    }
}
