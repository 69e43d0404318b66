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

    /** The fingerprint of each switch's part ({@link SwitchChange#fingerprint()}), by switch name. */
    public java.util.Map<String, String> fingerprints() {
        java.util.Map<String, String> byName = new java.util.LinkedHashMap<>();
        switches.forEach(change -> byName.put(change.target().name(), change.fingerprint()));
        return byName;
    }

    /** The part of switch {@code name}, if the plan has it. */
    public java.util.Optional<SwitchChange> switchNamed(String name) {
        return switches.stream().filter(change -> change.target().name().equals(name)).findFirst();
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

        /**
         * A short fingerprint (12 hex digits of SHA-256) of the steps: the same plan on a switch
         * whose managed state changed gives another one, as the steps carry every before value
         * the plan touches; a change to what the plan does not manage leaves it as it is.
         */
        public String fingerprint() {
            try {
                java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
                byte[] digest = sha.digest(steps.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                return java.util.HexFormat.of().formatHex(digest, 0, 6);
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JDK has SHA-256", e);
            }
        }
    }
}
