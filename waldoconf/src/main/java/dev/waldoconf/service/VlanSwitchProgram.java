package dev.waldoconf.service;

import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.Host;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.device.VlanTableAdapter;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.services.SwitchDesk;
import dev.waldoconf.services.VlanSwitch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Java side of the VLAN service ({@code vlan_switch.wld}) as a {@link DeviceService} serves it:
 * one VlanSwitch per switch, bound to the switch's VLAN table by a {@link VlanTableAdapter}. The
 * service keeps its own trial (its trial fields, and the state before it), so a revert is a
 * transaction of the service that puts the VLANs back.
 */
public final class VlanSwitchProgram implements DeviceService.Program<SwitchState> {
    private static final Logger LOG = LoggerFactory.getLogger(VlanSwitchProgram.class);

    private final String name;
    private final VlanTableAdapter adapter;
    private final DeviceBinding<SwitchState> binding;
    private final VlanSwitch service;

    private VlanSwitchProgram(String name, VlanTableAdapter adapter, DeviceBinding<SwitchState> binding,
            VlanSwitch service) {
        this.name = name;
        this.adapter = adapter;
        this.binding = binding;
        this.service = service;
    }

    /**
     * Mounts the VLAN service for switch {@code name} on {@code host}, its journal in
     * {@code journalDir}, as {@link DeviceService#mount} does; {@code device} is closed with it when
     * {@code ownsDevice}.
     */
    public static DeviceService<SwitchState, VlanSwitchProgram> mount(String name, Host host, VlanDevice device,
            Path journalDir, Clock clock, boolean ownsDevice) throws IOException, DeviceException {
        VlanTableAdapter adapter = new VlanTableAdapter(device);
        return DeviceService.mount(name, host, adapter, journalDir, clock, creator(name, adapter),
                ownsDevice ? device::close : () -> { });
    }

    /**
     * Starts the VLAN service for switch {@code name} on an in-memory {@code host}, as {@link
     * DeviceService#start} does; the caller keeps {@code device}.
     */
    public static DeviceService<SwitchState, VlanSwitchProgram> start(String name, Host host, VlanDevice device,
            Path journalDir, Clock clock) throws IOException, DeviceException {
        VlanTableAdapter adapter = new VlanTableAdapter(device);
        return DeviceService.start(name, host, adapter, journalDir, clock, creator(name, adapter));
    }

    private static DeviceService.Creator<SwitchState, VlanSwitchProgram> creator(String name,
            VlanTableAdapter adapter) {
        return (host, binding) -> new VlanSwitchProgram(name, adapter, binding, VlanSwitch.create(host, name));
    }

    /** The Waldo service, whose reference coordinators call. */
    public VlanSwitch service() {
        return service;
    }

    @Override
    public EndpointFactory<?> desk() {
        return h -> SwitchDesk.create(h, service.ref());
    }

    /**
     * Makes {@code committed} the service's state, in one transaction (the binding pushes it if the
     * switch differs). A service that never committed anything adopts the switch's current state
     * as its committed record: a staging that dies half-pushed before any change committed here is
     * undone back to it at the next start.
     */
    @Override
    public void restore(TrialRecord<SwitchState> committed) throws DeviceException, IOException {
        TrialRecord<SwitchState> record = committed;
        if (record == null) {
            SwitchState found = adapter.read();
            record = new TrialRecord<>("adopted", found, "", 0, List.of(), SwitchState.empty());
            binding.adopt(record);
            LOG.info("{}: adopted the switch's current state ({} VLANs)", name, found.vlans().size());
        }
        service.restore(WaldoState.vlans(record.intended()), WaldoState.pvids(record.intended()), record.trial(),
                record.deadlineEpochSeconds(),
                WaldoState.vlans(record.before()), WaldoState.pvids(record.before()));
        if (record.hasTrial()) {
            LOG.info("{}: recovered pending trial {} (deadline {})", name, record.trial(),
                    Instant.ofEpochSecond(record.deadlineEpochSeconds()));
        }
    }

    @Override
    public boolean revert(String change) {
        return service.revert(change);
    }
}
