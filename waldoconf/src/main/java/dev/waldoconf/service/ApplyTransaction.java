package dev.waldoconf.service;

import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.WaldoObject;
import dev.waldoconf.engine.BoundedParallel;
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
 * on every switch that changes. Reads and stages are made {@link #CALLS_IN_FLIGHT} at a time
 * from threads of the body (the runtime routes each reply to its call, and a wound unwinds every
 * call in flight); the last stage, which carries the prepare, is made alone after all others. Until the transaction ends, no other WaldoConf transaction can
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
    /**
     * How many of the body's calls (its reads, then its stages) are in flight at once: 32, or the
     * system property {@code waldoconf.apply.callsInFlight} (1 makes the body call one switch
     * after another, as the benchmark's comparison does). One after another, the body's 2N round
     * trips took 19 s at 1,000 switches (bench/apply-vs-snmpset); a window, rather than all at
     * once, keeps the services' SNMP reads from queueing behind a thousand others, as
     * {@link BoundedParallel#SWITCH_READS} does for the operator's own reads.
     */
    static final int CALLS_IN_FLIGHT = Math.max(1, Integer.getInteger("waldoconf.apply.callsInFlight", 32));

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
        Map<ChangeRunner.Target, Snapshot> snapshots = BoundedParallel.all(CALLS_IN_FLIGHT, targets,
                target -> (Snapshot) ctx.call(target.service(), SNAPSHOT));
        snapshots.forEach((target, found) -> {
            current.put(target.name(), WaldoState.state(found.vlans, found.pvids));
            pending.put(target.name(), found.trial);
        });
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
        if (!changing.isEmpty()) {
            // The last stage carries the prepare, which names the hosts the attempt reached so
            // far: so it is made alone, after every other call of the body returned.
            BoundedParallel.all(CALLS_IN_FLIGHT, changing.subList(0, changing.size() - 1),
                    target -> ctx.call(target.service(), STAGE, stageArgs(change, desired, target, deadline)));
            ChangeRunner.Target last = changing.getLast();
            ctx.lastCall(last.service(), STAGE, stageArgs(change, desired, last, deadline));
        }
        // For benchmarks (bench/apply-vs-snmpset): where an attempt's time goes before its prepare.
        LOG.debug("{}: read {} switches in {} ms, resolved in {} ms, staged {} in {} ms ({} calls in flight)",
                change, targets.size(), millis(start, read), millis(read, resolved), changing.size(),
                millis(resolved, System.nanoTime()), CALLS_IN_FLIGHT);
        return changing.stream().map(ChangeRunner.Target::name).toList();
    }

    /**
     * What one stage call carries: only this switch's state, the change id and the deadline (the
     * switches of a trial are found by asking every switch which trial it holds).
     */
    private static Object[] stageArgs(String change, Map<String, SwitchState> desired, ChangeRunner.Target target,
            long deadline) {
        SwitchState state = desired.get(target.name());
        return new Object[] {change, WaldoState.vlans(state), WaldoState.pvids(state), (double) deadline};
    }

    private static long millis(long fromNanos, long toNanos) {
        return (toNanos - fromNanos) / 1_000_000;
    }

    @Override
    protected Object dispatch(Ctx ctx, String function, Object[] args) {
        throw new ApplicationException("the operator's apply has no Public function '" + function + "'");
    }
}
