package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UnsignedInteger32;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/** Reading agents that answer differently from the lab: missing objects, odd values, nonsense. */
class QBridgeReaderTest {
    /** An agent that serves a fixed table of instances; it changes nothing. */
    private static final class TableAgent implements SnmpSession {
        final NavigableMap<OID, Variable> instances = new TreeMap<>();

        @Override
        public String agent() {
            return "table agent";
        }

        @Override
        public SnmpResponse get(List<OID> oids) {
            List<VariableBinding> answers = new ArrayList<>();
            for (OID oid : oids) {
                answers.add(new VariableBinding(oid, instances.getOrDefault(oid, Null.noSuchObject)));
            }
            return new SnmpResponse(0, 0, answers);
        }

        @Override
        public SnmpResponse set(List<VariableBinding> bindings) {
            return new SnmpResponse(17, 1, bindings);
        }

        @Override
        public SnmpResponse getBulk(OID after, int maxRepetitions) {
            List<VariableBinding> answers = new ArrayList<>();
            for (Map.Entry<OID, Variable> entry : instances.tailMap(after, false).entrySet()) {
                if (answers.size() == maxRepetitions) {
                    break;
                }
                answers.add(new VariableBinding(entry.getKey(), entry.getValue()));
            }
            if (answers.isEmpty()) {
                answers.add(new VariableBinding(after, Null.endOfMibView));
            }
            return new SnmpResponse(0, 0, answers);
        }

        @Override
        public void close() {
        }

        TableAgent vlan(int id, String name, byte[] egress, byte[] untagged, int rowStatus) {
            instances.put(QBridge.staticColumn(QBridge.COLUMN_NAME, id), new OctetString(name));
            instances.put(QBridge.staticColumn(QBridge.COLUMN_EGRESS, id), new OctetString(egress));
            instances.put(QBridge.staticColumn(QBridge.COLUMN_UNTAGGED, id), new OctetString(untagged));
            instances.put(QBridge.staticColumn(QBridge.COLUMN_ROW_STATUS, id), new Integer32(rowStatus));
            return this;
        }

        TableAgent pvids(int ports, int vlan) {
            for (int port = 1; port <= ports; port++) {
                instances.put(QBridge.pvid(port), new UnsignedInteger32(vlan));
            }
            return this;
        }
    }

    private static SwitchState read(TableAgent agent) throws DeviceException {
        try (SnmpVlanDevice device = new SnmpVlanDevice("odd-1", agent, SnmpVlanDevice.Options.defaults())) {
            return device.read();
        }
    }

    @Test
    void withoutDot1dBaseNumPortsThePortCountComesFromThePvids() throws Exception {
        TableAgent agent = new TableAgent().vlan(1, "default", new byte[] {(byte) 0xff, (byte) 0xf0},
                new byte[] {(byte) 0xff, 0x00}, QBridge.ROW_ACTIVE).pvids(12, 1);

        SwitchState state = read(agent);

        assertThat(state.pvids()).hasSize(12);
        assertThat(state.vlans().get(1)).isEqualTo(new Vlan(1, "default", new TreeSet<>(Set.of(9, 10, 11, 12)),
                new TreeSet<>(Set.of(1, 2, 3, 4, 5, 6, 7, 8))));
    }

    @Test
    void aGuessOfTooFewRowsOrPortsStillReadsThemAll() throws Exception {
        TableAgent agent = new TableAgent().pvids(100, 1);
        agent.instances.put(QBridge.DOT1D_BASE_NUM_PORTS, new Integer32(100));
        for (int id = 1; id <= 30; id++) {
            agent.vlan(id, "v" + id, new byte[] {(byte) 0x80}, new byte[0], QBridge.ROW_ACTIVE);
        }

        QBridgeReader.Snapshot read = QBridgeReader.read(agent, 2);

        assertThat(read.state().vlans()).hasSize(30);
        assertThat(read.state().pvids()).hasSize(100);
        assertThat(read.portCount()).isEqualTo(100);
    }

    @Test
    void paddingBitsPastTheLastPortAreIgnored() throws Exception {
        TableAgent agent = new TableAgent().vlan(1, "default", new byte[] {(byte) 0xff, (byte) 0xff},
                new byte[] {0x00, 0x00}, QBridge.ROW_ACTIVE).pvids(10, 1);
        agent.instances.put(QBridge.DOT1D_BASE_NUM_PORTS, new Integer32(10));

        assertThat(read(agent).vlans().get(1).tagged()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    }

    @Test
    void aPortListThatIsNotAnOctetStringIsReportedAsNonsense() {
        TableAgent agent = new TableAgent().pvids(8, 1);
        agent.instances.put(QBridge.staticColumn(QBridge.COLUMN_EGRESS, 1), new Integer32(255));

        assertThatThrownBy(() -> read(agent)).isInstanceOf(DeviceException.class)
                .hasMessageContaining("odd-1").hasMessageContaining("dot1qVlanStaticEgressPorts.1")
                .hasMessageContaining("where an OCTET STRING belongs");
    }

    @Test
    void anAgentWithoutQBridgeIsToldApart() {
        assertThatThrownBy(() -> read(new TableAgent())).isInstanceOf(DeviceException.class)
                .hasMessageContaining("neither dot1dBaseNumPorts nor any dot1qPvid");
    }

    @Test
    void rowsThatAreNotActiveAreStillReadSoAnUndoCanDeleteThem() throws Exception {
        TableAgent agent = new TableAgent().vlan(1, "default", new byte[] {(byte) 0xff}, new byte[] {(byte) 0xff},
                QBridge.ROW_ACTIVE).vlan(5, "waiting", new byte[] {0}, new byte[] {0}, 2).pvids(8, 1);

        assertThat(read(agent).vlans()).containsKeys(1, 5);
    }
}
