package dev.waldoconf.engine;

import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.Plan;
import dev.waldoconf.config.ResolvedPlan;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A change to apply: a plan over an inventory, and, when a person reviewed a preview of it, that
 * preview's fingerprints (one per switch), which must still hold when it commits. Without them,
 * the plan is applied as it resolves against what the switches hold inside the transaction: the
 * switches are then read once, there, and not first for a preview nobody looks at.
 *
 * @param plan the plan, checked against the inventory
 * @param inventory the switches it may change
 * @param reviewed each switch's fingerprint as the reviewed preview showed it, or empty
 */
public record PlannedChange(Plan plan, Inventory inventory, Optional<Map<String, String>> reviewed) {
    /** Checks the parts and copies the fingerprints. */
    public PlannedChange {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(inventory, "inventory");
        reviewed = reviewed.map(Map::copyOf);
    }

    /** The change {@code preview} shows, refused at commit if a switch's part changed since ({@code refuseIfChanged}). */
    public static PlannedChange of(ResolvedPlan preview, boolean refuseIfChanged) {
        return new PlannedChange(preview.plan(), preview.inventory(),
                refuseIfChanged ? Optional.of(preview.fingerprints()) : Optional.empty());
    }

    /** {@code plan} over {@code inventory}, applied as it resolves at commit, with no preview. */
    public static PlannedChange unreviewed(Plan plan, Inventory inventory) {
        return new PlannedChange(plan, inventory, Optional.empty());
    }
}
