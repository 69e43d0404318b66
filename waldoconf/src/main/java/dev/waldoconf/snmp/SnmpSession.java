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
    /** How many instances one GETBULK asks for during a walk whose size nobody guessed. */
    int WALK_REPETITIONS = 40;
    /** The most instances a walk's first GETBULK asks for, however big the guess. */
    int MAX_FIRST_REPETITIONS = 128;

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
        return walk(root, WALK_REPETITIONS);
    }

    /**
     * Every instance under {@code root}, in OID order, the first GETBULK asking for {@code
     * firstRepetitions} instances (at most {@link #MAX_FIRST_REPETITIONS}) and any further one
     * for {@link #WALK_REPETITIONS}. A caller that knows about how many instances there are asks
     * for one more than that, so that one request both reads the subtree and shows where it
     * ends: an agent computes and encodes every instance it is asked for, those past the subtree
     * too, and SNMP4J's agent does so at a cost that grows faster than the count.
     *
     * @throws IOException as {@link #walk(OID)}
     */
    default List<VariableBinding> walk(OID root, int firstRepetitions) throws IOException {
        List<VariableBinding> result = new ArrayList<>();
        OID cursor = root;
        int repetitions = Math.max(1, Math.min(firstRepetitions, MAX_FIRST_REPETITIONS));
        while (result.size() < MAX_WALK_INSTANCES) {
            SnmpResponse response = getBulk(cursor, repetitions);
            repetitions = WALK_REPETITIONS;
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
