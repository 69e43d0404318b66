package dev.waldoconf.snmp;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.snmp4j.smi.AssignableFromLong;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * Whether a switch already holds what a SET of the VLAN driver asked for, read back object by
 * object: how the driver tells a SET whose first try was applied (only its answer lost) from one
 * that was not. What counts as "holds" follows RFC 2579 and RFC 4363, not byte equality: a row
 * created with createAndGo reads active, one destroyed reads absent, and PortLists are compared
 * as port sets (agents may pad or trim trailing zero octets).
 */
final class SetReadBack {
    /** RowStatus values a row reads after createAndWait (RFC 2579): notInService, or notReady. */
    private static final List<Integer> WAITING = List.of(2, 3);

    private SetReadBack() {
    }

    /**
     * GETs the objects of {@code asked} in one request and compares them with what was asked.
     *
     * @return null when the switch holds all of it, else what differs, e.g.
     *     {@code dot1qVlanStaticRowStatus.20 is absent where createAndGo was asked}
     * @throws IOException if the agent does not answer the GET or answers it with an error
     */
    static String differences(SnmpSession session, List<VariableBinding> asked) throws IOException {
        List<OID> oids = asked.stream().map(VariableBinding::getOid).toList();
        SnmpResponse response = session.get(oids);
        if (!response.isOk()) {
            throw new IOException(session.agent() + " answered " + response.errorName() + " to a GET of "
                    + oids.size() + " object(s)");
        }
        List<String> differences = new ArrayList<>();
        for (VariableBinding wanted : asked) {
            VariableBinding found = response.bindings().stream()
                    .filter(vb -> vb.getOid().equals(wanted.getOid())).findFirst().orElse(null);
            String difference = difference(wanted, found);
            if (difference != null) {
                differences.add(difference);
            }
        }
        return differences.isEmpty() ? null : String.join("; ", differences);
    }

    private static String difference(VariableBinding wanted, VariableBinding found) {
        String object = QBridge.describe(wanted.getOid());
        boolean absent = found == null || found.isException();
        if (isColumn(wanted.getOid(), QBridge.COLUMN_ROW_STATUS)) {
            int asked = wanted.getVariable().toInt();
            boolean holds = asked == QBridge.ROW_DESTROY ? absent
                    : !absent && (asked == QBridge.ROW_CREATE_AND_WAIT ? WAITING.contains(found.getVariable().toInt())
                            : found.getVariable().toInt() == QBridge.ROW_ACTIVE);
            return holds ? null : object + (absent ? " is absent" : " is " + found.getVariable())
                    + " where " + rowStatusName(asked) + " was asked";
        }
        if (absent) {
            return object + " is absent where " + shown(wanted) + " was asked";
        }
        return same(wanted, found) ? null
                : object + " is " + shown(found) + " where " + shown(wanted) + " was asked";
    }

    private static boolean same(VariableBinding wanted, VariableBinding found) {
        Variable asked = wanted.getVariable();
        Variable held = found.getVariable();
        if (isPortList(wanted.getOid()) && asked instanceof OctetString a && held instanceof OctetString h) {
            return PortList.decode(a.getValue()).equals(PortList.decode(h.getValue()));
        }
        if (asked instanceof AssignableFromLong && held instanceof AssignableFromLong) {
            return asked.toLong() == held.toLong();  // dot1qPvid may come back as Gauge32 or Unsigned32
        }
        return Objects.equals(asked, held);
    }

    private static boolean isPortList(OID oid) {
        return isColumn(oid, QBridge.COLUMN_EGRESS) || isColumn(oid, QBridge.COLUMN_UNTAGGED);
    }

    private static boolean isColumn(OID oid, int column) {
        return oid.startsWith(QBridge.VLAN_STATIC_ENTRY) && oid.size() == QBridge.VLAN_STATIC_ENTRY.size() + 2
                && oid.get(QBridge.VLAN_STATIC_ENTRY.size()) == column;
    }

    private static String shown(VariableBinding vb) {
        if (isPortList(vb.getOid()) && vb.getVariable() instanceof OctetString ports) {
            return "ports " + PortList.decode(ports.getValue());
        }
        return vb.getVariable() instanceof OctetString text ? "'" + text + "'" : vb.getVariable().toString();
    }

    private static String rowStatusName(int value) {
        return switch (value) {
            case QBridge.ROW_ACTIVE -> "active";
            case QBridge.ROW_CREATE_AND_GO -> "createAndGo";
            case QBridge.ROW_CREATE_AND_WAIT -> "createAndWait";
            case QBridge.ROW_DESTROY -> "destroy";
            default -> "RowStatus " + value;
        };
    }
}
