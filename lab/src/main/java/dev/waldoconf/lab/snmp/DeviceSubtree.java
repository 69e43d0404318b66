package dev.waldoconf.lab.snmp;

import java.util.Map;
import java.util.function.Function;
import org.snmp4j.agent.MOScope;
import org.snmp4j.agent.mo.GenericManagedObject;
import org.snmp4j.agent.request.SubRequest;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * A managed object covering one whole subtree of the switch (system, interfaces or
 * dot1dBridge). It is a {@link GenericManagedObject} because SNMP4J-Agent 3.8 looks only those up. Reads come from the agent's {@link MibView}; SET phases go to the agent, which
 * judges the request as a whole.
 */
final class DeviceSubtree implements GenericManagedObject {
    private final OidSubtree subtree;
    private final MOScope scope;
    private final QBridgeAgent agent;

    DeviceSubtree(OidSubtree subtree, QBridgeAgent agent) {
        this.subtree = subtree;
        this.scope = subtree.scope();
        this.agent = agent;
    }

    @Override
    public MOScope getScope() {
        return scope;
    }

    @Override
    public OID find(MOScope range) {
        Map.Entry<OID, Variable> entry = agent.view().next(range.getLowerBound(), range.isLowerIncluded(),
                upperBound(range));
        return entry == null ? null : entry.getKey();
    }

    @Override
    public void get(SubRequest<?> sreq) {
        VariableBinding vb = sreq.getVariableBinding();
        Variable value = vb.getOid().startsWith(subtree.root()) ? agent.view().get(vb.getOid()) : null;
        if (value == null) {
            value = MibView.isKnownObjectType(vb.getOid()) ? Null.noSuchInstance : Null.noSuchObject;
        }
        vb.setVariable(value);
        sreq.completed();
    }

    @Override
    public boolean next(SubRequest<?> sreq) {
        return next(sreq, oid -> true);
    }

    @Override
    public boolean next(SubRequest<?> sreq, Function<OID, Boolean> filter) {
        MOScope range = sreq.getScope();
        OID upper = upperBound(range);
        Map.Entry<OID, Variable> entry = agent.view().next(range.getLowerBound(), range.isLowerIncluded(), upper);
        while (entry != null && !filter.apply(entry.getKey())) {
            entry = agent.view().next(entry.getKey(), false, upper);
        }
        if (entry == null) {
            return false;
        }
        sreq.getVariableBinding().setOid(entry.getKey());
        sreq.getVariableBinding().setVariable(entry.getValue());
        sreq.completed();
        return true;
    }

    @Override
    public void prepare(SubRequest<?> sreq) {
        agent.prepare(sreq);
    }

    @Override
    public void commit(SubRequest<?> sreq) {
        agent.commit(sreq);
    }

    @Override
    public void undo(SubRequest<?> sreq) {
        agent.undo(sreq);
    }

    @Override
    public void cleanup(SubRequest<?> sreq) {
        sreq.getStatus().setPhaseComplete(true);
    }

    /** The lower of the range's upper bound and this subtree's end; reads never leave the subtree. */
    private OID upperBound(MOScope range) {
        OID mine = scope.getUpperBound();
        OID theirs = range.getUpperBound();
        if (theirs == null || theirs.compareTo(mine) > 0) {
            return mine;
        }
        return range.isUpperIncluded() ? theirs.successor() : theirs;
    }

    @Override
    public String toString() {
        return "DeviceSubtree[" + subtree.root() + "]";
    }
}
