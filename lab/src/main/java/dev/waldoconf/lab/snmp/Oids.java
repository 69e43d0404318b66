package dev.waldoconf.lab.snmp;

import org.snmp4j.smi.OID;

/**
 * Object identifiers of the MIB objects the simulated switch implements, named as in
 * SNMPv2-MIB (RFC 3418), IF-MIB (RFC 2863), BRIDGE-MIB (RFC 4188) and Q-BRIDGE-MIB (RFC 4363).
 * Scalars are given without the trailing {@code .0}; table columns without an index.
 */
public final class Oids {
    private Oids() {
    }

    public static final OID SYSTEM = new OID("1.3.6.1.2.1.1");
    public static final OID SYS_DESCR = child(SYSTEM, 1);
    public static final OID SYS_OBJECT_ID = child(SYSTEM, 2);
    public static final OID SYS_UP_TIME = child(SYSTEM, 3);
    public static final OID SYS_CONTACT = child(SYSTEM, 4);
    public static final OID SYS_NAME = child(SYSTEM, 5);
    public static final OID SYS_LOCATION = child(SYSTEM, 6);
    public static final OID SYS_SERVICES = child(SYSTEM, 7);

    public static final OID INTERFACES = new OID("1.3.6.1.2.1.2");
    public static final OID IF_NUMBER = child(INTERFACES, 1);
    public static final OID IF_ENTRY = new OID("1.3.6.1.2.1.2.2.1");
    public static final OID IF_INDEX = child(IF_ENTRY, 1);
    public static final OID IF_DESCR = child(IF_ENTRY, 2);
    public static final OID IF_TYPE = child(IF_ENTRY, 3);
    public static final OID IF_OPER_STATUS = child(IF_ENTRY, 8);

    public static final OID DOT1D_BRIDGE = new OID("1.3.6.1.2.1.17");
    public static final OID DOT1D_BASE_BRIDGE_ADDRESS = new OID("1.3.6.1.2.1.17.1.1");
    public static final OID DOT1D_BASE_NUM_PORTS = new OID("1.3.6.1.2.1.17.1.2");
    public static final OID DOT1D_BASE_TYPE = new OID("1.3.6.1.2.1.17.1.3");
    public static final OID DOT1D_BASE_PORT_ENTRY = new OID("1.3.6.1.2.1.17.1.4.1");
    public static final OID DOT1D_BASE_PORT = child(DOT1D_BASE_PORT_ENTRY, 1);
    public static final OID DOT1D_BASE_PORT_IF_INDEX = child(DOT1D_BASE_PORT_ENTRY, 2);

    public static final OID DOT1Q_BASE = new OID("1.3.6.1.2.1.17.7.1.1");
    public static final OID DOT1Q_VLAN_VERSION_NUMBER = child(DOT1Q_BASE, 1);
    public static final OID DOT1Q_MAX_VLAN_ID = child(DOT1Q_BASE, 2);
    public static final OID DOT1Q_MAX_SUPPORTED_VLANS = child(DOT1Q_BASE, 3);
    public static final OID DOT1Q_NUM_VLANS = child(DOT1Q_BASE, 4);
    public static final OID DOT1Q_GVRP_STATUS = child(DOT1Q_BASE, 5);

    public static final OID DOT1Q_VLAN = new OID("1.3.6.1.2.1.17.7.1.4");
    public static final OID DOT1Q_VLAN_NUM_DELETES = child(DOT1Q_VLAN, 1);
    /** dot1qVlanCurrentEntry, indexed by dot1qVlanTimeMark and dot1qVlanIndex. */
    public static final OID DOT1Q_VLAN_CURRENT_ENTRY = new OID("1.3.6.1.2.1.17.7.1.4.2.1");
    public static final OID DOT1Q_VLAN_FDB_ID = child(DOT1Q_VLAN_CURRENT_ENTRY, 3);
    public static final OID DOT1Q_VLAN_CURRENT_EGRESS_PORTS = child(DOT1Q_VLAN_CURRENT_ENTRY, 4);
    public static final OID DOT1Q_VLAN_CURRENT_UNTAGGED_PORTS = child(DOT1Q_VLAN_CURRENT_ENTRY, 5);
    public static final OID DOT1Q_VLAN_STATUS = child(DOT1Q_VLAN_CURRENT_ENTRY, 6);
    public static final OID DOT1Q_VLAN_CREATION_TIME = child(DOT1Q_VLAN_CURRENT_ENTRY, 7);
    /** dot1qVlanStaticEntry, indexed by dot1qVlanIndex. */
    public static final OID DOT1Q_VLAN_STATIC_ENTRY = new OID("1.3.6.1.2.1.17.7.1.4.3.1");
    public static final OID DOT1Q_VLAN_STATIC_NAME = child(DOT1Q_VLAN_STATIC_ENTRY, 1);
    public static final OID DOT1Q_VLAN_STATIC_EGRESS_PORTS = child(DOT1Q_VLAN_STATIC_ENTRY, 2);
    public static final OID DOT1Q_VLAN_FORBIDDEN_EGRESS_PORTS = child(DOT1Q_VLAN_STATIC_ENTRY, 3);
    public static final OID DOT1Q_VLAN_STATIC_UNTAGGED_PORTS = child(DOT1Q_VLAN_STATIC_ENTRY, 4);
    public static final OID DOT1Q_VLAN_STATIC_ROW_STATUS = child(DOT1Q_VLAN_STATIC_ENTRY, 5);
    /** dot1qPortVlanEntry, which AUGMENTS dot1dBasePortEntry (indexed by dot1dBasePort). */
    public static final OID DOT1Q_PORT_VLAN_ENTRY = new OID("1.3.6.1.2.1.17.7.1.4.5.1");
    public static final OID DOT1Q_PVID = child(DOT1Q_PORT_VLAN_ENTRY, 1);
    public static final OID DOT1Q_PORT_ACCEPTABLE_FRAME_TYPES = child(DOT1Q_PORT_VLAN_ENTRY, 2);
    public static final OID DOT1Q_PORT_INGRESS_FILTERING = child(DOT1Q_PORT_VLAN_ENTRY, 3);

    /** sysObjectID of the simulated switch, under the enterprise number RFC 5612 sets aside for documentation. */
    public static final OID LAB_SWITCH_OBJECT_ID = new OID("1.3.6.1.4.1.32473.1.1");

    /** The subtrees the switch answers for; each is registered as one managed object. */
    public static final OID[] SUBTREES = {SYSTEM, INTERFACES, DOT1D_BRIDGE};

    /** The OID of a scalar instance ({@code .0}). */
    public static OID scalar(OID object) {
        return child(object, 0);
    }

    /** {@code base} followed by the given sub-identifiers. */
    public static OID child(OID base, int... subIds) {
        OID oid = new OID(base);
        for (int subId : subIds) {
            oid.append(subId);
        }
        return oid;
    }
}
