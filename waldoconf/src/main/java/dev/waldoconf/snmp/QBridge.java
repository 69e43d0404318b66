package dev.waldoconf.snmp;

import org.snmp4j.smi.OID;

/**
 * The objects of BRIDGE-MIB (RFC 4188) and Q-BRIDGE-MIB (RFC 4363) the VLAN driver reads and
 * writes, with the RowStatus values of RFC 2579 it uses.
 */
final class QBridge {
    private QBridge() {
    }

    /** dot1dBaseNumPorts.0: how many bridge ports the switch has. */
    static final OID DOT1D_BASE_NUM_PORTS = new OID("1.3.6.1.2.1.17.1.2.0");
    /** dot1qVlanStaticEntry: name (1), egress (2), forbidden (3), untagged (4), row status (5). */
    static final OID VLAN_STATIC_ENTRY = new OID("1.3.6.1.2.1.17.7.1.4.3.1");
    static final int COLUMN_NAME = 1;
    static final int COLUMN_EGRESS = 2;
    static final int COLUMN_UNTAGGED = 4;
    static final int COLUMN_ROW_STATUS = 5;
    /** dot1qPvid, indexed by bridge port. */
    static final OID PVID = new OID("1.3.6.1.2.1.17.7.1.4.5.1.1");

    static final int ROW_ACTIVE = 1;
    static final int ROW_CREATE_AND_GO = 4;
    static final int ROW_CREATE_AND_WAIT = 5;
    static final int ROW_DESTROY = 6;

    /** The instance of a dot1qVlanStaticTable column for one VLAN. */
    static OID staticColumn(int column, int vlan) {
        OID oid = new OID(VLAN_STATIC_ENTRY);
        oid.append(column);
        oid.append(vlan);
        return oid;
    }

    /** The dot1qPvid instance of one port. */
    static OID pvid(int port) {
        OID oid = new OID(PVID);
        oid.append(port);
        return oid;
    }

    /** A readable name for an instance this driver writes, e.g. {@code dot1qVlanStaticUntaggedPorts.20}. */
    static String describe(OID oid) {
        if (oid.startsWith(PVID) && oid.size() == PVID.size() + 1) {
            return "dot1qPvid." + oid.last();
        }
        if (oid.startsWith(VLAN_STATIC_ENTRY) && oid.size() == VLAN_STATIC_ENTRY.size() + 2) {
            String column = switch (oid.get(VLAN_STATIC_ENTRY.size())) {
                case COLUMN_NAME -> "dot1qVlanStaticName";
                case COLUMN_EGRESS -> "dot1qVlanStaticEgressPorts";
                case 3 -> "dot1qVlanForbiddenEgressPorts";
                case COLUMN_UNTAGGED -> "dot1qVlanStaticUntaggedPorts";
                case COLUMN_ROW_STATUS -> "dot1qVlanStaticRowStatus";
                default -> null;
            };
            if (column != null) {
                return column + "." + oid.last();
            }
        }
        return oid.toDottedString();
    }
}
