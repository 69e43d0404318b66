package dev.waldoconf.snmp;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * Reads a switch's VLAN configuration: dot1dBaseNumPorts, dot1qVlanStaticTable (name, egress,
 * untagged, row status) and dot1qPvid.
 */
final class QBridgeReader {
    private QBridgeReader() {
    }

    /**
     * What a switch holds.
     *
     * @param state its VLANs (every row of the static table, active or not) and PVIDs
     * @param portCount its number of bridge ports
     * @param inactiveVlans VLAN rows that exist but are not active (e.g. left by createAndWait)
     */
    record Snapshot(SwitchState state, int portCount, SortedSet<Integer> inactiveVlans) {
    }

    /** One VLAN row as it is assembled column by column from a walk. */
    private static final class Row {
        String name = "";
        SortedSet<Integer> egress = new TreeSet<>();
        SortedSet<Integer> untagged = new TreeSet<>();
        int status = QBridge.ROW_ACTIVE;
    }

    /** Columns of dot1qVlanStaticTable: name, egress, forbidden egress, untagged, row status. */
    private static final int STATIC_COLUMNS = 5;

    /**
     * Reads the switch without a guess of its size.
     *
     * @throws IOException if a request fails or the agent answers something that is not Q-BRIDGE-MIB
     */
    static Snapshot read(SnmpSession session) throws IOException {
        return read(session, 0);
    }

    /**
     * Reads the switch: dot1dBaseNumPorts first, so that one GETBULK reads all the PVIDs, and
     * the static table with one GETBULK sized for {@code expectedRows} rows (0: no guess).
     *
     * @throws IOException if a request fails or the agent answers something that is not Q-BRIDGE-MIB
     */
    static Snapshot read(SnmpSession session, int expectedRows) throws IOException {
        int announcedPorts = announcedPorts(session);
        List<VariableBinding> pvidColumn = session.walk(QBridge.PVID,
                announcedPorts > 0 ? announcedPorts + 1 : SnmpSession.WALK_REPETITIONS);
        int portCount = announcedPorts > 0 ? announcedPorts : portCount(session, pvidColumn);
        TreeMap<Integer, Row> rows = rows(session, session.walk(QBridge.VLAN_STATIC_ENTRY,
                expectedRows > 0 ? STATIC_COLUMNS * expectedRows + 1 : SnmpSession.WALK_REPETITIONS), portCount);
        TreeMap<Integer, Vlan> vlans = new TreeMap<>();
        SortedSet<Integer> inactive = new TreeSet<>();
        rows.forEach((id, row) -> {
            SortedSet<Integer> tagged = new TreeSet<>(row.egress);
            tagged.removeAll(row.untagged);
            vlans.put(id, new Vlan(id, row.name, tagged, row.untagged));
            if (row.status != QBridge.ROW_ACTIVE) {
                inactive.add(id);
            }
        });
        TreeMap<Integer, Integer> pvids = new TreeMap<>();
        for (VariableBinding vb : pvidColumn) {
            pvids.put(index(session, vb, QBridge.PVID.size(), portCount), number(session, vb));
        }
        return new Snapshot(new SwitchState(vlans, pvids), portCount, inactive);
    }

    /** dot1dBaseNumPorts, or 0 when the agent lacks that object or reports no port. */
    private static int announcedPorts(SnmpSession session) throws IOException {
        SnmpResponse response = session.get(List.of(QBridge.DOT1D_BASE_NUM_PORTS));
        if (response.isOk() && response.bindings().size() == 1 && !response.bindings().get(0).isException()) {
            return Math.max(0, number(session, response.bindings().get(0)));
        }
        return 0;
    }

    /** The highest port with a PVID, for an agent that lacks dot1dBaseNumPorts. */
    private static int portCount(SnmpSession session, List<VariableBinding> pvidColumn) throws IOException {
        if (pvidColumn.isEmpty()) {
            throw new IOException(session.agent() + " reports neither dot1dBaseNumPorts nor any dot1qPvid; "
                    + "is it a Q-BRIDGE-MIB switch?");
        }
        return pvidColumn.get(pvidColumn.size() - 1).getOid().last();
    }

    private static TreeMap<Integer, Row> rows(SnmpSession session, List<VariableBinding> table, int portCount)
            throws IOException {
        TreeMap<Integer, Row> rows = new TreeMap<>();
        int columnAt = QBridge.VLAN_STATIC_ENTRY.size();
        for (VariableBinding vb : table) {
            int vlan = index(session, vb, columnAt + 1, Vlan.MAX_ID);
            Row row = rows.computeIfAbsent(vlan, id -> new Row());
            switch (vb.getOid().get(columnAt)) {
                case QBridge.COLUMN_NAME -> row.name = new String(octets(session, vb), StandardCharsets.UTF_8);
                case QBridge.COLUMN_EGRESS -> row.egress = ports(octets(session, vb), portCount);
                case QBridge.COLUMN_UNTAGGED -> row.untagged = ports(octets(session, vb), portCount);
                case QBridge.COLUMN_ROW_STATUS -> row.status = number(session, vb);
                default -> {
                    // Forbidden egress ports and vendor columns are not part of WaldoConf's model.
                }
            }
        }
        return rows;
    }

    /** Ports of a PortList, without padding bits past the last port. */
    private static SortedSet<Integer> ports(byte[] portList, int portCount) {
        SortedSet<Integer> ports = new TreeSet<>(PortList.decode(portList));
        ports.removeIf(port -> port > portCount);
        return ports;
    }

    /** The single index after {@code position}, checked to be within 1..max. */
    private static int index(SnmpSession session, VariableBinding vb, int position, int max) throws IOException {
        OID oid = vb.getOid();
        if (oid.size() != position + 1 || oid.last() < 1 || oid.last() > max) {
            throw new IOException(session.agent() + " returned " + oid + ", which is not a valid instance index "
                    + "(expected 1.." + max + ")");
        }
        return oid.last();
    }

    private static int number(SnmpSession session, VariableBinding vb) throws IOException {
        Variable value = vb.getVariable();
        try {
            long number = value.toLong();
            if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
                throw new UnsupportedOperationException();
            }
            return (int) number;
        } catch (UnsupportedOperationException e) {
            throw new IOException(session.agent() + " returned " + value.getSyntaxString() + " " + value
                    + " for " + QBridge.describe(vb.getOid()) + ", where a number belongs");
        }
    }

    private static byte[] octets(SnmpSession session, VariableBinding vb) throws IOException {
        if (vb.getVariable() instanceof OctetString text) {
            return text.getValue();
        }
        throw new IOException(session.agent() + " returned " + vb.getVariable().getSyntaxString() + " for "
                + QBridge.describe(vb.getOid()) + ", where an OCTET STRING belongs");
    }
}
