package dev.waldoconf.service;

import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import dev.waldoconf.model.SwitchState;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Converts a switch's VLAN state between the Java model and the values the
 * VlanSwitch Waldo service holds (maps keyed by Number, Vlan structs with
 * port lists). Ports and ids are whole numbers; anything else is rejected
 * rather than rounded.
 */
public final class WaldoState {
    private WaldoState() {
    }

    /** The service's {@code vlans} value for {@code state}. */
    public static WMap<Double, dev.waldoconf.services.Vlan> vlans(SwitchState state) {
        WMap<Double, dev.waldoconf.services.Vlan> vlans = new WMap<>();
        state.vlans().forEach((id, vlan) -> {
            dev.waldoconf.services.Vlan value = new dev.waldoconf.services.Vlan();
            value.name = vlan.name();
            value.tagged = ports(vlan.tagged());
            value.untagged = ports(vlan.untagged());
            vlans.put((double) id, value);
        });
        return vlans;
    }

    /** The service's {@code pvids} value for {@code state}. */
    public static WMap<Double, Double> pvids(SwitchState state) {
        WMap<Double, Double> pvids = new WMap<>();
        state.pvids().forEach((port, vlan) -> pvids.put((double) port, (double) vlan));
        return pvids;
    }

    /** The switch state held in a service's {@code vlans} and {@code pvids} values. */
    public static SwitchState state(Object vlans, Object pvids) {
        TreeMap<Integer, dev.waldoconf.model.Vlan> table = new TreeMap<>();
        for (Map.Entry<?, ?> entry : ((WMap<?, ?>) vlans).entrySet()) {
            int id = whole(entry.getKey(), "VLAN id");
            dev.waldoconf.services.Vlan value = (dev.waldoconf.services.Vlan) entry.getValue();
            table.put(id, new dev.waldoconf.model.Vlan(id, value.name, portSet(value.tagged), portSet(value.untagged)));
        }
        TreeMap<Integer, Integer> ports = new TreeMap<>();
        for (Map.Entry<?, ?> entry : ((WMap<?, ?>) pvids).entrySet()) {
            ports.put(whole(entry.getKey(), "port"), whole(entry.getValue(), "PVID"));
        }
        return new SwitchState(table, ports);
    }

    private static WList<Double> ports(SortedSet<Integer> ports) {
        WList<Double> list = new WList<>();
        ports.forEach(port -> list.add((double) port));
        return list;
    }

    private static SortedSet<Integer> portSet(WList<Double> ports) {
        SortedSet<Integer> set = new TreeSet<>();
        for (Object port : ports) {
            set.add(whole(port, "port"));
        }
        return set;
    }

    private static int whole(Object number, String what) {
        double value = (Double) number;
        if (value != Math.rint(value) || value < 0 || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + " " + value + " is not a whole number");
        }
        return (int) value;
    }
}
