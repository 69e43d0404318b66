package dev.waldoconf.product;

import dev.waldoconf.service.Identities;
import dev.waldoconf.service.InDoubtRecovery;
import dev.waldoconf.service.SwitchServer;
import dev.waldoconf.snmp.SnmpVlanDevice;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code waldoconf serve} runs, as a process for the crash tests: one switch's service with
 * the real SNMP driver. Arguments: name, SNMP port on 127.0.0.1, state directory, then the ports
 * of the other switches' services as NAME=PORT on 127.0.0.1 (whom a restarted service asks about a change it
 * left in doubt; optional). Prints
 * {@code serving NAME at PORT} once it listens, then runs until killed.
 */
public final class ServeMain {
    private ServeMain() {
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        InetSocketAddress snmp = new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1]));
        Path stateDir = Path.of(args[2]);
        SnmpVlanDevice device = SnmpVlanDevice.open(name, Fleet.writeTarget(snmp));
        List<InDoubtRecovery.Peer> otherServices = Arrays.stream(args).skip(3)
                .map(peer -> peer.split("=", 2))
                .map(peer -> new InDoubtRecovery.Peer(Identities.serviceIdentity(peer[0]),
                        new InetSocketAddress("127.0.0.1", Integer.parseInt(peer[1])))).toList();
        SwitchServer server = SwitchServer.start(name, device, new InetSocketAddress("127.0.0.1", 0), stateDir,
                SwitchServer.defaultNet(name, stateDir), Clock.systemUTC(), otherServices);
        System.out.println("serving " + name + " at " + server.address().getPort());
        System.out.flush();
        Thread.currentThread().join();
    }
}
