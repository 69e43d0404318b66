package dev.waldoconf.product;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.NetConfig;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.control.ControlClient;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.service.ChangeRunner;
import dev.waldoconf.service.OperatorOnSwitches;
import dev.waldoconf.service.SwitchServer;
import dev.waldoconf.snmp.SnmpCredentials;
import dev.waldoconf.snmp.SnmpTarget;
import dev.waldoconf.snmp.SnmpVlanDevice;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Lab switches (embedded, processes or containers: anything that answers SNMP and has a control
 * port) with one real {@link SwitchServer} per switch over TLS on loopback, driven through the
 * real SNMP driver, and checked by SNMP reads that do not go through the engine.
 */
final class Fleet implements AutoCloseable {
    /** Where the driver's SETs may take long on a busy machine: generous, as a slow answer is no failure. */
    static final int SNMP_TIMEOUT_MS = 3000;
    /** How long a test waits for an eventual outcome (a revert, a restart) before it fails. */
    static final Duration PATIENCE = Duration.ofSeconds(90);

    /** A lab switch as the fleet reaches it. */
    record Switch(String name, InetSocketAddress snmp, InetSocketAddress control) {
    }

    private final List<Switch> switches;
    private final Path stateDir;
    private final List<SwitchServer> servers = new ArrayList<>();
    private final List<OperatorOnSwitches> operators = new ArrayList<>();

    Fleet(List<Switch> switches, Path stateDir) {
        this.switches = List.copyOf(switches);
        this.stateDir = stateDir;
    }

    /** Starts one service per switch. */
    Fleet serve() throws IOException, DeviceException {
        for (int i = 0; i < switches.size(); i++) {
            servers.add(startServer(i));
        }
        return this;
    }

    int size() {
        return switches.size();
    }

    Switch get(int index) {
        return switches.get(index);
    }

    /** The SNMP target the driver writes with (v2c, the lab's write community). */
    static SnmpTarget writeTarget(InetSocketAddress snmp) {
        return new SnmpTarget(snmp, new SnmpCredentials.Community("private"), SNMP_TIMEOUT_MS, 1);
    }

    private SwitchServer startServer(int index) throws IOException, DeviceException {
        Switch sw = switches.get(index);
        Path dir = stateDir.resolve("service-" + sw.name());
        SnmpVlanDevice device = SnmpVlanDevice.open(sw.name(), writeTarget(sw.snmp()));
        return SwitchServer.start(sw.name(), device, new InetSocketAddress("127.0.0.1", 0), dir,
                SwitchServer.defaultNet(sw.name(), dir), Clock.systemUTC());
    }

    /** Stops switch {@code index}'s service as a crash would: its journal stays, nothing is undone. */
    void stopService(int index) {
        servers.get(index).close();
    }

    /** Starts switch {@code index}'s service again from its state directory (on a new port). */
    void restartService(int index) throws IOException, DeviceException {
        servers.set(index, startServer(index));
    }

    /** A new operator (as a new {@code waldoconf} process would be) connected to every service. */
    OperatorOnSwitches operator() {
        Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();
        servers.forEach(server -> addresses.put(server.switchName(), server.address()));
        OperatorOnSwitches session = OperatorOnSwitches.connect(addresses,
                NetConfig.defaults("operator", stateDir.resolve("operator")), Clock.systemUTC());
        operators.add(session);
        return session;
    }

    /** Applies {@code desired} (one state per switch) as one change; returns the change id. */
    static String apply(OperatorOnSwitches operator, List<SwitchState> desired, Optional<Duration> trial) {
        ChangeRunner runner = operator.runner();
        String change = runner.newChangeId();
        runner.apply(change, operator.targets(), desired, trial);
        return change;
    }

    /** What switch {@code index} holds, read over SNMP with the read community, not through any service. */
    SwitchState read(int index) throws DeviceException {
        Switch sw = switches.get(index);
        SnmpTarget reader = new SnmpTarget(sw.snmp(), new SnmpCredentials.Community("public"), SNMP_TIMEOUT_MS, 2);
        try (SnmpVlanDevice device = SnmpVlanDevice.open(sw.name() + "-reader", reader)) {
            return device.read();
        }
    }

    /** What every switch holds, read over SNMP. */
    List<SwitchState> readAll() throws DeviceException {
        List<SwitchState> states = new ArrayList<>();
        for (int i = 0; i < switches.size(); i++) {
            states.add(read(i));
        }
        return states;
    }

    /** Waits (bounded by {@link #PATIENCE}) until the switches' states satisfy {@code outcome}. */
    List<SwitchState> await(String what, Predicate<List<SwitchState>> outcome)
            throws DeviceException, InterruptedException {
        return await(what, outcome, PATIENCE);
    }

    /** Waits (bounded by {@code patience}) until the switches' states satisfy {@code outcome}. */
    List<SwitchState> await(String what, Predicate<List<SwitchState>> outcome, Duration patience)
            throws DeviceException, InterruptedException {
        long giveUpAt = System.nanoTime() + patience.toNanos();
        List<SwitchState> states = readAll();
        while (!outcome.test(states)) {
            assertThat(System.nanoTime()).as("%s within %s s; switches hold %s", what, patience.toSeconds(), states)
                    .isLessThan(giveUpAt);
            Thread.sleep(250);
            states = readAll();
        }
        return states;
    }

    /** Sends a fault command to switch {@code index}'s control port. */
    String control(int index, String command) throws IOException {
        try (ControlClient client = ControlClient.connect(switches.get(index).control())) {
            return client.command(command);
        }
    }

    /** The change every scenario makes: a voice VLAN tagged on ports 7 and 8, and a camera VLAN on port 8. */
    static SwitchState changed(SwitchState before) {
        return before.with(new Vlan(20, "voice", new TreeSet<>(Set.of(7, 8)), new TreeSet<>()))
                .with(new Vlan(30, "cameras", new TreeSet<>(Set.of(8)), new TreeSet<>()));
    }

    /** {@link #changed} for each state. */
    static List<SwitchState> changedAll(List<SwitchState> before) {
        return before.stream().map(Fleet::changed).toList();
    }

    @Override
    public void close() {
        operators.forEach(OperatorOnSwitches::close);
        servers.forEach(server -> {
            try {
                server.close();
            } catch (RuntimeException e) {
                // Already closed by a crash scenario.
            }
        });
    }
}
