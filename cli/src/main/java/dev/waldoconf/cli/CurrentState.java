package dev.waldoconf.cli;

import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.model.SwitchState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Reads every switch's current VLAN state, all switches at once. */
final class CurrentState {
    private CurrentState() {
    }

    /**
     * The state of every switch of {@code inventory}, by name.
     *
     * @throws CommandFailure (unreachable) naming every switch that could not be read and why
     */
    static Map<String, SwitchState> read(Inventory inventory, DeviceFactory devices) throws CommandFailure {
        Map<String, Future<SwitchState>> reads = new LinkedHashMap<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (SwitchEntry entry : inventory.switches()) {
                reads.put(entry.name(), pool.submit(() -> readOne(entry, inventory, devices)));
            }
        }
        Map<String, SwitchState> states = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        reads.forEach((name, read) -> {
            try {
                states.put(name, read.get());
            } catch (ExecutionException e) {
                String reason = e.getCause().getMessage();
                failures.add("  " + (reason.startsWith(name + ":") ? reason : name + ": " + reason));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failures.add("  " + name + ": interrupted");
            }
        });
        if (!failures.isEmpty()) {
            throw new CommandFailure(ExitCodes.UNREACHABLE, "cannot read " + failures.size() + " of "
                    + inventory.switches().size() + " switches; nothing was changed:\n" + String.join("\n", failures)
                    + "\nCheck that the switches are up (for the lab: 'waldoconf lab status') and the inventory's"
                    + " addresses and credentials.");
        }
        return states;
    }

    private static SwitchState readOne(SwitchEntry entry, Inventory inventory, DeviceFactory devices)
            throws DeviceException {
        try (VlanDevice device = devices.open(entry, inventory.credentialsOf(entry))) {
            return device.read();
        }
    }
}
