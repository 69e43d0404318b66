package dev.waldoconf.snmp;

import dev.waldoconf.device.DeviceException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

/**
 * Single scalar objects of an agent, read and written one at a time: what a Waldo variable
 * bound with {@code @snmp(oid: '1.3.6.1.2.1.1.6.0')} needs. {@link #set} reads the old value,
 * sets the new one and reads it back, and returns the old value; {@link #restore} puts an old
 * value back, which is the undo. OIDs are instance OIDs, with the trailing {@code .0}.
 * Thread-safe: operations run one at a time.
 *
 * <pre>
 * try (SnmpScalars agent = SnmpScalars.open("edge-3", target)) {
 *     ScalarValue old = agent.set(SnmpScalars.SYS_LOCATION, new ScalarValue.Text("rack 4"));
 *     ...
 *     agent.restore(SnmpScalars.SYS_LOCATION, old);   // on abort
 * }
 * </pre>
 */
public final class SnmpScalars implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SnmpScalars.class);
    /** sysContact.0 (SNMPv2-MIB). */
    public static final OID SYS_CONTACT = new OID("1.3.6.1.2.1.1.4.0");
    /** sysName.0 (SNMPv2-MIB). */
    public static final OID SYS_NAME = new OID("1.3.6.1.2.1.1.5.0");
    /** sysLocation.0 (SNMPv2-MIB). */
    public static final OID SYS_LOCATION = new OID("1.3.6.1.2.1.1.6.0");
    private static final Map<OID, String> NAMES = Map.of(SYS_CONTACT, "sysContact.0", SYS_NAME, "sysName.0",
            SYS_LOCATION, "sysLocation.0");

    private final String name;
    private final SnmpSession session;

    /**
     * Scalars of the agent behind {@code session}.
     *
     * @param name the device's inventory name, used in every message
     */
    public SnmpScalars(String name, SnmpSession session) {
        this.name = Objects.requireNonNull(name, "name");
        this.session = Objects.requireNonNull(session, "session");
    }

    /**
     * Opens a UDP session to {@code target}.
     *
     * @throws DeviceException if no local socket can be opened
     */
    public static SnmpScalars open(String name, SnmpTarget target) throws DeviceException {
        try {
            return new SnmpScalars(name, Snmp4jSession.open(target));
        } catch (IOException e) {
            throw new DeviceException(name + ": " + e.getMessage(), true, e);
        }
    }

    /**
     * Reads one scalar.
     *
     * @throws DeviceException if the agent does not answer, lacks the object, or holds a type
     *     that is neither text nor Integer32
     */
    public synchronized ScalarValue get(OID oid) throws DeviceException {
        SnmpResponse response;
        try {
            response = session.get(List.of(oid));
        } catch (IOException e) {
            throw new DeviceException(name + ": cannot read " + describe(oid) + ": " + e.getMessage(), true, e);
        }
        if (!response.isOk() || response.bindings().size() != 1) {
            throw new DeviceException(name + ": reading " + describe(oid) + " failed: " + response.errorName(), true);
        }
        VariableBinding vb = response.bindings().get(0);
        if (vb.isException()) {
            throw new DeviceException(name + ": the agent has no " + describe(oid) + " (" + vb.getVariable()
                    + "); check the OID, including the trailing .0 of a scalar", true);
        }
        ScalarValue value = ScalarValue.of(vb.getVariable());
        if (value == null) {
            throw new DeviceException(name + ": " + describe(oid) + " is " + vb.getVariable().getSyntaxString()
                    + "; @snmp bindings support OCTET STRING (Text) and Integer32 (Number)", true);
        }
        return value;
    }

    /**
     * Sets one scalar and verifies it by reading back.
     *
     * @return the value it held before, to give to {@link #restore} for undo
     * @throws DeviceException if the value's type differs from the object's, the agent refuses
     *     or does not answer, or the read-back differs; {@code undone} says whether the object
     *     is known to hold its old value
     */
    public synchronized ScalarValue set(OID oid, ScalarValue value) throws DeviceException {
        ScalarValue old = get(oid);
        if (old.getClass() != value.getClass()) {
            throw new DeviceException(name + ": " + describe(oid) + " holds " + kind(old) + ", so it cannot be set to "
                    + kind(value) + " " + value, true);
        }
        String problem = write(oid, value);
        if (problem == null) {
            problem = readBackProblem(oid, value);
        }
        if (problem == null) {
            LOG.debug("{}: {} set to {}", name, describe(oid), value);
            return old;
        }
        boolean undone = readBackProblem(oid, old) == null || putBack(oid, old) == null;
        throw new DeviceException(name + ": setting " + describe(oid) + " to " + value + " failed: " + problem
                + (undone ? ". It holds its old value " + old + "." : ". It may not hold its old value " + old
                        + "; set it again once the agent answers."), undone);
    }

    /**
     * Puts an old value back (the undo of {@link #set}), verified by reading back.
     *
     * @throws DeviceException if that fails; {@code undone} is false
     */
    public synchronized void restore(OID oid, ScalarValue old) throws DeviceException {
        String problem = putBack(oid, old);
        if (problem != null) {
            throw new DeviceException(name + ": restoring " + describe(oid) + " to " + old + " failed: " + problem,
                    false);
        }
    }

    /**
     * SETs an old value and reads it back. Only the read-back decides: a lost answer may hide a
     * SET that did apply.
     *
     * @return null when the object holds {@code old}, else why not
     */
    private String putBack(OID oid, ScalarValue old) {
        String writeProblem = write(oid, old);
        String readProblem = readBackProblem(oid, old);
        if (readProblem == null) {
            return null;
        }
        return writeProblem == null ? readProblem : writeProblem + "; " + readProblem;
    }

    /** SETs the value; returns null on noError, else what went wrong. */
    private String write(OID oid, ScalarValue value) {
        try {
            SnmpResponse response = session.set(List.of(new VariableBinding(oid, value.toVariable())));
            return response.isOk() ? null : "the agent answered " + response.errorName();
        } catch (IOException e) {
            return (e instanceof SnmpTimeoutException ? "timeout: " : "") + e.getMessage();
        }
    }

    /** Reads the object back; returns null if it holds {@code expected}, else what it holds or why it cannot tell. */
    private String readBackProblem(OID oid, ScalarValue expected) {
        try {
            ScalarValue now = get(oid);
            return now.equals(expected) ? null : "read back " + now + " instead";
        } catch (DeviceException e) {
            return "read-back failed (" + e.getMessage() + ")";
        }
    }

    private static String kind(ScalarValue value) {
        return value instanceof ScalarValue.Text ? "Text" : "a Number";
    }

    private static String describe(OID oid) {
        return NAMES.getOrDefault(oid, oid.toDottedString());
    }

    /** Closes the SNMP session. */
    @Override
    public void close() {
        session.close();
    }
}
