package dev.waldoconf.service;

import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.Plan;
import dev.waldoconf.config.SwitchFootprint;
import dev.waldoconf.model.SwitchState;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * A plan's resolution as {@code waldoconf apply --yes} makes it ({@link PlanIntent}), for tests and
 * benchmarks that drive a {@link ChangeRunner}: it counts the apply's attempts (a wounded attempt
 * is retried, and resolves again), runs a hook as each attempt resolves (inside the transaction,
 * after its reads), and, not keyed, hides what the plan depends on, so that the apply locks every
 * switch's whole table ({@link ChangeRunner.Resolution#footprint}), as applies did before they were
 * keyed.
 */
final class CountedPlan implements ChangeRunner.Resolution {
    private final PlanIntent plan;
    private final boolean keyed;
    private final IntConsumer eachAttempt;
    private final AtomicInteger attempts = new AtomicInteger();

    /**
     * @param keyed whether the apply locks only what the plan depends on (else whole tables)
     * @param eachAttempt called with the attempt's number (from 1) before it resolves
     */
    CountedPlan(Plan plan, Inventory inventory, boolean keyed, IntConsumer eachAttempt) {
        this.plan = new PlanIntent(plan, inventory, Optional.empty());
        this.keyed = keyed;
        this.eachAttempt = eachAttempt;
    }

    /** How many attempts resolved so far. */
    int attempts() {
        return attempts.get();
    }

    @Override
    public Map<String, SwitchState> desired(Map<String, SwitchState> current) {
        eachAttempt.accept(attempts.incrementAndGet());
        return plan.desired(current);
    }

    @Override
    public Optional<SwitchFootprint> footprint(String switchName) {
        return keyed ? plan.footprint(switchName) : Optional.empty();
    }
}
