package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.snmp4j.smi.Gauge32;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UnsignedInteger32;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * What counts as "the switch holds what the SET asked" when a resend is judged: by meaning
 * (RowStatus, port sets, numbers), for agents that answer in other types or lengths than the lab.
 */
class SetReadBackTest {
    /** An agent that answers GETs from a table, noSuchInstance for what it does not hold. */
    private static final class TableAgent implements SnmpSession {
        private final Map<OID, Variable> table = new TreeMap<>();

        @Override
        public String agent() {
            return "table agent";
        }

        @Override
        public SnmpResponse get(List<OID> oids) {
            return new SnmpResponse(0, 0, oids.stream()
                    .map(oid -> new VariableBinding(oid, table.getOrDefault(oid, Null.noSuchInstance))).toList());
        }

        @Override
        public SnmpResponse set(List<VariableBinding> bindings) throws IOException {
            throw new IOException("read-only");
        }

        @Override
        public SnmpResponse getBulk(OID after, int maxRepetitions) throws IOException {
            throw new IOException("not used");
        }

        @Override
        public void close() {
        }
    }

    private final TableAgent agent = new TableAgent();

    private static VariableBinding rowStatus(int vlan, int value) {
        return new VariableBinding(QBridge.staticColumn(QBridge.COLUMN_ROW_STATUS, vlan), new Integer32(value));
    }

    private static OctetString ports(int octets, Integer... members) {
        return new OctetString(PortList.encode(new TreeSet<>(Set.of(members)), octets * 8));
    }

    @Test
    void aRowCreatedWithCreateAndGoHoldsWhenItReadsActive() throws IOException {
        agent.table.put(QBridge.staticColumn(QBridge.COLUMN_ROW_STATUS, 10), new Integer32(QBridge.ROW_ACTIVE));

        assertThat(SetReadBack.differences(agent, List.of(rowStatus(10, QBridge.ROW_CREATE_AND_GO)))).isNull();
        assertThat(SetReadBack.differences(agent, List.of(rowStatus(10, QBridge.ROW_CREATE_AND_WAIT))))
                .isEqualTo("dot1qVlanStaticRowStatus.10 is 1 where createAndWait was asked");
    }

    @Test
    void aDestroyedRowHoldsOnlyWhenAbsent() throws IOException {
        assertThat(SetReadBack.differences(agent, List.of(rowStatus(30, QBridge.ROW_DESTROY)))).isNull();

        agent.table.put(QBridge.staticColumn(QBridge.COLUMN_ROW_STATUS, 30), new Integer32(QBridge.ROW_ACTIVE));
        assertThat(SetReadBack.differences(agent, List.of(rowStatus(30, QBridge.ROW_DESTROY))))
                .isEqualTo("dot1qVlanStaticRowStatus.30 is 1 where destroy was asked");
    }

    @Test
    void portListsCompareAsPortSetsWhateverTheirLength() throws IOException {
        OID egress = QBridge.staticColumn(QBridge.COLUMN_EGRESS, 20);
        agent.table.put(egress, ports(4, 1, 24));  // padded to 32 ports by the agent

        assertThat(SetReadBack.differences(agent, List.of(new VariableBinding(egress, ports(3, 1, 24))))).isNull();
        assertThat(SetReadBack.differences(agent, List.of(new VariableBinding(egress, ports(3, 1, 23)))))
                .isEqualTo("dot1qVlanStaticEgressPorts.20 is ports [1, 24] where ports [1, 23] was asked");
    }

    @Test
    void aPvidReadAsGauge32HoldsTheUnsigned32ThatWasSet() throws IOException {
        agent.table.put(QBridge.pvid(5), new Gauge32(10));

        assertThat(SetReadBack.differences(agent, List.of(new VariableBinding(QBridge.pvid(5),
                new UnsignedInteger32(10))))).isNull();
        assertThat(SetReadBack.differences(agent, List.of(new VariableBinding(QBridge.pvid(6),
                new UnsignedInteger32(10))))).isEqualTo("dot1qPvid.6 is absent where 10 was asked");
    }

    @Test
    void everyDifferenceIsListed() throws IOException {
        OID name = QBridge.staticColumn(QBridge.COLUMN_NAME, 20);
        agent.table.put(name, new OctetString("old"));

        assertThat(SetReadBack.differences(agent, List.of(rowStatus(20, QBridge.ROW_CREATE_AND_GO),
                new VariableBinding(name, new OctetString("voice")))))
                .isEqualTo("dot1qVlanStaticRowStatus.20 is absent where createAndGo was asked; "
                        + "dot1qVlanStaticName.20 is 'old' where 'voice' was asked");
    }
}
