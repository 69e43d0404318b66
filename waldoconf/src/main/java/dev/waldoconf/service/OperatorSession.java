package dev.waldoconf.service;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.runtime.EndpointRef;
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
 * {@link ChangeRunner}.
 */
public final class OperatorSession implements AutoCloseable {
    private final NetHost net;
    private final ChangeRunner runner;
    private final List<ChangeRunner.Target> targets;

    private OperatorSession(NetHost net, ChangeRunner runner, List<ChangeRunner.Target> targets) {
        this.net = net;
        this.runner = runner;
        this.targets = targets;
    }

    /**
     * Connects to the services at {@code services} (switch name to address).
     *
     * @throws dev.waldo.runtime.NetworkException naming the first service that cannot be reached
     */
    public static OperatorSession connect(Map<String, InetSocketAddress> services, NetConfig config, Clock clock) {
        NetHost net = NetHost.start(config, Structs::create);
        try {
            WList<EndpointRef> desks = new WList<>();
            for (Map.Entry<String, InetSocketAddress> service : services.entrySet()) {
                desks.add(connectDesk(net, service.getKey(), service.getValue()));
            }
            ChangeCoordinator resolver = ChangeCoordinator.create(net.host());
            WList<EndpointRef> refs = resolver.services(desks);
            List<ChangeRunner.Target> targets = new ArrayList<>();
            List<String> names = new ArrayList<>(services.keySet());
            for (int i = 0; i < names.size(); i++) {
                targets.add(new ChangeRunner.Target(names.get(i), refs.get(i)));
            }
            return new OperatorSession(net, new ChangeRunner(net.host(), clock), targets);
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
    }

    private static EndpointRef connectDesk(NetHost net, String name, InetSocketAddress address) {
        try {
            return net.connect(address, OperatorDesk::create).partner();
        } catch (dev.waldo.runtime.NetworkException e) {
            throw new dev.waldo.runtime.NetworkException("cannot reach the service of switch " + name + " at "
                    + address.getHostString() + ":" + address.getPort() + " (" + e.getMessage()
                    + "); is 'waldoconf serve' running for it?");
        }
    }

    /** The connected switches, in the order given. */
    public List<ChangeRunner.Target> targets() {
        return targets;
    }

    /** The connected switches by name. */
    public Map<String, ChangeRunner.Target> targetsByName() {
        Map<String, ChangeRunner.Target> byName = new LinkedHashMap<>();
        targets.forEach(target -> byName.put(target.name(), target));
        return byName;
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
