package dev.waldoconf.lab.model;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The configuration of a switch that survives restarts: the writable system scalars, the VLAN
 * static table and each port's PVID. Immutable, so a SET builds a new state and swaps it in
 * whole, which is what makes a PDU all-or-nothing.
 *
 * @param sysName sysName
 * @param sysContact sysContact
 * @param sysLocation sysLocation
 * @param vlans dot1qVlanStaticTable, by VLAN id
 * @param pvids dot1qPvid for ports 1..n (element 0 is port 1)
 * @param vlanNumDeletes dot1qVlanNumDeletes: how many VLANs were ever deleted
 */
public record SwitchState(String sysName, String sysContact, String sysLocation,
                          SortedMap<Integer, VlanRow> vlans, List<Integer> pvids, long vlanNumDeletes) {

    /** Copies the collections so that a state can never change after it is made. */
    public SwitchState {
        Objects.requireNonNull(sysName, "sysName");
        Objects.requireNonNull(sysContact, "sysContact");
        Objects.requireNonNull(sysLocation, "sysLocation");
        vlans = Collections.unmodifiableSortedMap(new TreeMap<>(vlans));
        pvids = List.copyOf(pvids);
    }

    /**
     * The state of a switch fresh from the factory: VLAN 1 ("default") active with every port
     * an untagged member, and every PVID 1.
     */
    public static SwitchState factoryDefault(SwitchSpec spec, String sysName) {
        PortSet all = PortSet.firstPorts(spec.portCount());
        VlanRow defaultVlan = new VlanRow(1, "default", all, PortSet.empty(), all, RowStatus.ACTIVE, 0);
        List<Integer> pvids = IntStream.range(0, spec.portCount()).mapToObj(i -> 1).toList();
        return new SwitchState(sysName, "", "", new TreeMap<>(java.util.Map.of(1, defaultVlan)), pvids, 0);
    }

    /** The number of ports this state describes. */
    public int portCount() {
        return pvids.size();
    }

    /** The PVID of a port numbered from 1. */
    public int pvid(int port) {
        return pvids.get(port - 1);
    }

    /** The VLAN row with this id, or null. */
    public VlanRow vlan(int vlanId) {
        return vlans.get(vlanId);
    }

    /** Whether a VLAN with this id exists and is active. */
    public boolean isActiveVlan(int vlanId) {
        VlanRow row = vlans.get(vlanId);
        return row != null && row.isActive();
    }

    /** The active VLANs, i.e. dot1qVlanCurrentTable; also dot1qNumVlans is its size. */
    public List<VlanRow> activeVlans() {
        return vlans.values().stream().filter(VlanRow::isActive).toList();
    }

    /** The ports whose PVID is the given VLAN. */
    public PortSet portsWithPvid(int vlanId) {
        return PortSet.of(IntStream.rangeClosed(1, portCount()).filter(p -> pvid(p) == vlanId).toArray());
    }

    /** A copy with one system scalar replaced. */
    public SwitchState withSystem(SystemField field, String value) {
        return switch (field) {
            case NAME -> new SwitchState(value, sysContact, sysLocation, vlans, pvids, vlanNumDeletes);
            case CONTACT -> new SwitchState(sysName, value, sysLocation, vlans, pvids, vlanNumDeletes);
            case LOCATION -> new SwitchState(sysName, sysContact, value, vlans, pvids, vlanNumDeletes);
        };
    }

    /** A copy with the row put in (or replaced). */
    public SwitchState withVlan(VlanRow row) {
        TreeMap<Integer, VlanRow> next = new TreeMap<>(vlans);
        next.put(row.vlanId(), row);
        return new SwitchState(sysName, sysContact, sysLocation, next, pvids, vlanNumDeletes);
    }

    /** A copy without the row, counting the delete in dot1qVlanNumDeletes. */
    public SwitchState withoutVlan(int vlanId) {
        TreeMap<Integer, VlanRow> next = new TreeMap<>(vlans);
        next.remove(vlanId);
        return new SwitchState(sysName, sysContact, sysLocation, next, pvids, vlanNumDeletes + 1);
    }

    /** A copy with one port's PVID replaced. */
    public SwitchState withPvid(int port, int vlanId) {
        List<Integer> next = new java.util.ArrayList<>(pvids);
        next.set(port - 1, vlanId);
        return new SwitchState(sysName, sysContact, sysLocation, vlans, next, vlanNumDeletes);
    }

    /** A one-line summary for logs and the control interface. */
    public String summary() {
        return "vlans=" + vlans.values().stream()
                .map(v -> v.vlanId() + (v.isActive() ? "" : "(notInService)"))
                .collect(Collectors.joining(","));
    }
}
