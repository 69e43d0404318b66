package dev.waldoconf.service;

import dev.waldoconf.config.AgentTargets;
import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.Plan;
import dev.waldoconf.config.PlanLoader;
import dev.waldoconf.config.PlanResolver;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.PlannedChange;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.snmp.SnmpVlanDevice;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * Switches with a real WaldoConf service each (started by {@link WaldoConfEngine#startService},
 * as {@code waldoconf serve} does), an inventory naming them, and the engine {@code waldoconf
 * apply} uses: previews are resolved as the CLI resolves them, applies go through the engine.
 */
final class ServedSwitches implements AutoCloseable {
    private static final AtomicLong FILES = new AtomicLong();

    final Inventory inventory;
    final WaldoConfEngine engine;
    private final DeviceFactory devices;
    private final Path dir;
    private final List<RunningService> services = new ArrayList<>();

    private ServedSwitches(Inventory inventory, DeviceFactory devices, Path dir) {
        this.inventory = inventory;
        this.devices = devices;
        this.dir = dir;
        this.engine = new WaldoConfEngine(devices, dir.resolve("operator"), Clock.systemUTC(), new EngineOptions(dev.waldo.net.Security.INSECURE));
    }

    /** Lab switches (anything that answers Q-BRIDGE over SNMP v2c with community 'private'), by name. */
    static ServedSwitches overSnmp(Path dir, Map<String, InetSocketAddress> agents) throws Exception {
        Path community = Files.writeString(dir.resolve("community"), "private\n");
        DeviceFactory snmp = (entry, credentials) ->
                SnmpVlanDevice.open(entry.name(), AgentTargets.of(entry, credentials, Map.of()));
        return start(dir, agents, snmp, "community: {file: " + community + "}");
    }

    /** In-memory (or other local) switches; the services and the operator still talk over loopback. */
    static ServedSwitches inMemory(Path dir, List<? extends VlanDevice> switches) throws Exception {
        Map<String, InetSocketAddress> agents = new LinkedHashMap<>();
        Map<String, VlanDevice> byName = new LinkedHashMap<>();
        for (VlanDevice device : switches) {
            // Never contacted: the devices are in memory; the inventory only needs an address per switch.
            agents.put(device.name(), new InetSocketAddress("127.0.0.1", 40000 + agents.size()));
            byName.put(device.name(), device);
        }
        return start(dir, agents, (entry, credentials) -> new Shared(byName.get(entry.name())),
                "community: {env: UNUSED_COMMUNITY}");
    }

    private static ServedSwitches start(Path dir, Map<String, InetSocketAddress> agents, DeviceFactory devices,
            String credentials) throws Exception {
        StringBuilder yaml = new StringBuilder("switches:\n");
        agents.forEach((name, snmp) -> yaml.append("  - {name: ").append(name).append(", service: 127.0.0.1:")
                .append(freeTcpPort()).append(", snmp: 127.0.0.1:").append(snmp.getPort())
                .append(", version: '2c', credentials: lab}\n"));
        yaml.append("credentials:\n  lab:\n    ").append(credentials).append("\n");
        Inventory inventory = InventoryLoader.load(Files.writeString(dir.resolve("inventory.yaml"), yaml));
        ServedSwitches served = new ServedSwitches(inventory, devices, dir);
        for (SwitchEntry entry : inventory.switches()) {
            served.services.add(served.engine.startService(new ServiceSpec(inventory, entry.name(),
                    dir.resolve("service-" + entry.name()), Optional.empty())));
        }
        return served;
    }

    /** Loads {@code yaml} as a plan file of this inventory. */
    Plan plan(String yaml) throws IOException, ConfigException {
        Path file = Files.writeString(dir.resolve("plan-" + FILES.incrementAndGet() + ".yaml"), yaml);
        return PlanLoader.load(file, inventory);
    }

    /** The plan as {@code waldoconf plan} and apply's preview resolve it: against every switch read now. */
    ResolvedPlan preview(Plan plan) throws DeviceException, ConfigException {
        return PlanResolver.resolve(plan, inventory, readAll());
    }

    /** Applies {@code preview} without a trial, as {@code waldoconf apply} (interactive: refuse if changed). */
    ApplyResult apply(ResolvedPlan preview, boolean refuseIfChanged) throws EngineException, ConfigException {
        return engine.apply(PlannedChange.of(preview, refuseIfChanged), Optional.empty(), ProgressListener.NONE);
    }

    /** Applies {@code preview} as a trial of {@code trial}. */
    ApplyResult applyTrial(ResolvedPlan preview, Duration trial) throws EngineException, ConfigException {
        return engine.apply(PlannedChange.of(preview, true), Optional.of(trial), ProgressListener.NONE);
    }

    /** Each service's lock table, for a test's failure message when a transaction does not end. */
    String describeLocks() {
        StringBuilder report = new StringBuilder();
        for (RunningService service : services) {
            report.append(service.switchName()).append(":\n")
                    .append(((SwitchServer) service).describeLocks());
        }
        return report.toString();
    }

    /** Stops switch {@code name}'s service as a crash would (its journal stays). */
    void stopService(String name) {
        List<SwitchEntry> entries = inventory.switches();
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).name().equals(name)) {
                services.get(i).close();
            }
        }
    }

    /** What switch {@code name} holds, read directly, not through its service. */
    SwitchState read(String name) throws DeviceException {
        SwitchEntry entry = inventory.switchNamed(name).orElseThrow();
        try (VlanDevice device = devices.open(entry, inventory.credentialsOf(entry))) {
            return device.read();
        }
    }

    /** What every switch holds, by name. */
    Map<String, SwitchState> readAll() throws DeviceException {
        Map<String, SwitchState> states = new LinkedHashMap<>();
        for (SwitchEntry entry : inventory.switches()) {
            states.put(entry.name(), read(entry.name()));
        }
        return states;
    }

    @Override
    public void close() throws Exception {
        for (RunningService service : services) {
            try {
                service.close();
            } catch (RuntimeException e) {
                // Already stopped by a crash scenario.
            }
        }
    }

    private static int freeTcpPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One in-memory switch as several openers see it: closing one view leaves the switch open. */
    private record Shared(VlanDevice device) implements VlanDevice {
        @Override
        public String name() {
            return device.name();
        }

        @Override
        public SwitchState read() throws DeviceException {
            return device.read();
        }

        @Override
        public SwitchState push(UnaryOperator<SwitchState> target) throws DeviceException {
            return device.push(target);
        }

        @Override
        public void close() {
        }
    }
}
