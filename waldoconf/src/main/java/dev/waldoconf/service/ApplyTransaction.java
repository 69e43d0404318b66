package dev.waldoconf.service;

import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.WaldoObject;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.services.Snapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's side of one apply, as ONE Waldo transaction with a Java body: read every
 * switch through its service ({@code snapshot()}: the switch is read under the transaction's
 * lock on the service), resolve the change against those reads in Java, then stage the result
 * on every switch that changes. Until the transaction ends, no other WaldoConf transaction can
 * change those switches, so concurrent applies serialize and what a change does not manage
 * survives whatever happened before its read.
 *
 * <p>The body may run more than once (the runtime retries an attempt that an older transaction
 * wounded); each attempt reads and resolves afresh, and only the committed one counts.
 */
final class ApplyTransaction extends WaldoObject {
    private static final Logger LOG = LoggerFactory.getLogger(ApplyTransaction.class);
    /** The VlanSwitch functions this body calls, as the service declares them. */
    private static final String SNAPSHOT = "snapshot";
    private static final String STAGE = "stage";

    ApplyTransaction(Host host) {
        super(host, "WaldoConfApply");
    }

    /**
     * Runs the apply. Exceptions the resolution throws back the transaction out on every switch
     * and reach the caller unchanged.
     *
     * @return the names of the switches that were staged, in target order
     */
    List<String> run(String change, List<ChangeRunner.Target> targets, ChangeRunner.Resolution resolution,
            long deadlineEpochSeconds) {
        return transact("apply", ctx -> attempt(ctx, change, targets, resolution, deadlineEpochSeconds));
    }

    private static List<String> attempt(Ctx ctx, String change, List<ChangeRunner.Target> targets,
            ChangeRunner.Resolution resolution, long deadline) {
        long start = System.nanoTime();
        Map<String, SwitchState> current = new LinkedHashMap<>();
        Map<String, String> pending = new LinkedHashMap<>();
        for (ChangeRunner.Target target : targets) {
            Snapshot found = (Snapshot) ctx.call(target.service(), SNAPSHOT);
            current.put(target.name(), WaldoState.state(found.vlans, found.pvids));
            pending.put(target.name(), found.trial);
        }
        long read = System.nanoTime();
        Map<String, SwitchState> desired = resolution.desired(Map.copyOf(current));
        List<ChangeRunner.Target> changing = new ArrayList<>();
        for (ChangeRunner.Target target : targets) {
            SwitchState wanted = desired.get(target.name());
            if (wanted != null && !wanted.equals(current.get(target.name()))) {
                changing.add(target);
            }
        }
        for (ChangeRunner.Target target : changing) {
            if (!pending.get(target.name()).isEmpty()) {
                throw new ChangeRunner.ChangeRefusedException("switch " + target.name() + " has pending trial "
                        + pending.get(target.name()) + "; confirm or roll it back first");
            }
        }
        long resolved = System.nanoTime();
        // Each stage carries only this switch's state, the change id and the deadline: the
        // switches of a trial are found by asking every switch which trial it holds.
        for (ChangeRunner.Target target : changing) {
            SwitchState state = desired.get(target.name());
            Object[] args = {change, WaldoState.vlans(state), WaldoState.pvids(state), (double) deadline};
            if (target == changing.getLast()) {
                ctx.lastCall(target.service(), STAGE, args); // nothing calls after it: it carries the prepare
            } else {
                ctx.call(target.service(), STAGE, args);
            }
        }
        // For benchmarks (bench/apply-vs-snmpset): where an attempt's time goes before its prepare.
        LOG.debug("{}: read {} switches in {} ms, resolved in {} ms, staged {} in {} ms", change, targets.size(),
                millis(start, read), millis(read, resolved), changing.size(), millis(resolved, System.nanoTime()));
        return changing.stream().map(ChangeRunner.Target::name).toList();
    }

    private static long millis(long fromNanos, long toNanos) {
        return (toNanos - fromNanos) / 1_000_000;
    }

    @Override
    protected Object dispatch(Ctx ctx, String function, Object[] args) {
        throw new ApplicationException("the operator's apply has no Public function '" + function + "'");
    }
}
