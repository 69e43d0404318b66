package dev.waldoconf.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The steps that move a switch from one VLAN state to another, ordered by
 * {@link VlanChange.Phase} (a stable sort keeps VLAN and port order inside a
 * phase). Undoing a change is the diff in the other direction, which again
 * runs in the safe order.
 */
public final class VlanDiff {
    private VlanDiff() {
    }

    /** The ordered steps from {@code current} to {@code desired}; empty when they are equal. */
    public static List<VlanChange> between(SwitchState current, SwitchState desired) {
        List<VlanChange> steps = new ArrayList<>();
        for (Vlan wanted : desired.vlans().values()) {
            Vlan existing = current.vlans().get(wanted.id());
            if (existing == null) {
                steps.add(new VlanChange.CreateVlan(wanted.id(), wanted.name()));
                existing = Vlan.empty(wanted.id(), wanted.name());
            } else if (!existing.name().equals(wanted.name())) {
                steps.add(new VlanChange.RenameVlan(wanted.id(), existing.name(), wanted.name()));
            }
            addMembers(steps, existing, wanted);
        }
        for (Map.Entry<Integer, Integer> pvid : desired.pvids().entrySet()) {
            Integer before = current.pvids().get(pvid.getKey());
            if (!pvid.getValue().equals(before)) {
                steps.add(new VlanChange.SetPvid(pvid.getKey(), before == null ? 0 : before, pvid.getValue()));
            }
        }
        for (Vlan existing : current.vlans().values()) {
            Vlan wanted = desired.vlans().get(existing.id());
            if (wanted == null) {
                steps.add(new VlanChange.DeleteVlan(existing.id(), existing.name()));
            } else {
                SortedSet<Integer> pruned = minus(existing.egress(), wanted.egress());
                if (!pruned.isEmpty()) {
                    steps.add(new VlanChange.RemovePorts(existing.id(), pruned));
                }
            }
        }
        steps.sort(Comparator.comparing(VlanChange::phase));
        return List.copyOf(steps);
    }

    private static void addMembers(List<VlanChange> steps, Vlan existing, Vlan wanted) {
        SortedSet<Integer> tagged = minus(wanted.tagged(), existing.tagged());
        if (!tagged.isEmpty()) {
            steps.add(new VlanChange.AddPorts(wanted.id(), tagged, false));
        }
        SortedSet<Integer> untagged = minus(wanted.untagged(), existing.untagged());
        if (!untagged.isEmpty()) {
            steps.add(new VlanChange.AddPorts(wanted.id(), untagged, true));
        }
    }

    private static SortedSet<Integer> minus(SortedSet<Integer> from, SortedSet<Integer> take) {
        SortedSet<Integer> result = new TreeSet<>(from);
        result.removeAll(take);
        return result;
    }

    /** Applies {@code steps} to {@code state}: what a device should hold after them. */
    public static SwitchState apply(SwitchState state, List<VlanChange> steps) {
        SwitchState result = state;
        for (VlanChange step : steps) {
            result = applyOne(result, step);
        }
        return result;
    }

    private static SwitchState applyOne(SwitchState state, VlanChange step) {
        return switch (step) {
            case VlanChange.CreateVlan create -> state.with(Vlan.empty(create.vlan(), create.name()));
            case VlanChange.RenameVlan rename -> state.with(state.vlans().get(rename.vlan()).withName(rename.to()));
            case VlanChange.AddPorts add -> state.with(withPorts(state.vlans().get(add.vlan()), add));
            case VlanChange.SetPvid pvid -> state.withPvid(pvid.port(), pvid.to());
            case VlanChange.RemovePorts remove -> {
                Vlan vlan = state.vlans().get(remove.vlan());
                yield state.with(vlan.withPorts(minus(vlan.tagged(), remove.ports()),
                        minus(vlan.untagged(), remove.ports())));
            }
            case VlanChange.DeleteVlan delete -> state.without(delete.vlan());
        };
    }

    private static Vlan withPorts(Vlan vlan, VlanChange.AddPorts add) {
        SortedSet<Integer> tagged = new TreeSet<>(vlan.tagged());
        SortedSet<Integer> untagged = new TreeSet<>(vlan.untagged());
        (add.untagged() ? untagged : tagged).addAll(add.ports());
        (add.untagged() ? tagged : untagged).removeAll(add.ports());
        return vlan.withPorts(tagged, untagged);
    }
}
