package dev.waldoconf.service;

import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.device.VlanTableAdapter;
import dev.waldoconf.model.SwitchPart;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.services.SwitchDesk;
import dev.waldoconf.services.Trial;
import dev.waldoconf.services.VlanSwitch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.SortedSet;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Java side of the VLAN service ({@code vlan_switch.wld}) as a {@link DeviceService} serves it:
 * one VlanSwitch per switch, bound to the switch's VLAN table by a {@link VlanTableAdapter}. The
 * service keeps its own trials (one per change, each with the values before it on the keys it
 * set), so a revert is a transaction of the service that puts those keys back.
 */
public final class VlanSwitchProgram implements DeviceService.Program<SwitchPart> {
    private static final Logger LOG = LoggerFactory.getLogger(VlanSwitchProgram.class);

    private final String name;
    private final VlanTableAdapter adapter;
    private final DeviceBinding<SwitchPart> binding;
    private final VlanSwitch service;

    private VlanSwitchProgram(String name, VlanTableAdapter adapter, DeviceBinding<SwitchPart> binding,
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
    public static DeviceService<SwitchPart, VlanSwitchProgram> mount(String name, Host host, VlanDevice device,
            Path journalDir, Clock clock, boolean ownsDevice) throws IOException, DeviceException {
        VlanTableAdapter adapter = new VlanTableAdapter(device);
        return DeviceService.mount(name, host, adapter, journalDir, clock, creator(name, adapter),
                ownsDevice ? device::close : () -> { });
    }

    /**
     * Starts the VLAN service for switch {@code name} on an in-memory {@code host}, as {@link
     * DeviceService#start} does; the caller keeps {@code device}.
     */
    public static DeviceService<SwitchPart, VlanSwitchProgram> start(String name, Host host, VlanDevice device,
            Path journalDir, Clock clock) throws IOException, DeviceException {
        VlanTableAdapter adapter = new VlanTableAdapter(device);
        return DeviceService.start(name, host, adapter, journalDir, clock, creator(name, adapter));
    }

    private static DeviceService.Creator<SwitchPart, VlanSwitchProgram> creator(String name,
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
    public void restore(TrialRecord<SwitchPart> committed) throws DeviceException, IOException {
        TrialRecord<SwitchPart> record = committed;
        if (record == null) {
            SwitchState found = adapter.read();
            record = TrialRecord.withoutTrial("adopted", SwitchPart.of(found));
            binding.adopt(record);
            LOG.info("{}: adopted the switch's current state ({} VLANs)", name, found.vlans().size());
        }
        SwitchState intended = record.intended().appliedTo(SwitchState.empty());
        WMap<String, Trial> trials = new WMap<>();
        for (TrialRecord.Trial<SwitchPart> trial : record.pending()) {
            trials.put(trial.change(), new Trial(trial.deadlineEpochSeconds(), WaldoState.struct(trial.before())));
            LOG.info("{}: recovered pending trial {} (deadline {})", name, trial.change(),
                    Instant.ofEpochSecond(trial.deadlineEpochSeconds()));
        }
        service.restore(WaldoState.names(intended), WaldoState.members(intended), WaldoState.pvids(intended), trials,
                portsOf(intended), vlansOf(intended));
    }

    /**
     * The VLANs {@code state} names (its VLANs and the PVIDs' VLANs), whose change counters the
     * service starts at zero; a change counts any other VLAN it brings as it sets it.
     */
    private static WList<Double> vlansOf(SwitchState state) {
        SortedSet<Integer> ids = new TreeSet<>(state.vlans().keySet());
        ids.addAll(state.pvids().values());
        WList<Double> vlans = new WList<>();
        ids.forEach(id -> vlans.add((double) id));
        return vlans;
    }

    /** Ports 1 to the highest the switch has a PVID or a membership for, whose change counters the service starts at zero. */
    private static WList<Double> portsOf(SwitchState state) {
        int highest = state.pvids().isEmpty() ? 0 : state.pvids().lastKey();
        for (Vlan vlan : state.vlans().values()) {
            highest = Math.max(highest, vlan.egress().isEmpty() ? 0 : vlan.egress().last());
        }
        WList<Double> ports = new WList<>();
        for (int port = 1; port <= highest; port++) {
            ports.add((double) port);
        }
        return ports;
    }

    /** The VLANs whose change counters the service holds now, committed (a VLAN gets them at its first change). */
    SortedSet<Integer> countedVlans() {
        SortedSet<Integer> ids = new TreeSet<>();
        service.committed(VlanSwitch.COUNTED_VLANS).keySet().forEach(id -> ids.add(id.intValue()));
        return ids;
    }

    @Override
    public boolean revert(String change) {
        return service.revert(change);
    }
}
