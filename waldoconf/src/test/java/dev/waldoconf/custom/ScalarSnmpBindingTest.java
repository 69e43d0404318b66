package dev.waldoconf.custom;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldoconf.snmp.SnmpResponse;
import dev.waldoconf.snmp.SnmpScalars;
import dev.waldoconf.snmp.SnmpSession;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/** The scalar binding's two-phase commit against an in-memory agent that can refuse objects. */
class ScalarSnmpBindingTest {
    private static final String LOCATION = "1.3.6.1.2.1.1.6.0";
    private static final String CONTACT = "1.3.6.1.2.1.1.4.0";
    private static final String COUNT = "1.3.6.1.4.1.32473.1.0";

    private final MemoryAgent agent = new MemoryAgent();
    private final ScalarSnmpBinding binding = new ScalarSnmpBinding("edge-1", new SnmpScalars("edge-1", agent));

    @Test
    void prepareSetsEachObjectAndCommitKeepsIt() {
        BoundTransaction txn = txn(change("location", LOCATION, "rack 4"), change("count", COUNT, 7.0));

        assertThat(binding.prepare(txn)).isEqualTo(Binding.Vote.yes());
        binding.commit(txn);

        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("rack 4"));
        assertThat(agent.values.get(new OID(COUNT))).isEqualTo(new Integer32(7));
    }

    @Test
    void aRefusalVotesNoNamingTheAgentTheOidAndTheErrorStatusAndAbortRestoresInReverseOrder() {
        agent.refused.add(new OID(CONTACT));
        BoundTransaction txn = txn(change("location", LOCATION, "rack 4"), change("count", COUNT, 7.0),
                change("contact", CONTACT, "noc"));

        Binding.Vote vote = binding.prepare(txn);
        binding.abort(txn);

        assertThat(vote.accepted()).isFalse();
        assertThat(vote.reason()).contains("edge-1", "'" + CONTACT + "'", "notWritable");
        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("old location"));
        assertThat(agent.values.get(new OID(COUNT))).isEqualTo(new Integer32(1));
        List<OID> restores = agent.sets.subList(2, agent.sets.size());
        assertThat(restores).containsExactly(new OID(COUNT), new OID(LOCATION));
    }

    @Test
    void aNumberThatIsNotAnInteger32VotesNoWithoutTouchingTheAgent() {
        Binding.Vote vote = binding.prepare(txn(change("count", COUNT, 2.5)));

        assertThat(vote.accepted()).isFalse();
        assertThat(vote.reason()).contains("edge-1", COUNT, "2.5", "Integer32");
        assertThat(agent.sets).isEmpty();
    }

    @Test
    void aValueOfTheWrongTypeVotesNo() {
        Binding.Vote vote = binding.prepare(txn(change("count", COUNT, "seven")));

        assertThat(vote.accepted()).isFalse();
        assertThat(vote.reason()).contains("edge-1", "Text");
        assertThat(agent.values.get(new OID(COUNT))).isEqualTo(new Integer32(1));
    }

    private static BoundTransaction.Change change(String variable, String oid, Object after) {
        return new BoundTransaction.Change(null, variable, new Annotation("snmp", Map.of("oid", oid)), null, after);
    }

    private static BoundTransaction txn(BoundTransaction.Change... changes) {
        return new BoundTransaction("t1", List.of(changes));
    }

    /** An agent in memory: GET and SET of scalars, notWritable for the refused ones. */
    private static final class MemoryAgent implements SnmpSession {
        final Map<OID, Variable> values = new HashMap<>(Map.of(new OID(LOCATION), new OctetString("old location"),
                new OID(CONTACT), new OctetString("old contact"), new OID(COUNT), new Integer32(1)));
        final Set<OID> refused = new HashSet<>();
        final List<OID> sets = new ArrayList<>();

        @Override
        public String agent() {
            return "memory";
        }

        @Override
        public SnmpResponse get(List<OID> oids) {
            return new SnmpResponse(0, 0, oids.stream().map(o -> new VariableBinding(o, values.get(o))).toList());
        }

        @Override
        public SnmpResponse set(List<VariableBinding> bindings) {
            VariableBinding vb = bindings.get(0);
            if (refused.contains(vb.getOid())) {
                return new SnmpResponse(17, 1, bindings);
            }
            sets.add(vb.getOid());
            values.put(vb.getOid(), vb.getVariable());
            return new SnmpResponse(0, 0, bindings);
        }

        @Override
        public SnmpResponse getBulk(OID after, int maxRepetitions) {
            throw new UnsupportedOperationException("scalars need no walks");
        }

        @Override
        public void close() {
        }
    }
}
