package dev.waldoconf.lab.model;

import java.util.Objects;

/**
 * The fixed properties of a simulated switch: what hardware it pretends to be and which vendor
 * quirks it has. They do not change while the switch runs.
 *
 * @param portCount number of bridge ports (and interfaces), 1 to 4096
 * @param maxVlanId dot1qMaxVlanId, the highest VLAN id the switch accepts (at most 4094)
 * @param quirks the vendor behaviour profile
 */
public record SwitchSpec(int portCount, int maxVlanId, QuirkProfile quirks) {
    /** The port count when none is configured. */
    public static final int DEFAULT_PORT_COUNT = 24;
    /** The highest VLAN id IEEE 802.1Q allows; 4095 is reserved. */
    public static final int IEEE_MAX_VLAN_ID = 4094;

    /** Validates the ranges. */
    public SwitchSpec {
        Objects.requireNonNull(quirks, "quirks");
        if (portCount < 1 || portCount > 4096) {
            throw new IllegalArgumentException("port count must be 1..4096, got " + portCount);
        }
        if (maxVlanId < 1 || maxVlanId > IEEE_MAX_VLAN_ID) {
            throw new IllegalArgumentException("max VLAN id must be 1..4094, got " + maxVlanId);
        }
    }

    /** A 24-port switch with the standard profile. */
    public static SwitchSpec defaults() {
        return new SwitchSpec(DEFAULT_PORT_COUNT, IEEE_MAX_VLAN_ID, QuirkProfile.STANDARD);
    }

    /** A copy with another port count. */
    public SwitchSpec withPortCount(int ports) {
        return new SwitchSpec(ports, maxVlanId, quirks);
    }

    /** A copy with another quirk profile. */
    public SwitchSpec withQuirks(QuirkProfile profile) {
        return new SwitchSpec(portCount, maxVlanId, profile);
    }

    /** The longest PortList this switch accepts, in octets. */
    public int portListOctets() {
        return PortSet.octetsFor(portCount);
    }

    /** Whether a VLAN with this id could ever exist here (else noCreation). */
    public boolean isCreatableVlan(int vlanId) {
        return vlanId >= 1 && vlanId <= maxVlanId;
    }
}
