package dev.waldoconf.snmp;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

/**
 * A session that records the SETs it passes on and can answer some itself, to play an agent
 * with limits the lab does not have (a small tooBig threshold, no createAndGo).
 */
final class WatchedSession implements SnmpSession {
    private final SnmpSession real;
    private final Interceptor interceptor;
    /** Bindings of every SET that reached the real agent, in order. */
    final List<List<VariableBinding>> forwardedSets = new ArrayList<>();
    /** Bindings of every SET answered by the interceptor. */
    final List<List<VariableBinding>> interceptedSets = new ArrayList<>();
    /** How many GET and GETBULK requests reached the agent. */
    int gets;
    int bulks;
    /** The max-repetitions of each GETBULK, in order. */
    final List<Integer> bulkRepetitions = new ArrayList<>();

    /** Decides about each SET: answer it (or throw) instead of the agent, or return null to pass it on. */
    @FunctionalInterface
    interface Interceptor {
        SnmpResponse answer(List<VariableBinding> bindings) throws IOException;
    }

    WatchedSession(SnmpSession real, Interceptor interceptor) {
        this.real = real;
        this.interceptor = interceptor;
    }

    /** A session that passes everything on and only records. */
    static WatchedSession recording(SnmpSession real) {
        return new WatchedSession(real, bindings -> null);
    }

    /** A session whose agent answers tooBig to any SET with more than {@code max} bindings. */
    static WatchedSession tooBigAbove(SnmpSession real, int max) {
        return new WatchedSession(real, bindings -> bindings.size() > max
                ? new SnmpResponse(SnmpResponse.TOO_BIG, 0, List.of()) : null);
    }

    /** A session whose SNMP library refuses to encode SETs with more than {@code max} bindings. */
    static WatchedSession unsendableAbove(SnmpSession real, int max) {
        return new WatchedSession(real, bindings -> {
            if (bindings.size() > max) {
                throw new org.snmp4j.MessageException("message of " + bindings.size() + " bindings is too big");
            }
            return null;
        });
    }

    @Override
    public String agent() {
        return real.agent();
    }

    @Override
    public SnmpResponse get(List<OID> oids) throws IOException {
        gets++;
        return real.get(oids);
    }

    @Override
    public SnmpResponse set(List<VariableBinding> bindings) throws IOException {
        SnmpResponse answer;
        try {
            answer = interceptor.answer(bindings);
        } catch (IOException e) {
            interceptedSets.add(List.copyOf(bindings));
            throw e;
        }
        if (answer != null) {
            interceptedSets.add(List.copyOf(bindings));
            return answer;
        }
        forwardedSets.add(List.copyOf(bindings));
        return real.set(bindings);
    }

    @Override
    public SnmpResponse getBulk(OID after, int maxRepetitions) throws IOException {
        bulks++;
        bulkRepetitions.add(maxRepetitions);
        return real.getBulk(after, maxRepetitions);
    }

    @Override
    public void close() {
        real.close();
    }
}
