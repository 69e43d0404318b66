package dev.waldoconf.lab.model;

import java.util.Objects;

/**
 * One conceptual row of dot1qVlanStaticTable (RFC 4363): a VLAN the manager configured, with
 * its name, port memberships and RowStatus. Immutable; the {@code with...} methods return copies.
 *
 * @param vlanId dot1qVlanIndex, 1 to the switch's maximum VLAN id
 * @param name dot1qVlanStaticName, at most 32 octets
 * @param egress dot1qVlanStaticEgressPorts: ports that transmit this VLAN
 * @param forbidden dot1qVlanForbiddenEgressPorts: ports that must never join this VLAN
 * @param untagged dot1qVlanStaticUntaggedPorts: egress ports that send this VLAN untagged
 * @param status dot1qVlanStaticRowStatus: {@link RowStatus#ACTIVE} or {@link RowStatus#NOT_IN_SERVICE}
 * @param createdAtCs sysUpTime (hundredths of a second) when the row last became active, for
 *     dot1qVlanCreationTime; 0 for rows loaded from a state file
 */
public record VlanRow(int vlanId, String name, PortSet egress, PortSet forbidden, PortSet untagged,
                      RowStatus status, long createdAtCs) {

    /** Checks that the row is in one of the two states a stored row can have. */
    public VlanRow {
        Objects.requireNonNull(name, "name");
        if (status != RowStatus.ACTIVE && status != RowStatus.NOT_IN_SERVICE) {
            throw new IllegalArgumentException("a stored VLAN row is active or notInService, not " + status);
        }
    }

    /** A new row with no name and no ports, as createAndGo or createAndWait makes it. */
    public static VlanRow created(int vlanId, RowStatus status, long nowCs) {
        return new VlanRow(vlanId, "", PortSet.empty(), PortSet.empty(), PortSet.empty(), status, nowCs);
    }

    /** Whether the row is active, i.e. the VLAN exists on the bridge (dot1qVlanCurrentTable). */
    public boolean isActive() {
        return status == RowStatus.ACTIVE;
    }

    /** A copy with another name. */
    public VlanRow withName(String newName) {
        return new VlanRow(vlanId, newName, egress, forbidden, untagged, status, createdAtCs);
    }

    /** A copy with one of the three PortList columns replaced. */
    public VlanRow withPorts(PortColumn column, PortSet ports) {
        return switch (column) {
            case EGRESS -> new VlanRow(vlanId, name, ports, forbidden, untagged, status, createdAtCs);
            case FORBIDDEN -> new VlanRow(vlanId, name, egress, ports, untagged, status, createdAtCs);
            case UNTAGGED -> new VlanRow(vlanId, name, egress, forbidden, ports, status, createdAtCs);
        };
    }

    /** The value of one of the three PortList columns. */
    public PortSet ports(PortColumn column) {
        return switch (column) {
            case EGRESS -> egress;
            case FORBIDDEN -> forbidden;
            case UNTAGGED -> untagged;
        };
    }

    /** A copy in a new state; becoming active stamps the creation time. */
    public VlanRow withStatus(RowStatus newStatus, long nowCs) {
        long created = newStatus == RowStatus.ACTIVE && !isActive() ? nowCs : createdAtCs;
        return new VlanRow(vlanId, name, egress, forbidden, untagged, newStatus, created);
    }
}
