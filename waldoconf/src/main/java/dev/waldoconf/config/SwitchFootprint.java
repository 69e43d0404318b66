package dev.waldoconf.config;

import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What resolving a plan on one switch depends on, beyond the keys the change sets there: the VLAN
 * service reads these first (its abstract locks, see vlan_switch.wld's {@code read}), so that no
 * other change alters them until this one ends. Two plans whose footprints and keys do not meet
 * on a switch run side by side there.
 *
 * @param named VLANs whose existence and name the plan relies on: those it manages or deletes, and
 *     those its explicit PVIDs name
 * @param whole VLANs whose member ports, and the ports whose PVID they are, the plan relies on:
 *     those it manages (their membership is exact) or deletes
 * @param ports ports whose VLANs and PVID the plan relies on: those it makes untagged in a managed
 *     VLAN (they leave every other VLAN), and those it gives an explicit PVID
 */
public record SwitchFootprint(SortedSet<Integer> named, SortedSet<Integer> whole, SortedSet<Integer> ports) {
    public SwitchFootprint {
        named = Collections.unmodifiableSortedSet(new TreeSet<>(named));
        whole = Collections.unmodifiableSortedSet(new TreeSet<>(whole));
        ports = Collections.unmodifiableSortedSet(new TreeSet<>(ports));
    }

    /** The footprint of {@code plan} on switch {@code entry} of {@code inventory}. */
    public static SwitchFootprint of(Plan plan, Inventory inventory, SwitchEntry entry) {
        SwitchIntent intent = SwitchIntent.of(plan, inventory, entry);
        SortedSet<Integer> whole = new TreeSet<>(intent.managed.keySet());
        whole.addAll(intent.deleted);
        SortedSet<Integer> named = new TreeSet<>(whole);
        intent.explicitPvids.values().forEach(setting -> named.add(setting.vlan()));
        SortedSet<Integer> ports = new TreeSet<>(intent.untaggedBy.keySet());
        ports.addAll(intent.explicitPvids.keySet());
        return new SwitchFootprint(named, whole, ports);
    }
}
