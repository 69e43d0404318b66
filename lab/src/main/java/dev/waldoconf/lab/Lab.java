package dev.waldoconf.lab;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A set of simulated switches running in this JVM, on loopback with free ports: what tests and
 * the demo start. Switch {@code i} (from 1) is named {@code <prefix>-<i>}.
 *
 * <pre>
 * try (Lab lab = Lab.start(3, SwitchConfig.named("sw"), null)) {
 *     List&lt;InetSocketAddress&gt; agents = lab.snmpAddresses();
 * }
 * </pre>
 */
public final class Lab implements AutoCloseable {
    private final List<SimulatedSwitch> switches;

    private Lab(List<SimulatedSwitch> switches) {
        this.switches = List.copyOf(switches);
    }

    /**
     * Starts {@code count} switches like {@code template}, each on its own free ports.
     *
     * @param template settings shared by every switch; its name is the name prefix and its ports are ignored
     * @param stateDir where each switch keeps {@code <name>.state}; null keeps state in memory
     * @throws IOException when a switch cannot start; the ones already started are stopped
     */
    public static Lab start(int count, SwitchConfig template, Path stateDir) throws IOException {
        if (count < 1) {
            throw new IllegalArgumentException("a lab needs at least one switch, got " + count);
        }
        List<SimulatedSwitch> started = new ArrayList<>();
        try {
            for (int i = 1; i <= count; i++) {
                String name = template.name() + "-" + i;
                SwitchConfig config = template.withName(name).withSnmpPort(0)
                        .withControlPort(template.controlPort() < 0 ? -1 : 0)
                        .withStateFile(stateDir == null ? null : stateDir.resolve(name + ".state"));
                started.add(SimulatedSwitch.start(config));
            }
        } catch (IOException | RuntimeException e) {
            started.forEach(SimulatedSwitch::close);
            throw e;
        }
        return new Lab(started);
    }

    /** The switches, in the order of their numbers. */
    public List<SimulatedSwitch> switches() {
        return switches;
    }

    /** Switch number {@code number}, counting from 1. */
    public SimulatedSwitch get(int number) {
        return switches.get(number - 1);
    }

    /** The SNMP addresses of all switches, in order. */
    public List<InetSocketAddress> snmpAddresses() {
        return switches.stream().map(SimulatedSwitch::snmpAddress).toList();
    }

    /** Stops every switch. */
    @Override
    public void close() {
        switches.forEach(SimulatedSwitch::close);
    }
}
