package dev.waldoconf.config;

import java.util.List;
import java.util.SortedSet;

/**
 * A VLAN plan as read and checked by {@link PlanLoader}: the VLANs it manages (or deletes) and
 * explicit PVIDs. {@link PlanResolver} turns it, with each switch's current state, into the
 * desired state of every switch.
 *
 * @param document the plan file, kept so that resolution errors can name line and column
 * @param vlans managed VLANs and VLANs to delete, in file order
 * @param pvids explicit PVIDs, in file order
 */
public record Plan(YamlDocument document, List<PlanVlan> vlans, List<PvidSetting> pvids) {
    /** Copies the lists. */
    public Plan {
        vlans = List.copyOf(vlans);
        pvids = List.copyOf(pvids);
    }

    /** The plan file's name, as given. */
    public String file() {
        return document.file();
    }

    /**
     * One VLAN of the plan.
     *
     * @param id the VLAN id
     * @param name its name ("" for a VLAN to delete that the plan does not name)
     * @param absent true when the plan deletes the VLAN everywhere
     * @param memberships which ports carry it, per switch or group
     * @param path the field path of the entry ({@code vlans[2]}), for messages
     */
    public record PlanVlan(int id, String name, boolean absent, List<Membership> memberships, String path) {
        /** Copies the list. */
        public PlanVlan {
            memberships = List.copyOf(memberships);
        }
    }

    /**
     * Ports of a switch or group that carry a VLAN.
     *
     * @param target the switch or group
     * @param tagged ports that carry the VLAN tagged
     * @param untagged ports that carry it untagged (they become access ports of the VLAN)
     * @param path the field path ({@code vlans[0].ports[1]})
     */
    public record Membership(Target target, SortedSet<Integer> tagged, SortedSet<Integer> untagged, String path) {
    }

    /**
     * An explicit PVID for some ports.
     *
     * @param target the switch or group
     * @param ports the ports
     * @param vlan the VLAN untagged frames arriving on them belong to
     * @param path the field path ({@code pvids[0]})
     */
    public record PvidSetting(Target target, SortedSet<Integer> ports, int vlan, String path) {
    }
}
