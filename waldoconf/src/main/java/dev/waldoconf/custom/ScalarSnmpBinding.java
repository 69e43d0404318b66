package dev.waldoconf.custom;

import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.snmp.ScalarValue;
import dev.waldoconf.snmp.SnmpScalars;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.smi.OID;

/**
 * Mirrors variables annotated {@code @snmp(oid: '1.3.6.1.2.1.1.6.0')} (Text or Number) onto
 * scalar objects of one SNMP agent inside two-phase commit (DESIGN.md "Bound state").
 *
 * <ul>
 *   <li><b>prepare</b>: for each changed variable, in the order the transaction touched them,
 *       read the object's old value, SET the new one and read it back ({@link SnmpScalars#set}).
 *       A refusal, a timeout, a wrong read-back, or a value the object cannot hold votes no; the
 *       reason names the agent, the variable, the OID and the agent's error status.</li>
 *   <li><b>abort</b>: SET the old values back, in reverse order, each verified by reading back.</li>
 *   <li><b>commit</b>: the values are already on the agent; forget the undo list.</li>
 * </ul>
 * The old value restored on abort is what the agent held, not what the Waldo variable held: a
 * change made behind the service's back is put back as it was. The runtime calls a binding on
 * one thread per host, in transaction order, so this class keeps no locks.
 */
public final class ScalarSnmpBinding implements Binding {
    private static final Logger LOG = LoggerFactory.getLogger(ScalarSnmpBinding.class);

    private final String agentName;
    private final SnmpScalars agent;
    private final Map<String, Deque<Applied>> undo = new HashMap<>();

    /** One SET that prepare made, and the value to put back. */
    private record Applied(OID oid, ScalarValue old) {
    }

    /**
     * A binding onto {@code agent}.
     *
     * @param agentName the switch's inventory name, for messages (the agent's own messages carry it too)
     */
    public ScalarSnmpBinding(String agentName, SnmpScalars agent) {
        this.agentName = agentName;
        this.agent = agent;
    }

    @Override
    public Vote prepare(BoundTransaction transaction) {
        Deque<Applied> applied = new ArrayDeque<>();
        undo.put(transaction.id(), applied);
        for (BoundTransaction.Change change : transaction.changes()) {
            String oid = String.valueOf(change.annotation().arguments().get(CustomProgram.OID_KEY));
            String where = "variable '" + change.variable() + "' @snmp(oid: '" + oid + "')";
            ScalarValue value;
            try {
                value = toScalar(change.after());
            } catch (IllegalArgumentException e) {
                return Vote.no(agentName + ": " + where + ": " + e.getMessage());
            }
            try {
                applied.push(new Applied(new OID(oid), agent.set(new OID(oid), value)));
            } catch (DeviceException e) {
                LOG.warn("{}: voting no: {}", agentName, e.getMessage());
                return Vote.no(where + ": " + e.getMessage());
            }
        }
        return Vote.yes();
    }

    /**
     * The SNMP value of a Waldo Text or Number.
     *
     * @throws IllegalArgumentException for a number that is not a whole Integer32, or another type
     */
    static ScalarValue toScalar(Object value) {
        if (value instanceof String text) {
            return new ScalarValue.Text(text);
        }
        if (value instanceof Double number) {
            if (number != Math.rint(number) || number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(number + " is not a whole number in Integer32's range"
                        + " (-2147483648 to 2147483647)");
            }
            return new ScalarValue.Number(number.intValue());
        }
        throw new IllegalArgumentException("a " + (value == null ? "missing value" : value.getClass().getSimpleName())
                + " cannot be an SNMP scalar; use Text or Number");
    }

    @Override
    public void commit(BoundTransaction transaction) {
        undo.remove(transaction.id());
    }

    @Override
    public void abort(BoundTransaction transaction) {
        Deque<Applied> applied = undo.remove(transaction.id());
        if (applied == null) {
            return;
        }
        // Newest first: each object gets back the value it held before this transaction.
        while (!applied.isEmpty()) {
            Applied set = applied.pop();
            try {
                agent.restore(set.oid(), set.old());
            } catch (DeviceException e) {
                // The agent keeps part of a change that did not commit; say so loudly, then
                // still try to restore the other objects.
                LOG.error("{}: could not undo a backed-out change: {}", agentName, e.getMessage());
            }
        }
    }
}
