package dev.waldoconf.snmp;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.model.VlanChange;
import dev.waldoconf.model.VlanDiff;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UnsignedInteger32;
import org.snmp4j.smi.VariableBinding;

/**
 * Turns the steps of one phase into SET units for dot1qVlanStaticTable and dot1qPvid.
 *
 * <p>Q-BRIDGE-MIB has no "add port" operation: egress and untagged ports are whole PortLists
 * per VLAN. So every VLAN whose membership changes in the phase gets one unit that sets both of
 * its lists to their value after the phase. Inside a phase, units go in the order agents need:
 * row creation, activation (createAndWait only), renames, memberships, PVIDs, deletions.
 */
final class SetPlanner {
    private SetPlanner() {
    }

    /**
     * The units that carry out {@code steps}, starting from {@code before}, in batches: units of
     * one batch may share PDUs, a later batch starts a new PDU. With createAndWait, activation
     * must not share a PDU with creation, as one PDU may not set the same RowStatus twice.
     *
     * @param portCount the switch's port count, which fixes the PortList length
     */
    static List<List<SetUnit>> plan(List<VlanChange> steps, SwitchState before, int portCount, RowCreation creation) {
        SwitchState after = VlanDiff.apply(before, steps);
        List<SetUnit> creates = new ArrayList<>();
        List<SetUnit> activations = new ArrayList<>();
        List<SetUnit> renames = new ArrayList<>();
        Map<Integer, List<String>> membershipSteps = new TreeMap<>();
        List<SetUnit> pvids = new ArrayList<>();
        List<SetUnit> deletes = new ArrayList<>();
        for (VlanChange step : steps) {
            switch (step) {
                case VlanChange.CreateVlan c -> {
                    creates.add(new SetUnit(
                            List.of(rowStatus(c.vlan(), creation.rowStatus()), name(c.vlan(), c.name())),
                            step.describe()));
                    if (creation == RowCreation.CREATE_AND_WAIT) {
                        activations.add(new SetUnit(List.of(rowStatus(c.vlan(), QBridge.ROW_ACTIVE)),
                                "activate VLAN " + c.vlan()));
                    }
                }
                case VlanChange.RenameVlan c -> renames.add(new SetUnit(List.of(name(c.vlan(), c.to())),
                        step.describe()));
                case VlanChange.AddPorts c -> membershipSteps.computeIfAbsent(c.vlan(), v -> new ArrayList<>())
                        .add(step.describe());
                case VlanChange.RemovePorts c -> membershipSteps.computeIfAbsent(c.vlan(), v -> new ArrayList<>())
                        .add(step.describe());
                case VlanChange.SetPvid c -> pvids.add(new SetUnit(List.of(pvid(c.port(), c.to())), step.describe()));
                case VlanChange.DeleteVlan c -> deletes.add(
                        new SetUnit(List.of(rowStatus(c.vlan(), QBridge.ROW_DESTROY)), step.describe()));
            }
        }
        List<SetUnit> units = new ArrayList<>(activations);
        units.addAll(renames);
        membershipSteps.forEach((vlan, described) ->
                units.add(membership(after.vlans().get(vlan), portCount, String.join("; ", described))));
        units.addAll(pvids);
        units.addAll(deletes);
        if (creation == RowCreation.CREATE_AND_WAIT && !creates.isEmpty()) {
            return units.isEmpty() ? List.of(creates) : List.of(creates, units);
        }
        List<SetUnit> all = new ArrayList<>(creates);
        all.addAll(units);
        return all.isEmpty() ? List.of() : List.of(all);
    }

    /**
     * Packs units into PDUs of at most {@code maxVarbinds} bindings, keeping their order. A unit
     * larger than the limit travels alone rather than being torn apart.
     */
    static List<List<SetUnit>> pack(List<SetUnit> units, int maxVarbinds) {
        List<List<SetUnit>> pdus = new ArrayList<>();
        List<SetUnit> current = new ArrayList<>();
        int size = 0;
        for (SetUnit unit : units) {
            int unitSize = unit.bindings().size();
            if (!current.isEmpty() && size + unitSize > maxVarbinds) {
                pdus.add(current);
                current = new ArrayList<>();
                size = 0;
            }
            current.add(unit);
            size += unitSize;
        }
        if (!current.isEmpty()) {
            pdus.add(current);
        }
        return pdus;
    }

    private static SetUnit membership(Vlan vlan, int portCount, String step) {
        return new SetUnit(List.of(
                new VariableBinding(QBridge.staticColumn(QBridge.COLUMN_EGRESS, vlan.id()),
                        new OctetString(PortList.encode(vlan.egress(), portCount))),
                new VariableBinding(QBridge.staticColumn(QBridge.COLUMN_UNTAGGED, vlan.id()),
                        new OctetString(PortList.encode(vlan.untagged(), portCount)))), step);
    }

    private static VariableBinding rowStatus(int vlan, int value) {
        return new VariableBinding(QBridge.staticColumn(QBridge.COLUMN_ROW_STATUS, vlan), new Integer32(value));
    }

    private static VariableBinding name(int vlan, String name) {
        return new VariableBinding(QBridge.staticColumn(QBridge.COLUMN_NAME, vlan),
                new OctetString(name.getBytes(StandardCharsets.UTF_8)));
    }

    /** dot1qPvid is a VlanIndex (Unsigned32), so it is sent as Gauge32/Unsigned32, not INTEGER. */
    private static VariableBinding pvid(int port, int vlan) {
        return new VariableBinding(QBridge.pvid(port), new UnsignedInteger32(vlan));
    }
}
