package dev.waldoconf.service;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.net.NetNode;
import dev.waldo.net.StructResolver;
import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.storage.FileStorage;
import dev.waldo.runtime.storage.StorageException;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.services.Structs;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * What {@code waldoconf serve} runs for one switch, whatever service it serves (the VLAN service,
 * {@link VlanSwitchProgram}, or an operator's own .wld program, {@code dev.waldoconf.custom.CustomService}):
 * a networked Waldo host with a {@link FileStorage} transaction log, the service {@link Mounted}
 * on it (a {@link DeviceService}), a {@link ChangeGuard} in front of its device binding (only
 * operators with the change role may change the switch, and every change is recorded with who made it), listening for operators:
 * on a node of its own, or on its site agent's node beside the site's other switches.
 * A transaction the previous run left in doubt is asked of the inventory's other services in the
 * background ({@link InDoubtRecovery}).
 *
 * <p>State: the host's directory ({@code net/} of the service's state directory) holds its TLS key
 * and certificate, pinned peers under trust on first use, the {@link AuditJournal} and the
 * transaction log ({@value #TRANSACTIONS_DIR}/: what the host voted and decided, so that a restart
 * learns the outcome of a change it voted yes on instead of guessing). The mounted service keeps
 * its own journal beside it.
 */
public final class SwitchServer implements RunningService {
    /** The runtime's transaction log (votes, decisions), in the host's state directory. */
    public static final String TRANSACTIONS_DIR = "transactions";

    private final String name;
    private final NetHost net;
    private final Mounted service;
    private final InetSocketAddress address;
    private final CountDownLatch stopped = new CountDownLatch(1);

    /** A service mounted on the server's host, as a {@link Mount} made it. */
    public interface Mounted extends AutoCloseable {
        /** The annotation whose binding reaches the device (the guard goes in front of it). */
        String annotation();

        /** What each operator that connects gets. */
        EndpointFactory<?> desk();

        /** The transactions the previous run left in doubt, and how to end them. */
        InDoubtRecovery.Participant inDoubt();

        /** Stops the service's timers and closes its device; the server closes the host. */
        @Override
        void close();
    }

    /** Puts a service on a host: binds its device, creates its Waldo objects, recovers its journal. */
    @FunctionalInterface
    public interface Mount {
        /**
         * Mounts the service on {@code host}; the server closes the host if it throws.
         *
         * @throws IOException if the service's journal cannot be read or written
         * @throws DeviceException if the device cannot be read when the service needs it to start
         */
        Mounted on(Host host) throws IOException, DeviceException;
    }

    private SwitchServer(String name, NetHost net, Mounted service, InetSocketAddress address) {
        this.name = name;
        this.net = net;
        this.service = service;
        this.address = address;
    }

    /**
     * Starts serving switch {@code name}: starts a host as {@code net} says with its transaction
     * log, mounts the service, guards its device binding, and listens at {@code listen} (port 0
     * picks a free one).
     *
     * @param structs rebuilds the service's Waldo structs on the wire
     * @param otherServices the inventory's other services: whom a transaction left in doubt is asked
     * @throws IOException if the transaction log or the service's journal cannot be used
     * @throws DeviceException if {@code mount} could not read the device
     */
    public static SwitchServer start(String name, NetConfig net, StructResolver structs,
            InetSocketAddress listen, Clock clock, Collection<InDoubtRecovery.Peer> otherServices, Mount mount)
            throws IOException, DeviceException {
        return start(name, net, structs, listen, clock, otherServices, null, mount);
    }

    /**
     * Starts serving switch {@code name} as {@link #start(String, NetConfig, StructResolver,
     * InetSocketAddress, Clock, Collection, Mount)} does, its host living on {@code node} (a {@link
     * SiteAgent}'s, listening at {@code listen} for every switch of the site), or on a node of its
     * own when {@code node} is null. Closing the server leaves the node running.
     */
    public static SwitchServer start(String name, NetConfig net, StructResolver structs,
            InetSocketAddress listen, Clock clock, Collection<InDoubtRecovery.Peer> otherServices, NetNode node,
            Mount mount) throws IOException, DeviceException {
        NetHost host;
        try {
            FileStorage log = FileStorage.open(net.stateDir().resolve(TRANSACTIONS_DIR));
            host = node == null ? NetHost.start(net, structs, log) : NetHost.start(net, structs, log, node);
        } catch (StorageException e) {
            throw new IOException(e.getMessage(), e);
        }
        Mounted service = null;
        try {
            service = mount.on(host.host());
            ChangeGuard.install(name, host, service.annotation(), new AuditJournal(net.stateDir()), clock);
            InetSocketAddress bound = host.listen(listen, service.desk(), null);
            InDoubtRecovery.start(name, host.host(), service.inDoubt(), InDoubtRecovery.dialing(host), otherServices);
            return new SwitchServer(name, host, service, bound);
        } catch (IOException | DeviceException | RuntimeException e) {
            if (service != null) {
                service.close();
            }
            host.close();
            throw e;
        }
    }

    /**
     * Starts serving switch {@code name}'s VLAN service as {@link #start(String, VlanDevice,
     * InetSocketAddress, Path, NetConfig, Clock, Collection)} does, knowing no other service: a
     * transaction left in doubt is asked only of the hosts that reach this one (its coordinator,
     * redialing), so it may stay in doubt until its trial's deadline.
     */
    public static SwitchServer start(String name, VlanDevice device, InetSocketAddress listen, Path stateDir,
            NetConfig net, Clock clock) throws IOException, DeviceException {
        return start(name, device, listen, stateDir, net, clock, List.of());
    }

    /**
     * Starts serving switch {@code name}'s VLAN service ({@link VlanSwitchProgram}, its journal in
     * {@code stateDir/journal}): recovers or adopts the switch's state, then listens at {@code
     * listen} (port 0 picks a free one). The server owns {@code device} from here on.
     *
     * @param net how the host talks to operators (TLS mode, heartbeats); its state dir is used as given
     * @param otherServices the inventory's other services
     * @throws IOException if the journal or the transaction log cannot be used
     * @throws DeviceException if the switch cannot be read when there is nothing to recover
     */
    public static SwitchServer start(String name, VlanDevice device, InetSocketAddress listen, Path stateDir,
            NetConfig net, Clock clock, Collection<InDoubtRecovery.Peer> otherServices)
            throws IOException, DeviceException {
        return start(name, device, listen, stateDir, net, clock, otherServices, null);
    }

    /**
     * Starts serving switch {@code name}'s VLAN service as {@link #start(String, VlanDevice,
     * InetSocketAddress, Path, NetConfig, Clock, Collection)} does, its host living on {@code node}
     * (a site agent's; null: a node of its own).
     */
    public static SwitchServer start(String name, VlanDevice device, InetSocketAddress listen, Path stateDir,
            NetConfig net, Clock clock, Collection<InDoubtRecovery.Peer> otherServices, NetNode node)
            throws IOException, DeviceException {
        return start(name, net, Structs::create, listen, clock, otherServices, node,
                host -> VlanSwitchProgram.mount(name, host, device, stateDir.resolve("journal"), clock, true));
    }

    /**
     * Network settings for switch {@code name}'s service with state in {@code stateDir}, under trust
     * on first use (no project CA needed: what tests and in-process tools use). {@code waldoconf
     * serve} uses {@link Identities#serviceNet} with mutual TLS instead.
     */
    public static NetConfig defaultNet(String name, Path stateDir) {
        return Identities.serviceNet(name, netDir(stateDir), dev.waldo.net.Security.SELF_SIGNED);
    }

    /** Where a service with state in {@code stateDir} keeps its host's state: TLS, audit journal, transaction log. */
    public static Path netDir(Path stateDir) {
        return stateDir.resolve("net");
    }

    /** Where operators connect. */
    public InetSocketAddress address() {
        return address;
    }

    /** The service's lock table, one line per busy variable (see {@link dev.waldo.runtime.Host#describeLocks}). */
    String describeLocks() {
        return net.host().describeLocks();
    }

    @Override
    public String switchName() {
        return name;
    }

    @Override
    public void awaitTermination() throws InterruptedException {
        stopped.await();
    }

    /** Stops listening, leaves the network, and closes the service and its device. */
    @Override
    public void close() {
        try {
            net.close();
            service.close();
        } finally {
            stopped.countDown();
        }
    }
}
