package dev.waldoconf.model;

import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One VLAN as a switch holds it (Q-BRIDGE-MIB dot1qVlanStaticTable): its
 * name and which bridge ports carry it tagged or untagged. A port is in at
 * most one of the two sets; together they are the VLAN's egress ports.
 *
 * @param id the VLAN id, 1 to 4094
 * @param name the VLAN's name (dot1qVlanStaticName), at most 32 characters
 * @param tagged ports that carry the VLAN tagged (trunk membership)
 * @param untagged ports that carry it untagged (access membership)
 */
public record Vlan(int id, String name, SortedSet<Integer> tagged, SortedSet<Integer> untagged) {
    /** Highest VLAN id (IEEE 802.1Q reserves 4095). */
    public static final int MAX_ID = 4094;

    public Vlan {
        if (id < 1 || id > MAX_ID) {
            throw new IllegalArgumentException("VLAN id " + id + " is outside 1.." + MAX_ID);
        }
        name = name == null ? "" : name;
        tagged = Collections.unmodifiableSortedSet(new TreeSet<>(tagged));
        untagged = Collections.unmodifiableSortedSet(new TreeSet<>(untagged));
        for (int port : untagged) {
            if (tagged.contains(port)) {
                throw new IllegalArgumentException("VLAN " + id + ": port " + port + " cannot be both tagged and untagged");
            }
        }
    }

    /** A VLAN with no member ports. */
    public static Vlan empty(int id, String name) {
        return new Vlan(id, name, new TreeSet<>(), new TreeSet<>());
    }

    /** Every port that carries the VLAN (dot1qVlanStaticEgressPorts). */
    public SortedSet<Integer> egress() {
        SortedSet<Integer> egress = new TreeSet<>(tagged);
        egress.addAll(untagged);
        return Collections.unmodifiableSortedSet(egress);
    }

    /** This VLAN renamed. */
    public Vlan withName(String newName) {
        return new Vlan(id, newName, tagged, untagged);
    }

    /** This VLAN with other member ports. */
    public Vlan withPorts(SortedSet<Integer> newTagged, SortedSet<Integer> newUntagged) {
        return new Vlan(id, name, newTagged, newUntagged);
    }
}
