package dev.waldoconf.service;

import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.WaldoObject;
import dev.waldo.runtime.lang.WList;
import dev.waldoconf.config.SwitchFootprint;
import dev.waldoconf.engine.BoundedParallel;
import dev.waldoconf.model.SwitchPart;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.services.Reading;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's side of one apply, as ONE Waldo transaction with a Java body: read every
 * switch through its service ({@code read(...)}: the service first takes the abstract locks of what
 * the plan depends on there, then reads the switch), resolve the change against those reads in
 * Java, then stage the result on every switch that changes: only the keys that change (VLAN names,
 * memberships, PVIDs), with their values before for the trial's revert. Reads and stages are made
 * {@link #CALLS_IN_FLIGHT} at a time from threads of the body (the runtime routes each reply to its
 * call, and a wound unwinds every call in flight); the last stage, which carries the prepare, is
 * made alone after all others. Until the transaction ends, no other WaldoConf transaction can
 * change what this one read or set, so concurrent applies serialize and what a change does not
 * manage survives whatever happened before its read; applies whose plans touch different VLANs and
 * ports of the same switches do not wait for each other (see the module README, "Concurrent applies").
 *
 * <p>The body may run more than once (the runtime retries an attempt that an older transaction
 * wounded); each attempt reads and resolves afresh, and only the committed one counts.
 */
final class ApplyTransaction extends WaldoObject {
    private static final Logger LOG = LoggerFactory.getLogger(ApplyTransaction.class);
    /** The VlanSwitch functions this body calls, as the service declares them. */
    private static final String READ = "read";
    private static final String READ_ALL = "read_all";
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
     * @throws ChangeRunner.ChangeRefusedException if a pending trial holds a key the change sets
     */
    List<String> run(String change, List<ChangeRunner.Target> targets, ChangeRunner.Resolution resolution,
            long deadlineEpochSeconds) {
        return transact("apply", ctx -> attempt(ctx, change, targets, resolution, deadlineEpochSeconds));
    }

    private static List<String> attempt(Ctx ctx, String change, List<ChangeRunner.Target> targets,
            ChangeRunner.Resolution resolution, long deadline) {
        long start = System.nanoTime();
        Map<String, SwitchState> current = new LinkedHashMap<>();
        Map<ChangeRunner.Target, Reading> readings = BoundedParallel.all(CALLS_IN_FLIGHT, targets,
                target -> read(ctx, target, resolution));
        readings.forEach((target, found) -> current.put(target.name(), WaldoState.state(found.vlans, found.pvids)));
        long read = System.nanoTime();
        Map<String, SwitchState> desired = resolution.desired(Map.copyOf(current));
        List<ChangeRunner.Target> changing = new ArrayList<>();
        for (ChangeRunner.Target target : targets) {
            SwitchState wanted = desired.get(target.name());
            if (wanted != null && !wanted.equals(current.get(target.name()))) {
                changing.add(target);
            }
        }
        long resolved = System.nanoTime();
        if (!changing.isEmpty()) {
            // The last stage carries the prepare, which names the hosts the attempt reached so
            // far: so it is made alone, after every other call of the body returned.
            Map<ChangeRunner.Target, String> held = BoundedParallel.all(CALLS_IN_FLIGHT,
                    changing.subList(0, changing.size() - 1), target -> stage(ctx, change, current, desired, target,
                            deadline, false));
            Map<ChangeRunner.Target, String> holders = new LinkedHashMap<>(held);
            ChangeRunner.Target last = changing.getLast();
            holders.put(last, stage(ctx, change, current, desired, last, deadline, true));
            refuseIfHeld(holders);
        }
        // For benchmarks (bench/apply-vs-snmpset): where an attempt's time goes before its prepare.
        LOG.debug("{}: read {} switches in {} ms, resolved in {} ms, staged {} in {} ms ({} calls in flight)",
                change, targets.size(), millis(start, read), millis(read, resolved), changing.size(),
                millis(resolved, System.nanoTime()), CALLS_IN_FLIGHT);
        return changing.stream().map(ChangeRunner.Target::name).toList();
    }

    /**
     * Reads one switch: after the abstract locks of what the resolution depends on there, or under
     * a lock of its whole configuration when the resolution does not say.
     */
    private static Reading read(Ctx ctx, ChangeRunner.Target target, ChangeRunner.Resolution resolution) {
        Optional<SwitchFootprint> footprint = resolution.footprint(target.name());
        if (footprint.isEmpty()) {
            return (Reading) ctx.call(target.service(), READ_ALL);
        }
        return (Reading) ctx.call(target.service(), READ, numbers(footprint.get().named()),
                numbers(footprint.get().whole()), numbers(footprint.get().ports()));
    }

    /**
     * Stages one switch's change: the keys that differ between what it holds and what it should,
     * with their values now for the trial's revert. Returns '' or the change whose pending trial
     * holds one of those keys (the service then changed nothing).
     */
    private static String stage(Ctx ctx, String change, Map<String, SwitchState> current,
            Map<String, SwitchState> desired, ChangeRunner.Target target, long deadline, boolean last) {
        SwitchPart set = SwitchPart.between(current.get(target.name()), desired.get(target.name()));
        WList<String> keys = new WList<>();
        keys.addAll(set.keys());
        Object[] args = {change, WaldoState.struct(set), WaldoState.struct(set.valuesIn(current.get(target.name()))),
                keys, (double) deadline};
        return (String) (last ? ctx.lastCall(target.service(), STAGE, args) : ctx.call(target.service(), STAGE, args));
    }

    /** Refuses the whole change if a pending trial holds what it would set on some switch. */
    private static void refuseIfHeld(Map<ChangeRunner.Target, String> holders) {
        List<String> refusals = new ArrayList<>();
        holders.forEach((target, holder) -> {
            if (!holder.isEmpty()) {
                refusals.add("switch " + target.name() + " has pending trial " + holder
                        + " on what this change sets there");
            }
        });
        if (!refusals.isEmpty()) {
            throw new ChangeRunner.ChangeRefusedException(String.join("; ", refusals)
                    + "; confirm or roll it back first");
        }
    }

    private static WList<Double> numbers(java.util.Set<Integer> values) {
        WList<Double> list = new WList<>();
        values.forEach(value -> list.add((double) value));
        return list;
    }

    private static long millis(long fromNanos, long toNanos) {
        return (toNanos - fromNanos) / 1_000_000;
    }

    @Override
    protected Object dispatch(Ctx ctx, String function, Object[] args) {
        throw new ApplicationException("the operator's apply has no Public function '" + function + "'");
    }
}
