package dev.waldoconf.snmp;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.SMIConstants;
import org.snmp4j.smi.Variable;

/**
 * The value of a scalar MIB object as a Waldo variable bound with {@code @snmp(oid: ...)} holds
 * it: Waldo {@code Text} travels as an OCTET STRING (UTF-8), {@code Number} as an Integer32.
 */
public sealed interface ScalarValue {
    /** The SNMP value to SET. */
    Variable toVariable();

    /** A text value, e.g. sysLocation. */
    record Text(String value) implements ScalarValue {
        /** Checks the value is present. */
        public Text {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public Variable toVariable() {
            return new OctetString(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return "'" + value + "'";
        }
    }

    /** A whole-number value, sent as Integer32. */
    record Number(int value) implements ScalarValue {
        @Override
        public Variable toVariable() {
            return new Integer32(value);
        }

        @Override
        public String toString() {
            return Integer.toString(value);
        }
    }

    /**
     * The value an agent returned, or null when its type has no Waldo counterpart (OIDs,
     * addresses, counters beyond Integer32).
     */
    static ScalarValue of(Variable value) {
        return switch (value.getSyntax()) {
            case SMIConstants.SYNTAX_OCTET_STRING ->
                    new Text(new String(((OctetString) value).getValue(), StandardCharsets.UTF_8));
            case SMIConstants.SYNTAX_INTEGER32 -> new Number(value.toInt());
            default -> null;
        };
    }
}
