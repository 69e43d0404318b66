package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.model.VlanChange;
import dev.waldoconf.model.VlanDiff;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.VariableBinding;

/** How steps become SET units and PDUs. */
class SetPlannerTest {
    private static final int PORTS = 8;

    private static TreeSet<Integer> ports(Integer... ports) {
        return new TreeSet<>(Set.of(ports));
    }

    private static List<VlanChange> phase(List<VlanChange> steps, VlanChange.Phase phase) {
        return steps.stream().filter(step -> step.phase() == phase).toList();
    }

    @Test
    void aMembershipChangeSetsBothWholeListsAndKeepsUntaggedWithinEgress() {
        SwitchState before = SwitchState.factoryDefault(PORTS).with(new Vlan(20, "voice", ports(7, 8), ports(5, 6)));
        SwitchState after = before.with(new Vlan(20, "voice", ports(7), ports(5)));
        List<VlanChange> prune = phase(VlanDiff.between(before, after), VlanChange.Phase.PRUNE);

        List<List<SetUnit>> batches = SetPlanner.plan(prune, before, PORTS, RowCreation.CREATE_AND_GO);

        assertThat(batches).hasSize(1);
        SetUnit unit = batches.get(0).get(0);
        assertThat(unit.step()).isEqualTo("remove ports 6,8 from VLAN 20");
        assertThat(unit.bindings()).extracting(VariableBinding::getOid)
                .containsExactly(QBridge.staticColumn(QBridge.COLUMN_EGRESS, 20),
                        QBridge.staticColumn(QBridge.COLUMN_UNTAGGED, 20));
        SortedSet<Integer> egress = PortList.decode(((OctetString) unit.bindings().get(0).getVariable()).getValue());
        SortedSet<Integer> untagged = PortList.decode(((OctetString) unit.bindings().get(1).getVariable()).getValue());
        assertThat(egress).containsExactly(5, 7);
        assertThat(untagged).containsExactly(5);
    }

    @Test
    void createAndWaitActivatesInALaterBatchThanItCreates() {
        SwitchState before = SwitchState.factoryDefault(PORTS);
        SwitchState after = before.with(new Vlan(30, "lab", ports(8), ports()));
        List<VlanChange> create = phase(VlanDiff.between(before, after), VlanChange.Phase.CREATE_AND_TAG);

        List<List<SetUnit>> batches = SetPlanner.plan(create, before, PORTS, RowCreation.CREATE_AND_WAIT);

        assertThat(batches).hasSize(2);
        assertThat(batches.get(0)).extracting(SetUnit::step).containsExactly("create VLAN 30 'lab'");
        assertThat(batches.get(0).get(0).bindings().get(0).getVariable().toInt()).isEqualTo(QBridge.ROW_CREATE_AND_WAIT);
        assertThat(batches.get(1)).extracting(SetUnit::step).containsExactly("activate VLAN 30",
                "add tagged port 8 to VLAN 30");
    }

    @Test
    void createAndGoCreatesNamesAndTagsInOneBatch() {
        SwitchState before = SwitchState.factoryDefault(PORTS);
        SwitchState after = before.with(new Vlan(30, "lab", ports(8), ports()));

        List<List<SetUnit>> batches = SetPlanner.plan(VlanDiff.between(before, after), before, PORTS,
                RowCreation.CREATE_AND_GO);

        assertThat(batches).hasSize(1);
        assertThat(batches.get(0).get(0).bindings()).extracting(vb -> vb.getOid().toDottedString())
                .containsExactly(QBridge.staticColumn(QBridge.COLUMN_ROW_STATUS, 30).toDottedString(),
                        QBridge.staticColumn(QBridge.COLUMN_NAME, 30).toDottedString());
    }

    @Test
    void packingKeepsOrderAndNeverTearsAUnit() {
        SetUnit one = new SetUnit(List.of(new VariableBinding(QBridge.pvid(1))), "a");
        SetUnit two = new SetUnit(List.of(new VariableBinding(QBridge.pvid(2)), new VariableBinding(QBridge.pvid(3))),
                "b");

        assertThat(SetPlanner.pack(List.of(one, two, one, one, two), 3))
                .containsExactly(List.of(one, two), List.of(one, one), List.of(two));
        assertThat(SetPlanner.pack(List.of(two, two), 1)).containsExactly(List.of(two), List.of(two));
    }
}
