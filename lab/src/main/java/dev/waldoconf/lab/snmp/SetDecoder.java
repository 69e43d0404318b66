package dev.waldoconf.lab.snmp;

import dev.waldoconf.lab.model.Change;
import dev.waldoconf.lab.model.PortColumn;
import dev.waldoconf.lab.model.SnmpError;
import dev.waldoconf.lab.model.SwitchSpec;
import dev.waldoconf.lab.model.SystemField;
import java.nio.charset.StandardCharsets;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.SMIConstants;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * Turns the variable bindings of a SET into {@link Change}s, answering the errors that depend
 * only on the OID and the value's type: notWritable for objects that cannot be written, wrongType
 * for a value of the wrong ASN.1 type, noCreation for an index that names no possible instance.
 * Value ranges and consistency are judged later by {@link dev.waldoconf.lab.model.Bridge}.
 */
public final class SetDecoder {
    private final SwitchSpec spec;

    /** A decoder for a switch with this spec (the port count bounds PVID indexes). */
    public SetDecoder(SwitchSpec spec) {
        this.spec = spec;
    }

    /** A decoded variable binding: exactly one of {@code change} and {@code error} is set. */
    public record Decoded(Change change, SnmpError error, String reason) {
        static Decoded of(Change change) {
            return new Decoded(change, null, null);
        }

        static Decoded fail(SnmpError error, String reason) {
            return new Decoded(null, error, reason);
        }
    }

    /** Decodes one variable binding of a SET; every OID under the switch's subtrees gets an answer. */
    public Decoded decode(VariableBinding vb) {
        OID oid = vb.getOid();
        Variable value = vb.getVariable();
        for (SystemField field : SystemField.values()) {
            if (oid.equals(Oids.scalar(Oids.child(Oids.SYSTEM, field.subId())))) {
                return value.getSyntax() == SMIConstants.SYNTAX_OCTET_STRING
                        ? Decoded.of(new Change.SetSystem(field, text(value)))
                        : wrongType(field.mibName(), "OCTET STRING", value);
            }
        }
        if (oid.startsWith(Oids.DOT1Q_VLAN_STATIC_ENTRY) && oid.size() > Oids.DOT1Q_VLAN_STATIC_ENTRY.size()) {
            return decodeStaticColumn(oid, value);
        }
        if (oid.startsWith(Oids.DOT1Q_PVID) && oid.size() > Oids.DOT1Q_PVID.size()) {
            return decodePvid(oid, value);
        }
        return Decoded.fail(SnmpError.NOT_WRITABLE, oid + " is not a writable object of this switch");
    }

    private Decoded decodeStaticColumn(OID oid, Variable value) {
        int column = oid.get(Oids.DOT1Q_VLAN_STATIC_ENTRY.size());
        if (column < 1 || column > 5) {
            return Decoded.fail(SnmpError.NOT_WRITABLE, oid + " is not a column of dot1qVlanStaticTable");
        }
        int vlanId = singleIndex(oid, Oids.DOT1Q_VLAN_STATIC_ENTRY.size() + 1);
        if (column == Oids.DOT1Q_VLAN_STATIC_ROW_STATUS.last()) {
            return value.getSyntax() == SMIConstants.SYNTAX_INTEGER
                    ? Decoded.of(new Change.SetRowStatus(vlanId, value.toInt()))
                    : wrongType("dot1qVlanStaticRowStatus", "INTEGER (RowStatus)", value);
        }
        if (value.getSyntax() != SMIConstants.SYNTAX_OCTET_STRING) {
            return wrongType(column == 1 ? "dot1qVlanStaticName" : "PortList column " + column, "OCTET STRING", value);
        }
        if (column == Oids.DOT1Q_VLAN_STATIC_NAME.last()) {
            return Decoded.of(new Change.SetVlanName(vlanId, text(value)));
        }
        PortColumn portColumn = PortColumn.values()[column - 2];
        return Decoded.of(new Change.SetVlanPorts(vlanId, portColumn, ((OctetString) value).getValue()));
    }

    private Decoded decodePvid(OID oid, Variable value) {
        int port = singleIndex(oid, Oids.DOT1Q_PVID.size());
        if (value.getSyntax() != SMIConstants.SYNTAX_UNSIGNED_INTEGER32) {
            return wrongType("dot1qPvid", "Unsigned32/Gauge32 (VlanIndex)", value);
        }
        if (port < 1 || port > spec.portCount()) {
            return Decoded.fail(SnmpError.NO_CREATION, "port " + oid.get(Oids.DOT1Q_PVID.size())
                    + " does not exist (this switch has ports 1.." + spec.portCount() + ")");
        }
        long vlanId = value.toLong();
        return Decoded.of(new Change.SetPvid(port, vlanId > Integer.MAX_VALUE ? -1 : (int) vlanId));
    }

    /** The one index sub-identifier at {@code position}, or -1 when the index is not exactly one in-range value. */
    private static int singleIndex(OID oid, int position) {
        if (oid.size() != position + 1) {
            return -1;
        }
        long index = oid.getUnsigned(position);
        return index > Integer.MAX_VALUE ? -1 : (int) index;
    }

    private static Decoded wrongType(String object, String expected, Variable value) {
        return Decoded.fail(SnmpError.WRONG_TYPE, object + " takes " + expected + ", got " + value.getSyntaxString());
    }

    private static String text(Variable value) {
        return new String(((OctetString) value).getValue(), StandardCharsets.UTF_8);
    }
}
