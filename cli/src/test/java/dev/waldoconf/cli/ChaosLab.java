package dev.waldoconf.cli;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.JavaProcess;
import dev.waldoconf.lab.ReservedPorts;
import dev.waldoconf.lab.SwitchMain;
import dev.waldoconf.lab.container.ListeningAddresses;
import dev.waldoconf.lab.control.ControlClient;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.snmp.SnmpCredentials;
import dev.waldoconf.snmp.SnmpTarget;
import dev.waldoconf.snmp.SnmpVlanDevice;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The process lab the chaos run works on, every piece its own process so that any of them can be
 * killed with {@code kill -9} or frozen with {@code SIGSTOP}: one switch agent per switch
 * ({@link SwitchMain} with a state file), one {@code waldoconf serve} per switch, and each operator
 * command ({@code waldoconf apply}, {@code confirm}, ...) as a new {@code waldoconf} process, as an
 * administrator runs them. The switches are read over SNMP, never through a service.
 */
final class ChaosLab implements AutoCloseable {
    /** What a fault can hit. */
    enum Role { OPERATOR, SERVICE, SWITCH }

    /** SNMP timeout of the reads that check the switches: generous, as the machine may be busy. */
    private static final int READ_TIMEOUT_MS = 3000;
    /** How long {@code waldoconf init} may take on a busy machine (a JVM start and two key pairs). */
    private static final Duration INIT_PATIENCE = Duration.ofSeconds(120);

    private final Path dir;
    private final List<String> names = new ArrayList<>();
    private final List<ListeningAddresses> addresses = new ArrayList<>();
    private final List<JavaProcess> switchAgents = new ArrayList<>();
    private final List<JavaProcess> services = new ArrayList<>();
    private final List<JavaProcess> started = new ArrayList<>();
    private int starts;
    private ReservedPorts servicePorts;
    /**
     * The switch agents' control ports, held for the lab's life like the services' ports: a port
     * the system picked when the agent first started was sometimes given to an outgoing connection
     * while a killed agent was down, and its restart failed "Address already in use" (a long chaos
     * run ended so after 57 rounds).
     */
    private ReservedPorts controlPorts;

    private ChaosLab(Path dir) {
        this.dir = dir;
    }

    /** Starts {@code size} switch agents on free loopback ports, writes their inventory, and starts their services. */
    static ChaosLab start(Path dir, int size) throws IOException, InterruptedException {
        ChaosLab lab = new ChaosLab(dir);
        try {
            lab.controlPorts = ReservedPorts.reserve(InetAddress.getLoopbackAddress(), size);
            List<LabSwitch> inventory = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                lab.names.add("cx-" + (i + 1));
                lab.addresses.add(null);
                lab.switchAgents.add(null);
                lab.startSwitch(i);
                inventory.add(new LabSwitch(lab.names.get(i), lab.addresses.get(i).snmp(), 24));
            }
            Files.writeString(dir.resolve("community"), LabRunner.LAB_COMMUNITY + "\n");
            // Held for the lab's life: a killed service comes back on its port, and nobody else may take it meanwhile.
            lab.servicePorts = ReservedPorts.reserve(InetAddress.getLoopbackAddress(), size);
            Files.writeString(lab.inventory(), StandaloneInventory.yaml(inventory, lab.servicePorts.ports()));
            lab.initOperator();
            for (int i = 0; i < size; i++) {
                lab.services.add(null);
                lab.startService(i);
            }
            return lab;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            lab.close();
            throw e;
        }
    }

    int size() {
        return names.size();
    }

    String name(int index) {
        return names.get(index);
    }

    Path inventory() {
        return dir.resolve("inventory.yaml");
    }

    Path dir() {
        return dir;
    }

    /**
     * Starts switch {@code index}'s agent: on free ports the first time, on the same ports (and
     * state file) after a crash, as a rebooted switch comes back at its address with its saved
     * configuration.
     */
    void startSwitch(int index) throws IOException, InterruptedException {
        String name = names.get(index);
        ListeningAddresses before = addresses.get(index);
        JavaProcess agent = start("switch-" + name, SwitchMain.class, "--name", name,
                "--port", before == null ? "0" : Integer.toString(before.snmp().getPort()),
                "--control-port", Integer.toString(controlPorts.ports().get(index)),
                "--state-file", dir.resolve(name + ".state").toString());
        agent.awaitLine("lab switch " + name + " listening");
        addresses.set(index, ListeningAddresses.find(agent.output()));
        switchAgents.set(index, agent);
    }

    /**
     * Creates the lab's project CA and the operator's certificate ({@code waldoconf init} in the
     * lab's folder, where every command runs): under mutual TLS, the default, an operator without
     * one is refused before it reaches any service, and every round would end "old" without a
     * change ever being tried.
     */
    private void initOperator() throws IOException, InterruptedException {
        JavaProcess init = start("init", Main.class, "init");
        int exit = init.awaitExit(INIT_PATIENCE);
        if (exit != 0) {
            throw new IOException("'waldoconf init' in " + dir + " exited with " + exit + "; its output: "
                    + init.output());
        }
    }

    /** Starts switch {@code index}'s {@code waldoconf serve} (again after a crash: same port, same state folder). */
    void startService(int index) throws IOException, InterruptedException {
        JavaProcess service = start("service-" + names.get(index), Main.class, "serve", "--switch", names.get(index),
                "--inventory", inventory().toString(), "--state-dir", dir.resolve("services").toString());
        service.awaitLine("Serving switch " + names.get(index));
        services.set(index, service);
    }

    /** Starts {@code waldoconf ARGS --inventory INV} in the lab's folder, where the operator keeps its pins. */
    JavaProcess operator(String label, String... args) throws IOException {
        return operator(label, inventory(), args);
    }

    /** As {@link #operator(String, String...)}, with another inventory (one that reaches a service through a proxy). */
    JavaProcess operator(String label, Path inventory, String... args) throws IOException {
        List<String> withInventory = new ArrayList<>(List.of(args));
        withInventory.addAll(List.of("--inventory", inventory.toString()));
        return start(label, Main.class, withInventory.toArray(String[]::new));
    }

    /** Where switch {@code index}'s service listens. */
    InetSocketAddress serviceAddress(int index) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), servicePorts.ports().get(index));
    }

    /**
     * Writes an inventory beside the lab's in which the operator reaches switch {@code index}'s
     * service at {@code address} instead (a proxy in front of it); the services keep the lab's.
     */
    Path inventoryReaching(int index, InetSocketAddress address) throws IOException {
        String line = "service: 127.0.0.1:" + servicePorts.ports().get(index) + "\n";
        String yaml = Files.readString(inventory());
        if (!yaml.contains(line)) {
            throw new IllegalStateException("the lab's inventory has no '" + line.strip() + "' line to replace");
        }
        Path proxied = dir.resolve("inventory-via-" + address.getPort() + ".yaml");
        Files.writeString(proxied, yaml.replace(line, "service: " + address.getHostString() + ":" + address.getPort()
                + "\n"));
        return proxied;
    }

    /** Switch {@code index}'s service's device journal (see DeviceJournal), for tests that wait for a prepare. */
    Path journal(int index) {
        return dir.resolve("services").resolve(names.get(index)).resolve("journal").resolve("device.journal");
    }

    /** The running process of a service or switch agent. */
    JavaProcess process(Role role, int index) {
        return switch (role) {
            case SERVICE -> services.get(index);
            case SWITCH -> switchAgents.get(index);
            case OPERATOR -> throw new IllegalArgumentException("operators are started per command: use operator()");
        };
    }

    /** Starts a killed service or switch agent again. */
    void restart(Role role, int index) throws IOException, InterruptedException {
        switch (role) {
            case SERVICE -> startService(index);
            case SWITCH -> startSwitch(index);
            case OPERATOR -> throw new IllegalArgumentException("a killed operator command is not restarted");
        }
    }

    /** What switch {@code index} holds, read over SNMP with the read community. */
    SwitchState read(int index) throws DeviceException {
        SnmpTarget reader = new SnmpTarget(addresses.get(index).snmp(), new SnmpCredentials.Community("public"),
                READ_TIMEOUT_MS, 2);
        try (SnmpVlanDevice device = SnmpVlanDevice.open(names.get(index) + "-reader", reader)) {
            return device.read();
        }
    }

    /** What every switch holds. */
    List<SwitchState> readAll() throws DeviceException {
        List<SwitchState> states = new ArrayList<>();
        for (int i = 0; i < size(); i++) {
            states.add(read(i));
        }
        return states;
    }

    /** Sends a fault command ({@code delay 300}, {@code clear}) to switch {@code index}'s control port. */
    String control(int index, String command) throws IOException {
        try (ControlClient client = ControlClient.connect(addresses.get(index).control())) {
            return client.command(command);
        }
    }

    private JavaProcess start(String label, Class<?> main, String... args) throws IOException {
        JavaProcess process = JavaProcess.start(String.format("%04d-%s", ++starts, label), dir.resolve("logs"), dir,
                main, args);
        started.add(process);
        return process;
    }

    /** Kills every process the lab started (frozen ones too: SIGKILL needs no SIGCONT). */
    @Override
    public void close() throws InterruptedException {
        for (JavaProcess process : started) {
            process.kill();
        }
        if (controlPorts != null) {
            controlPorts.close();
        }
        if (servicePorts != null) {
            servicePorts.close();
        }
    }
}
