package dev.waldoconf.service;

import dev.waldoconf.model.SwitchState;
import java.util.List;

/**
 * What a switch service keeps on disk about its switch: the intended state
 * and, while a trial is pending, the trial's id, deadline, the other switches
 * of the change and the state to revert to.
 *
 * @param transaction the transaction that wrote it (for logs)
 * @param intended the state the switch should hold
 * @param trial the pending trial's change id, or "" when none
 * @param deadlineEpochSeconds when the trial reverts, or 0
 * @param switches the switches of the pending change
 * @param before the state to restore if the trial is not confirmed
 */
public record TrialRecord(String transaction, SwitchState intended, String trial, long deadlineEpochSeconds,
                          List<String> switches, SwitchState before) {
    public TrialRecord {
        switches = List.copyOf(switches);
    }

    /** Whether a trial is pending. */
    public boolean hasTrial() {
        return !trial.isEmpty();
    }
}
