package dev.waldoconf.service;

import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.Plan;
import dev.waldoconf.config.PlanResolver;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.config.SwitchFootprint;
import dev.waldoconf.model.SwitchState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A plan as the intent an apply carries into its transaction: resolved there, by
 * {@link PlanResolver}, against what every switch holds under the transaction's locks. So VLANs
 * the plan does not manage keep whatever they hold at commit, however recently it changed.
 *
 * <p>With the preview's fingerprints, a switch whose fingerprint differs at commit (its managed
 * state changed since the preview) refuses the whole change with a {@link StalePlanException};
 * without them, the plan is applied as it resolves at commit.
 */
public final class PlanIntent implements ChangeRunner.Resolution {
    private final Plan plan;
    private final Inventory inventory;
    private final Optional<Map<String, String>> previewed;
    /** The resolution of the latest attempt: after a commit, the one that committed. */
    private volatile ResolvedPlan resolved;

    /**
     * @param previewed the fingerprint of each switch as the operator's preview showed it, or empty to
     *     apply whatever the plan resolves to at commit
     */
    public PlanIntent(Plan plan, Inventory inventory, Optional<Map<String, String>> previewed) {
        this.plan = plan;
        this.inventory = inventory;
        this.previewed = previewed.map(Map::copyOf);
    }

    @Override
    public Map<String, SwitchState> desired(Map<String, SwitchState> current) {
        ResolvedPlan now;
        try {
            now = PlanResolver.resolve(plan, inventory, current);
        } catch (ConfigException e) {
            throw new PlanRefusedException(e);
        }
        resolved = now;
        List<String> stale = stale(now);
        if (!stale.isEmpty()) {
            throw new StalePlanException(now, stale);
        }
        Map<String, SwitchState> desired = new LinkedHashMap<>();
        now.changing().forEach(change -> desired.put(change.target().name(), change.desired()));
        return desired;
    }

    /** What the plan depends on at switch {@code switchName}: its managed, deleted and referenced VLANs and ports. */
    @Override
    public Optional<SwitchFootprint> footprint(String switchName) {
        return inventory.switchNamed(switchName).map(entry -> SwitchFootprint.of(plan, inventory, entry));
    }

    private List<String> stale(ResolvedPlan now) {
        List<String> stale = new ArrayList<>();
        previewed.ifPresent(seen -> now.fingerprints().forEach((name, fingerprint) -> {
            if (!fingerprint.equals(seen.get(name))) {
                stale.add(name);
            }
        }));
        return stale;
    }

    /** The plan as the latest attempt resolved it (the committed one, once the apply returned); empty before. */
    public Optional<ResolvedPlan> resolved() {
        return Optional.ofNullable(resolved);
    }

    /** The plan cannot be applied to what the switches hold at commit; {@link #problems()} says where and why. */
    public static final class PlanRefusedException extends RuntimeException {
        private final transient ConfigException problems;

        PlanRefusedException(ConfigException problems) {
            super(problems.getMessage(), problems);
            this.problems = problems;
        }

        /** The problems, each with the plan's file:line:col. */
        public ConfigException problems() {
            return problems;
        }
    }

    /** Switches whose managed state changed since the preview: nothing was changed. */
    public static final class StalePlanException extends RuntimeException {
        private final transient ResolvedPlan now;
        private final List<String> switches;

        StalePlanException(ResolvedPlan now, List<String> switches) {
            super("switch(es) " + String.join(", ", switches) + " changed since the preview; nothing was changed");
            this.now = now;
            this.switches = List.copyOf(switches);
        }

        /** The plan resolved against what the switches hold now. */
        public ResolvedPlan now() {
            return now;
        }

        /** The switches whose fingerprint differs from the preview's. */
        public List<String> switches() {
            return switches;
        }
    }
}
