package dev.waldoconf.service;

import java.util.List;

/**
 * What a service keeps on disk about its device: the intended state and,
 * while a trial is pending, the trial's id, deadline and the state to revert
 * to; a custom service's trial also names the switches of its change.
 *
 * @param transaction the transaction that wrote it (for logs)
 * @param intended the state the switch should hold
 * @param trial the pending trial's change id, or "" when none
 * @param deadlineEpochSeconds when the trial reverts, or 0
 * @param switches the switches of the pending change as a custom service keeps them; always empty for
 *     the VLAN service, whose trial is its id and deadline only (a list here made every stage of an
 *     N-switch change carry N names; the operator finds a trial's switches by asking each switch)
 * @param before the state to restore if the trial is not confirmed
 * @param <S> the state: a switch's VLAN tables, or a custom service's scalar values
 */
public record TrialRecord<S>(String transaction, S intended, String trial, long deadlineEpochSeconds,
                             List<String> switches, S before) {
    public TrialRecord {
        switches = List.copyOf(switches);
    }

    /** Whether a trial is pending. */
    public boolean hasTrial() {
        return !trial.isEmpty();
    }
}
