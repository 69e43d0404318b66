package dev.waldoconf.service;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.net.WrongPeerException;
import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.WaldoEndpoint;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.lang.WList;
import dev.waldoconf.services.ChangeCoordinator;
import dev.waldoconf.services.OperatorDesk;
import dev.waldoconf.services.Structs;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator's side over the network: a Waldo host that connects to each
 * switch's {@code waldoconf serve} and runs changes through a
 * {@link ChangeRunner}. Each service reached must be the switch the inventory
 * names there ({@link Identities#serviceIdentity}, proved by its certificate
 * under mutual TLS); another one answering is refused before anything is sent.
 */
public final class OperatorSession implements AutoCloseable {
    private final NetHost net;
    private final ChangeRunner runner;
    private final List<ChangeRunner.Target> targets;
    private final Map<String, String> unreachable;

    private OperatorSession(NetHost net, ChangeRunner runner, List<ChangeRunner.Target> targets,
            Map<String, String> unreachable) {
        this.net = net;
        this.runner = runner;
        this.targets = targets;
        this.unreachable = unreachable;
    }

    /**
     * Connects to the services at {@code services} (switch name to address).
     *
     * @throws NetworkException naming the first service that cannot be reached
     */
    public static OperatorSession connect(Map<String, InetSocketAddress> services, NetConfig config, Clock clock) {
        OperatorSession session = connectReachable(services, config, clock);
        if (!session.unreachable.isEmpty()) {
            session.close();
            throw new NetworkException(session.unreachable.values().iterator().next());
        }
        return session;
    }

    /**
     * Connects to every service it can reach; the others are listed in
     * {@link #unreachable()} with the reason (for status).
     */
    public static OperatorSession connectReachable(Map<String, InetSocketAddress> services, NetConfig config,
            Clock clock) {
        NetHost net = NetHost.start(config, Structs::create);
        try {
            WList<EndpointRef> desks = new WList<>();
            List<String> names = new ArrayList<>();
            Map<String, String> unreachable = new LinkedHashMap<>();
            for (Map.Entry<String, InetSocketAddress> service : services.entrySet()) {
                try {
                    desks.add(connectDesk(net, service.getKey(), service.getValue(), OperatorDesk::create,
                            "waldoconf serve --switch " + service.getKey()));
                    names.add(service.getKey());
                } catch (NetworkException e) {
                    unreachable.put(service.getKey(), e.getMessage());
                }
            }
            WList<EndpointRef> refs = desks.isEmpty() ? new WList<>() : ChangeCoordinator.create(net.host()).services(desks);
            List<ChangeRunner.Target> targets = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                targets.add(new ChangeRunner.Target(names.get(i), refs.get(i)));
            }
            return new OperatorSession(net, new ChangeRunner(net.host(), clock), targets, unreachable);
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
    }

    /** Switches whose service could not be reached, with the reason. */
    public Map<String, String> unreachable() {
        return unreachable;
    }

    /**
     * Connects {@code net} to switch {@code name}'s service at {@code address} with the operator's
     * {@code desk}, whatever service runs there (the VLAN service, or a custom one for {@code
     * waldoconf call}), and returns the service's side. The service must be that switch's ({@link
     * Identities#serviceIdentity}); another one answering is refused before anything is sent.
     *
     * @param serve the command that runs the service, for the message when it cannot be reached
     * @throws NetworkException naming the switch, the address and what to check
     */
    public static EndpointRef connectDesk(NetHost net, String name, InetSocketAddress address,
            EndpointFactory<? extends WaldoEndpoint> desk, String serve) {
        try {
            return net.connect(address, Identities.serviceIdentity(name), desk).partner();
        } catch (WrongPeerException e) {
            throw new NetworkException(wrongService(name, e));
        } catch (NetworkException e) {
            throw new NetworkException("cannot reach the service of switch " + name + " at "
                    + address.getHostString() + ":" + address.getPort() + " (" + e.getMessage() + "); is '"
                    + serve + "' running?");
        }
    }

    /**
     * The message for a service that is not switch {@code name}'s: the inventory's {@code service:}
     * address for it leads elsewhere (swapped addresses, or another host listening there).
     */
    public static String wrongService(String name, WrongPeerException wrong) {
        return "the service at " + wrong.address().getHostString() + ":" + wrong.address().getPort()
                + " is not switch " + name + "'s: " + wrong.answered().name() + " answered"
                + (wrong.answered().certified() ? ", as its certificate from the project CA proves" : "")
                + "; check the service: address of " + name + " in the inventory (nothing was sent to it)";
    }

    /** The connected switches, in the order given. */
    public List<ChangeRunner.Target> targets() {
        return targets;
    }

    /** Runs changes across the connected switches. */
    public ChangeRunner runner() {
        return runner;
    }

    @Override
    public void close() {
        net.close();
    }
}
