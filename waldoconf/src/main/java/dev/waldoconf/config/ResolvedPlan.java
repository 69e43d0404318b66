package dev.waldoconf.config;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.VlanChange;
import java.util.List;

/**
 * A plan made concrete for every switch of an inventory: what each switch holds now, what it
 * should hold, and the ordered steps between them. This is what {@code waldoconf plan} prints
 * and what the change engine applies as one transaction.
 *
 * @param plan the plan it came from
 * @param inventory the inventory it was resolved against
 * @param switches one entry per switch of the inventory, in inventory order
 */
public record ResolvedPlan(Plan plan, Inventory inventory, List<SwitchChange> switches) {
    /** Copies the list. */
    public ResolvedPlan {
        switches = List.copyOf(switches);
    }

    /** The switches whose state changes. */
    public List<SwitchChange> changing() {
        return switches.stream().filter(SwitchChange::hasChanges).toList();
    }

    /** Whether no switch changes. */
    public boolean isEmpty() {
        return changing().isEmpty();
    }

    /**
     * One switch's part of the plan.
     *
     * @param target the switch
     * @param current what it holds now (as read when the plan was resolved)
     * @param desired what it should hold
     * @param steps the ordered steps from current to desired ({@link dev.waldoconf.model.VlanDiff})
     */
    public record SwitchChange(SwitchEntry target, SwitchState current, SwitchState desired,
                               List<VlanChange> steps) {
        /** Copies the list. */
        public SwitchChange {
            steps = List.copyOf(steps);
        }

        /** Whether the switch changes at all. */
        public boolean hasChanges() {
            return !steps.isEmpty();
        }
    }
}
