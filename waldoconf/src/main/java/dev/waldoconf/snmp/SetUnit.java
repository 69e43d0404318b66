package dev.waldoconf.snmp;

import java.util.List;
import org.snmp4j.smi.VariableBinding;

/**
 * Variable bindings that must travel in one SET PDU, with the step(s) they carry out. A VLAN's
 * egress and untagged lists form one unit because an agent checks untagged ⊆ egress after
 * every PDU: sent apart, a port leaving the VLAN would be untagged but not egress in between.
 *
 * @param bindings the bindings, in the order the agent should see them
 * @param step what the unit does, in the operator's words, e.g. "create VLAN 20 'voice'"
 */
record SetUnit(List<VariableBinding> bindings, String step) {
    SetUnit {
        bindings = List.copyOf(bindings);
        if (bindings.isEmpty()) {
            throw new IllegalArgumentException("a SET unit needs at least one binding: " + step);
        }
    }
}
