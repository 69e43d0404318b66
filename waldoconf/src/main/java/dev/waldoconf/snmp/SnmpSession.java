package dev.waldoconf.snmp;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

/**
 * A conversation with one SNMP agent: GET, SET and GETBULK, one request at a time. The drivers
 * talk to agents only through this interface, so tests can watch or disturb the requests.
 * {@link Snmp4jSession} is the real one.
 */
public interface SnmpSession extends AutoCloseable {
    /** The most instances {@link #walk} collects before it gives up on an endless table. */
    int MAX_WALK_INSTANCES = 200_000;
    /** How many instances one GETBULK asks for during a walk. */
    int WALK_REPETITIONS = 40;

    /** Which agent this talks to, without secrets, for messages. */
    String agent();

    /**
     * GETs the given instances in one request.
     *
     * @throws SnmpTimeoutException if the agent does not answer in time
     * @throws IOException if the request cannot be sent or the agent rejects the security parameters
     */
    SnmpResponse get(List<OID> oids) throws IOException;

    /**
     * SETs the given bindings in one request, which the agent applies all or nothing.
     *
     * @throws SnmpTimeoutException if the agent does not answer in time; the SET may or may not
     *     have been applied
     * @throws IOException if the request cannot be sent (for example, too big to encode)
     */
    SnmpResponse set(List<VariableBinding> bindings) throws IOException;

    /**
     * One GETBULK: up to {@code maxRepetitions} instances after {@code after}.
     *
     * @throws SnmpTimeoutException if the agent does not answer in time
     */
    SnmpResponse getBulk(OID after, int maxRepetitions) throws IOException;

    /**
     * Every instance under {@code root}, in OID order.
     *
     * @throws IOException if a request fails, the agent answers an error, or the agent's OIDs
     *     do not increase (a broken agent would otherwise make the walk endless)
     */
    default List<VariableBinding> walk(OID root) throws IOException {
        List<VariableBinding> result = new ArrayList<>();
        OID cursor = root;
        while (result.size() < MAX_WALK_INSTANCES) {
            SnmpResponse response = getBulk(cursor, WALK_REPETITIONS);
            if (!response.isOk()) {
                throw new IOException(agent() + " answered " + response.errorName() + " while walking " + root);
            }
            if (response.bindings().isEmpty()) {
                return result;
            }
            for (VariableBinding vb : response.bindings()) {
                if (vb.isException() || !vb.getOid().startsWith(root)) {
                    return result;
                }
                if (vb.getOid().compareTo(cursor) <= 0) {
                    throw new IOException(agent() + " returned " + vb.getOid() + " after " + cursor
                            + " while walking " + root + "; its OIDs do not increase");
                }
                result.add(vb);
                cursor = vb.getOid();
            }
        }
        throw new IOException(agent() + " has more than " + MAX_WALK_INSTANCES + " instances under " + root);
    }

    /** Releases the session's socket. */
    @Override
    void close();
}
