package dev.waldoconf.model;

import java.util.SortedSet;

/**
 * One step of moving a switch from one {@link SwitchState} to another, in
 * the words an operator uses. {@link VlanDiff} orders the steps by
 * {@link Phase} so that every agent accepts each step.
 */
public sealed interface VlanChange {
    /** The phase the step belongs to; steps run phase by phase. */
    Phase phase();

    /** A one-line description for plans and progress, e.g. "create VLAN 20 'voice'". */
    String describe();

    /**
     * The order in which changes reach a switch (DESIGN.md): VLANs must exist
     * before ports join them, ports must carry a VLAN before it becomes their
     * PVID, PVIDs must move away before a VLAN can be pruned from a port or
     * deleted.
     */
    enum Phase {
        /** Create VLANs, rename them, add tagged members. */
        CREATE_AND_TAG,
        /** Add untagged members, set PVIDs. */
        UNTAGGED_AND_PVID,
        /** Remove ports from VLANs they should no longer carry. */
        PRUNE,
        /** Destroy VLANs that should no longer exist. */
        DELETE
    }

    /** Create a VLAN (with its name, and no ports yet). */
    record CreateVlan(int vlan, String name) implements VlanChange {
        public Phase phase() {
            return Phase.CREATE_AND_TAG;
        }

        public String describe() {
            return "create VLAN " + vlan + " '" + name + "'";
        }
    }

    /** Rename an existing VLAN. */
    record RenameVlan(int vlan, String from, String to) implements VlanChange {
        public Phase phase() {
            return Phase.CREATE_AND_TAG;
        }

        public String describe() {
            return "rename VLAN " + vlan + " '" + from + "' -> '" + to + "'";
        }
    }

    /** Add ports to a VLAN, tagged or untagged. */
    record AddPorts(int vlan, SortedSet<Integer> ports, boolean untagged) implements VlanChange {
        public Phase phase() {
            return untagged ? Phase.UNTAGGED_AND_PVID : Phase.CREATE_AND_TAG;
        }

        public String describe() {
            return "add " + (untagged ? "untagged" : "tagged") + " port" + (ports.size() == 1 ? " " : "s ")
                    + PortRanges.format(ports) + " to VLAN " + vlan;
        }
    }

    /** Change a port's PVID. */
    record SetPvid(int port, int from, int to) implements VlanChange {
        public Phase phase() {
            return Phase.UNTAGGED_AND_PVID;
        }

        public String describe() {
            return "set PVID of port " + port + " " + from + " -> " + to;
        }
    }

    /** Remove ports from a VLAN (they stop carrying it, tagged or untagged). */
    record RemovePorts(int vlan, SortedSet<Integer> ports) implements VlanChange {
        public Phase phase() {
            return Phase.PRUNE;
        }

        public String describe() {
            return "remove port" + (ports.size() == 1 ? " " : "s ") + PortRanges.format(ports) + " from VLAN " + vlan;
        }
    }

    /** Destroy a VLAN. */
    record DeleteVlan(int vlan, String name) implements VlanChange {
        public Phase phase() {
            return Phase.DELETE;
        }

        public String describe() {
            return "delete VLAN " + vlan + " '" + name + "'";
        }
    }
}
