package dev.waldoconf.service;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.services.Structs;
import dev.waldoconf.services.SwitchDesk;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;

/**
 * What {@code waldoconf serve} runs for one switch: a networked Waldo host
 * holding the switch's {@link SwitchService}, listening for operators. Each
 * operator that connects gets a SwitchDesk that hands out the service.
 *
 * <p>State directory layout: {@code journal/} (the trial journal) and
 * {@code net/} (the host's TLS key, certificate and pinned peers).
 */
public final class SwitchServer implements RunningService {
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
     * Starts serving switch {@code name}: recovers or adopts its state, then
     * listens at {@code listen} (port 0 picks a free one).
     *
     * @param net how the host talks to operators (TLS mode, heartbeats); its state dir is used as given
     */
    public static SwitchServer start(String name, VlanDevice device, InetSocketAddress listen, Path stateDir,
            NetConfig net, Clock clock) throws IOException, DeviceException {
        NetHost host = NetHost.start(net, Structs::create);
        try {
            SwitchService service = SwitchService.start(name, host.host(), device, stateDir.resolve("journal"), clock);
            InetSocketAddress bound = host.listen(listen, h -> SwitchDesk.create(h, service.service().ref()), null);
            return new SwitchServer(host, service, bound);
        } catch (IOException | DeviceException | RuntimeException e) {
            host.close();
            throw e;
        }
    }

    /** The default network settings for switch {@code name}'s service with state in {@code stateDir}. */
    public static NetConfig defaultNet(String name, Path stateDir) {
        return NetConfig.defaults(hostId(name), stateDir.resolve("net"));
    }

    /** The host id of switch {@code name}'s service, as runtime messages name it. */
    public static String hostId(String name) {
        return "switch-" + name;
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
