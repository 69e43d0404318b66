package dev.waldoconf.lab.snmp;

import static dev.waldoconf.lab.snmp.Oids.child;
import static dev.waldoconf.lab.snmp.Oids.scalar;

import dev.waldoconf.lab.model.PortSet;
import dev.waldoconf.lab.model.SwitchSpec;
import dev.waldoconf.lab.model.SwitchState;
import dev.waldoconf.lab.model.VlanRow;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.snmp4j.smi.Counter32;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.TimeTicks;
import org.snmp4j.smi.UnsignedInteger32;
import org.snmp4j.smi.Variable;

/**
 * Every object instance of one switch state, in lexicographic OID order, as GET, GETNEXT and
 * GETBULK see it. Built once per committed state by the switch's {@link Renderer}; sysUpTime is the
 * only value computed per read.
 */
public final class MibView {
    /** The object types the switch implements, so a GET can tell noSuchInstance from noSuchObject. */
    private static final List<OID> OBJECT_TYPES = List.of(
            Oids.SYS_DESCR, Oids.SYS_OBJECT_ID, Oids.SYS_UP_TIME, Oids.SYS_CONTACT, Oids.SYS_NAME,
            Oids.SYS_LOCATION, Oids.SYS_SERVICES, Oids.IF_NUMBER, Oids.IF_INDEX, Oids.IF_DESCR, Oids.IF_TYPE,
            Oids.IF_OPER_STATUS, Oids.DOT1D_BASE_BRIDGE_ADDRESS, Oids.DOT1D_BASE_NUM_PORTS, Oids.DOT1D_BASE_TYPE,
            Oids.DOT1D_BASE_PORT, Oids.DOT1D_BASE_PORT_IF_INDEX, Oids.DOT1Q_VLAN_VERSION_NUMBER,
            Oids.DOT1Q_MAX_VLAN_ID, Oids.DOT1Q_MAX_SUPPORTED_VLANS, Oids.DOT1Q_NUM_VLANS, Oids.DOT1Q_GVRP_STATUS,
            Oids.DOT1Q_VLAN_NUM_DELETES, Oids.DOT1Q_VLAN_FDB_ID, Oids.DOT1Q_VLAN_CURRENT_EGRESS_PORTS,
            Oids.DOT1Q_VLAN_CURRENT_UNTAGGED_PORTS, Oids.DOT1Q_VLAN_STATUS, Oids.DOT1Q_VLAN_CREATION_TIME,
            Oids.DOT1Q_VLAN_STATIC_NAME, Oids.DOT1Q_VLAN_STATIC_EGRESS_PORTS,
            Oids.DOT1Q_VLAN_FORBIDDEN_EGRESS_PORTS, Oids.DOT1Q_VLAN_STATIC_UNTAGGED_PORTS,
            Oids.DOT1Q_VLAN_STATIC_ROW_STATUS, Oids.DOT1Q_PVID, Oids.DOT1Q_PORT_ACCEPTABLE_FRAME_TYPES,
            Oids.DOT1Q_PORT_INGRESS_FILTERING);

    private static final int IF_TYPE_ETHERNET_CSMACD = 6;
    private static final int IF_OPER_STATUS_UP = 1;
    private static final int DOT1D_BASE_TYPE_TRANSPARENT_ONLY = 2;
    private static final int DOT1Q_VERSION_1 = 1;
    private static final int GVRP_DISABLED = 2;
    private static final int VLAN_STATUS_PERMANENT = 2;
    private static final int ADMIT_ALL = 1;
    private static final int TRUTH_FALSE = 2;
    private static final int SYS_SERVICES_DATALINK = 2;

    private final NavigableMap<OID, Variable> instances;
    private final long bootNanos;

    private MibView(NavigableMap<OID, Variable> instances, long bootNanos) {
        this.instances = instances;
        this.bootNanos = bootNanos;
    }

    /**
     * Renders the views of one switch. The instances that do not depend on its state (the
     * interfaces, the bridge base, the ports' frame types and filtering: about two thirds of a
     * 24-port switch's) are built once and copied into each view, which a sorted copy does without
     * comparing OIDs; rebuilding them at every committed SET was 2-3 % of a 1,000-switch lab's CPU
     * during an apply.
     */
    public static final class Renderer {
        private final SwitchSpec spec;
        private final long bootNanos;
        private final TreeMap<OID, Variable> fixed = new TreeMap<>();

        /**
         * A renderer for the switch {@code spec} describes.
         *
         * @param bridgeAddress the six-octet dot1dBaseBridgeAddress
         * @param bootNanos {@link System#nanoTime()} at agent start, the zero of sysUpTime
         */
        public Renderer(SwitchSpec spec, byte[] bridgeAddress, long bootNanos) {
            this.spec = spec;
            this.bootNanos = bootNanos;
            addInterfaces(fixed, spec);
            addBridgeBase(fixed, spec, bridgeAddress);
            addPortSettings(fixed, spec);
        }

        /** The view of {@code state}. */
        public MibView render(SwitchState state) {
            TreeMap<OID, Variable> map = new TreeMap<>(fixed);
            addSystem(map, spec, state);
            addQBridge(map, spec, state);
            return new MibView(map, bootNanos);
        }
    }

    /** sysUpTime now, in hundredths of a second. */
    public long upTimeCs() {
        return (System.nanoTime() - bootNanos) / 10_000_000L;
    }

    /** The value of an instance, or null when the instance does not exist. */
    public Variable get(OID oid) {
        return resolve(oid, instances.get(oid));
    }

    /**
     * The first instance after {@code oid} (or at it, when {@code inclusive}) that is not beyond
     * {@code upperBound} (exclusive; null for no bound), or null.
     */
    public Map.Entry<OID, Variable> next(OID oid, boolean inclusive, OID upperBound) {
        Map.Entry<OID, Variable> entry = inclusive ? instances.ceilingEntry(oid) : instances.higherEntry(oid);
        if (entry == null || (upperBound != null && entry.getKey().compareTo(upperBound) >= 0)) {
            return null;
        }
        return Map.entry(entry.getKey(), resolve(entry.getKey(), entry.getValue()));
    }

    /** Whether the OID names an instance of an object type the switch implements. */
    public static boolean isKnownObjectType(OID oid) {
        return OBJECT_TYPES.stream().anyMatch(type -> oid.size() > type.size() && oid.startsWith(type));
    }

    private Variable resolve(OID oid, Variable stored) {
        if (stored != null && oid.equals(scalar(Oids.SYS_UP_TIME))) {
            return new TimeTicks(upTimeCs());
        }
        return stored;
    }

    private static void addSystem(Map<OID, Variable> map, SwitchSpec spec, SwitchState state) {
        map.put(scalar(Oids.SYS_DESCR), text("WaldoConf lab switch (simulated Q-BRIDGE, " + spec.portCount()
                + " ports, quirk profile " + spec.quirks().label() + ")"));
        map.put(scalar(Oids.SYS_OBJECT_ID), Oids.LAB_SWITCH_OBJECT_ID);
        map.put(scalar(Oids.SYS_UP_TIME), new TimeTicks(0));
        map.put(scalar(Oids.SYS_CONTACT), text(state.sysContact()));
        map.put(scalar(Oids.SYS_NAME), text(state.sysName()));
        map.put(scalar(Oids.SYS_LOCATION), text(state.sysLocation()));
        map.put(scalar(Oids.SYS_SERVICES), new Integer32(SYS_SERVICES_DATALINK));
    }

    private static void addInterfaces(Map<OID, Variable> map, SwitchSpec spec) {
        map.put(scalar(Oids.IF_NUMBER), new Integer32(spec.portCount()));
        for (int port = 1; port <= spec.portCount(); port++) {
            map.put(child(Oids.IF_INDEX, port), new Integer32(port));
            map.put(child(Oids.IF_DESCR, port), text("port " + port));
            map.put(child(Oids.IF_TYPE, port), new Integer32(IF_TYPE_ETHERNET_CSMACD));
            map.put(child(Oids.IF_OPER_STATUS, port), new Integer32(IF_OPER_STATUS_UP));
        }
    }

    private static void addBridgeBase(Map<OID, Variable> map, SwitchSpec spec, byte[] bridgeAddress) {
        map.put(scalar(Oids.DOT1D_BASE_BRIDGE_ADDRESS), new OctetString(bridgeAddress));
        map.put(scalar(Oids.DOT1D_BASE_NUM_PORTS), new Integer32(spec.portCount()));
        map.put(scalar(Oids.DOT1D_BASE_TYPE), new Integer32(DOT1D_BASE_TYPE_TRANSPARENT_ONLY));
        for (int port = 1; port <= spec.portCount(); port++) {
            map.put(child(Oids.DOT1D_BASE_PORT, port), new Integer32(port));
            map.put(child(Oids.DOT1D_BASE_PORT_IF_INDEX, port), new Integer32(port));
        }
    }

    private static void addQBridge(Map<OID, Variable> map, SwitchSpec spec, SwitchState state) {
        map.put(scalar(Oids.DOT1Q_VLAN_VERSION_NUMBER), new Integer32(DOT1Q_VERSION_1));
        map.put(scalar(Oids.DOT1Q_MAX_VLAN_ID), new Integer32(spec.maxVlanId()));
        map.put(scalar(Oids.DOT1Q_MAX_SUPPORTED_VLANS), new UnsignedInteger32(spec.maxVlanId()));
        map.put(scalar(Oids.DOT1Q_NUM_VLANS), new UnsignedInteger32(state.activeVlans().size()));
        map.put(scalar(Oids.DOT1Q_GVRP_STATUS), new Integer32(GVRP_DISABLED));
        map.put(scalar(Oids.DOT1Q_VLAN_NUM_DELETES), new Counter32(state.vlanNumDeletes()));
        int ports = spec.portCount();
        for (VlanRow row : state.activeVlans()) {
            int v = row.vlanId();
            map.put(child(Oids.DOT1Q_VLAN_FDB_ID, 0, v), new UnsignedInteger32(v));
            map.put(child(Oids.DOT1Q_VLAN_CURRENT_EGRESS_PORTS, 0, v), portList(row.egress(), ports));
            map.put(child(Oids.DOT1Q_VLAN_CURRENT_UNTAGGED_PORTS, 0, v), portList(row.untagged(), ports));
            map.put(child(Oids.DOT1Q_VLAN_STATUS, 0, v), new Integer32(VLAN_STATUS_PERMANENT));
            map.put(child(Oids.DOT1Q_VLAN_CREATION_TIME, 0, v), new TimeTicks(row.createdAtCs()));
        }
        for (VlanRow row : state.vlans().values()) {
            int v = row.vlanId();
            map.put(child(Oids.DOT1Q_VLAN_STATIC_NAME, v), text(row.name()));
            map.put(child(Oids.DOT1Q_VLAN_STATIC_EGRESS_PORTS, v), portList(row.egress(), ports));
            map.put(child(Oids.DOT1Q_VLAN_FORBIDDEN_EGRESS_PORTS, v), portList(row.forbidden(), ports));
            map.put(child(Oids.DOT1Q_VLAN_STATIC_UNTAGGED_PORTS, v), portList(row.untagged(), ports));
            map.put(child(Oids.DOT1Q_VLAN_STATIC_ROW_STATUS, v), new Integer32(row.status().code()));
        }
        for (int port = 1; port <= ports; port++) {
            map.put(child(Oids.DOT1Q_PVID, port), new UnsignedInteger32(state.pvid(port)));
        }
    }

    private static void addPortSettings(Map<OID, Variable> map, SwitchSpec spec) {
        for (int port = 1; port <= spec.portCount(); port++) {
            map.put(child(Oids.DOT1Q_PORT_ACCEPTABLE_FRAME_TYPES, port), new Integer32(ADMIT_ALL));
            map.put(child(Oids.DOT1Q_PORT_INGRESS_FILTERING, port), new Integer32(TRUTH_FALSE));
        }
    }

    private static OctetString text(String value) {
        return new OctetString(value.getBytes(StandardCharsets.UTF_8));
    }

    private static OctetString portList(PortSet ports, int portCount) {
        return new OctetString(ports.toPortList(portCount));
    }
}
