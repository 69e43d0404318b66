package dev.waldoconf.lab;

import dev.waldoconf.lab.model.PortSet;
import dev.waldoconf.lab.snmp.Oids;
import org.snmp4j.smi.Gauge32;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.VariableBinding;

/** Short names for the variable bindings lab tests send. */
final class Q {
    static final int CREATE_AND_GO = 4;
    static final int CREATE_AND_WAIT = 5;
    static final int ACTIVE = 1;
    static final int DESTROY = 6;

    private Q() {
    }

    static OID rowStatusOid(int vlan) {
        return Oids.child(Oids.DOT1Q_VLAN_STATIC_ROW_STATUS, vlan);
    }

    static OID nameOid(int vlan) {
        return Oids.child(Oids.DOT1Q_VLAN_STATIC_NAME, vlan);
    }

    static OID egressOid(int vlan) {
        return Oids.child(Oids.DOT1Q_VLAN_STATIC_EGRESS_PORTS, vlan);
    }

    static OID untaggedOid(int vlan) {
        return Oids.child(Oids.DOT1Q_VLAN_STATIC_UNTAGGED_PORTS, vlan);
    }

    static OID forbiddenOid(int vlan) {
        return Oids.child(Oids.DOT1Q_VLAN_FORBIDDEN_EGRESS_PORTS, vlan);
    }

    static OID pvidOid(int port) {
        return Oids.child(Oids.DOT1Q_PVID, port);
    }

    static VariableBinding rowStatus(int vlan, int action) {
        return new VariableBinding(rowStatusOid(vlan), new Integer32(action));
    }

    static VariableBinding name(int vlan, String name) {
        return new VariableBinding(nameOid(vlan), new OctetString(name));
    }

    static VariableBinding egress(int vlan, int... ports) {
        return new VariableBinding(egressOid(vlan), new OctetString(PortSet.of(ports).toPortList(24)));
    }

    static VariableBinding untagged(int vlan, int... ports) {
        return new VariableBinding(untaggedOid(vlan), new OctetString(PortSet.of(ports).toPortList(24)));
    }

    static VariableBinding forbidden(int vlan, int... ports) {
        return new VariableBinding(forbiddenOid(vlan), new OctetString(PortSet.of(ports).toPortList(24)));
    }

    static VariableBinding pvid(int port, int vlan) {
        return new VariableBinding(pvidOid(port), new Gauge32(vlan));
    }
}
