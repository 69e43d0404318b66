package dev.waldoconf.service;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.runtime.storage.FileStorage;
import dev.waldo.runtime.storage.StorageException;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.services.Structs;
import dev.waldoconf.services.SwitchDesk;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * What {@code waldoconf serve} runs for one switch: a networked Waldo host
 * holding the switch's {@link SwitchService}, listening for operators. Each
 * operator that connects gets a SwitchDesk that hands out the service. A
 * {@link ChangeGuard} stands in front of the switch: only operators with the
 * change role may change it, and every change is recorded with who made it.
 *
 * <p>State directory layout: {@code journal/} (the trial journal, with the
 * undo data of a change being decided), {@code transactions/} (the runtime's
 * {@link FileStorage}: what the host voted and decided, so that a restart
 * learns the outcome of a change it voted yes on instead of guessing) and
 * {@code net/} (the host's TLS key and certificate, pinned peers under trust on
 * first use, and the {@link AuditJournal}).
 */
public final class SwitchServer implements RunningService {
    /** The runtime's transaction log (votes, decisions), in the service's state directory. */
    public static final String TRANSACTIONS_DIR = "transactions";
    private final NetHost net;
    private final SwitchService service;
    private final InetSocketAddress address;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private SwitchServer(NetHost net, SwitchService service, InetSocketAddress address) {
        this.net = net;
        this.service = service;
        this.address = address;
    }

    /**
     * Starts serving switch {@code name} as {@link #start(String, VlanDevice, InetSocketAddress, Path,
     * NetConfig, Clock, Collection)} does, knowing no other service: a transaction left in doubt
     * is asked only of the hosts that reach this one (its coordinator, redialing), so it may stay
     * in doubt until its trial's deadline.
     */
    public static SwitchServer start(String name, VlanDevice device, InetSocketAddress listen, Path stateDir,
            NetConfig net, Clock clock) throws IOException, DeviceException {
        return start(name, device, listen, stateDir, net, clock, List.of());
    }

    /**
     * Starts serving switch {@code name}: takes up its transaction log ({@value #TRANSACTIONS_DIR}/),
     * recovers or adopts its state, then listens at {@code listen} (port 0 picks a free one). A
     * transaction the previous run left in doubt is asked of {@code otherServices} (the
     * inventory's other services) in the background.
     *
     * @param net how the host talks to operators (TLS mode, heartbeats); its state dir is used as given
     * @throws IOException if the journal or the transaction log cannot be used
     */
    public static SwitchServer start(String name, VlanDevice device, InetSocketAddress listen, Path stateDir,
            NetConfig net, Clock clock, Collection<InetSocketAddress> otherServices)
            throws IOException, DeviceException {
        NetHost host;
        try {
            host = NetHost.start(net, Structs::create, FileStorage.open(stateDir.resolve(TRANSACTIONS_DIR)));
        } catch (StorageException e) {
            throw new IOException(e.getMessage(), e);
        }
        try {
            SwitchService service = SwitchService.start(name, host.host(), device, stateDir.resolve("journal"), clock,
                    InDoubtRecovery.dialing(host), otherServices);
            ChangeGuard.install(name, host, "snmp", new AuditJournal(net.stateDir()), clock);
            InetSocketAddress bound = host.listen(listen, h -> SwitchDesk.create(h, service.service().ref()), null);
            return new SwitchServer(host, service, bound);
        } catch (IOException | DeviceException | RuntimeException e) {
            host.close();
            throw e;
        }
    }

    /**
     * Network settings for switch {@code name}'s service with state in {@code stateDir}, under trust
     * on first use (no project CA needed: what tests and in-process tools use). {@code waldoconf
     * serve} uses {@link Identities#serviceNet} with mutual TLS instead.
     */
    public static NetConfig defaultNet(String name, Path stateDir) {
        return Identities.serviceNet(name, netDir(stateDir), dev.waldo.net.Security.SELF_SIGNED);
    }

    /** Where a service with state in {@code stateDir} keeps its TLS state and audit journal. */
    public static Path netDir(Path stateDir) {
        return stateDir.resolve("net");
    }

    /** Where operators connect. */
    public InetSocketAddress address() {
        return address;
    }

    /** The switch service. */
    public SwitchService service() {
        return service;
    }

    @Override
    public String switchName() {
        return service.name();
    }

    @Override
    public void awaitTermination() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        service.close();
        net.close();
        service.device().close();
        stopped.countDown();
    }
}
