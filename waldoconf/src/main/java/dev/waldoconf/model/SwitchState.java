package dev.waldoconf.model;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The VLAN configuration of one switch: its VLANs and each port's PVID
 * (dot1qPvid, the VLAN untagged frames arriving on the port belong to).
 * WaldoConf reads it from the device, computes the desired one from a plan,
 * and moves the device from one to the other.
 *
 * @param vlans VLANs by id
 * @param pvids PVID by bridge port number
 */
public record SwitchState(SortedMap<Integer, Vlan> vlans, SortedMap<Integer, Integer> pvids) {
    public SwitchState {
        vlans = Collections.unmodifiableSortedMap(new TreeMap<>(vlans));
        pvids = Collections.unmodifiableSortedMap(new TreeMap<>(pvids));
        vlans.forEach((id, vlan) -> {
            if (id != vlan.id()) {
                throw new IllegalArgumentException("VLAN " + vlan.id() + " is filed under id " + id);
            }
        });
    }

    /** A switch with no VLANs and no PVIDs. */
    public static SwitchState empty() {
        return new SwitchState(new TreeMap<>(), new TreeMap<>());
    }

    /** A switch as it leaves the factory: VLAN 1 untagged on every port, every PVID 1. */
    public static SwitchState factoryDefault(int ports) {
        TreeMap<Integer, Integer> pvids = new TreeMap<>();
        java.util.TreeSet<Integer> all = new java.util.TreeSet<>();
        for (int port = 1; port <= ports; port++) {
            pvids.put(port, 1);
            all.add(port);
        }
        TreeMap<Integer, Vlan> vlans = new TreeMap<>();
        vlans.put(1, new Vlan(1, "default", new java.util.TreeSet<>(), all));
        return new SwitchState(vlans, pvids);
    }

    /** This state with {@code vlan} added or replaced. */
    public SwitchState with(Vlan vlan) {
        TreeMap<Integer, Vlan> changed = new TreeMap<>(vlans);
        changed.put(vlan.id(), vlan);
        return new SwitchState(changed, pvids);
    }

    /** This state without VLAN {@code id}. */
    public SwitchState without(int id) {
        TreeMap<Integer, Vlan> changed = new TreeMap<>(vlans);
        changed.remove(id);
        return new SwitchState(changed, pvids);
    }

    /** This state with port {@code port}'s PVID set to {@code vlan}. */
    public SwitchState withPvid(int port, int vlan) {
        TreeMap<Integer, Integer> changed = new TreeMap<>(pvids);
        changed.put(port, vlan);
        return new SwitchState(vlans, changed);
    }
}
