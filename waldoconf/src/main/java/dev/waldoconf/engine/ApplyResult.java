package dev.waldoconf.engine;

import dev.waldoconf.config.ResolvedPlan;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * How an apply ended.
 *
 * @param changeId the change's id, used by {@code confirm ID} and {@code rollback ID}
 * @param outcome committed, trial pending, or refused
 * @param trialDeadline when a trial reverts unless confirmed; empty without a trial
 * @param switches what happened on each switch of the change
 * @param message one line for the operator (e.g. why it was refused and that nothing changed)
 * @param plan the plan as it resolved inside the change's transaction: the one applied (committed,
 *     trial pending), or, for {@link Outcome#STALE}, the one to show the operator again; empty when refused
 */
public record ApplyResult(String changeId, Outcome outcome, Optional<Instant> trialDeadline,
                          List<SwitchOutcome> switches, String message, Optional<ResolvedPlan> plan) {
    /** Copies the list. */
    public ApplyResult {
        switches = List.copyOf(switches);
    }

    /** How the change as a whole ended. */
    public enum Outcome {
        /** Every switch holds the new state for good. */
        COMMITTED,
        /** Every switch holds the new state until the trial deadline, unless confirmed. */
        TRIAL_PENDING,
        /** A switch refused or failed; every switch was left in (or returned to) its old state. */
        REFUSED,
        /**
         * A switch's managed state changed since the preview, so nothing was changed: {@code plan}
         * is the plan as it resolves now, to show and ask about again.
         */
        STALE
    }

    /**
     * One switch's part.
     *
     * @param switchName the switch
     * @param ok whether the switch applied its steps (false: it refused or failed)
     * @param detail what it did or why it refused
     */
    public record SwitchOutcome(String switchName, boolean ok, String detail) {
    }
}
