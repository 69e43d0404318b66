package dev.waldoconf.service;

import java.util.List;
import java.util.Optional;

/**
 * What a service keeps on disk about its device: the intended state and its pending trials,
 * each with its deadline and the state to revert to. A custom service keeps at most one trial,
 * which also names the switches of its change; the VLAN service keeps one per change that staged
 * on it, each holding only what that change changed, so changes of different VLANs are trials of
 * their own side by side.
 *
 * <p>In a journal entry, a record is what the transaction leaves, as its adapter folds it into
 * the committed record ({@link DeviceAdapter#committedAfter}): the custom services' adapter
 * replaces the committed record with it; the VLAN table's sets the keys it names and starts or
 * ends the trials it lists, a trial at deadline 0 being one the transaction ends.
 *
 * @param transaction the transaction that wrote it (for logs)
 * @param intended the state the device should hold
 * @param trials the pending trials (and, in an entry, the ended ones)
 * @param <S> the state: a switch's VLAN configuration, or a custom service's scalar values
 */
public record TrialRecord<S>(String transaction, S intended, List<Trial<S>> trials) {
    public TrialRecord {
        trials = List.copyOf(trials);
    }

    /**
     * One trial.
     *
     * @param change the change id
     * @param deadlineEpochSeconds when the trial reverts; 0 in an entry's record for a trial its
     *     transaction ends (confirm or revert)
     * @param switches the switches of the change as a custom service keeps them; always empty for
     *     the VLAN service, whose trial is its id and deadline only (a list here made every stage of
     *     an N-switch change carry N names; the operator finds a trial's switches by asking each switch)
     * @param before the state to restore if the trial is not confirmed
     * @param <S> the state
     */
    public record Trial<S>(String change, long deadlineEpochSeconds, List<String> switches, S before) {
        public Trial {
            switches = List.copyOf(switches);
        }

        /** Whether this is an ended trial in an entry's record (deadline 0), not a pending one. */
        public boolean ended() {
            return deadlineEpochSeconds == 0;
        }
    }

    /** A record with no trial. */
    public static <S> TrialRecord<S> withoutTrial(String transaction, S intended) {
        return new TrialRecord<>(transaction, intended, List.of());
    }

    /** The pending trials (not the ended ones an entry's record lists). */
    public List<Trial<S>> pending() {
        return trials.stream().filter(trial -> !trial.ended()).toList();
    }

    /** Whether a trial is pending (or, in an entry, whether the transaction starts one). */
    public boolean hasTrial() {
        return !pending().isEmpty();
    }

    /** The pending trial of a service that keeps at most one (a custom service), if any. */
    public Optional<Trial<S>> onlyTrial() {
        List<Trial<S>> pending = pending();
        if (pending.size() > 1) {
            throw new IllegalStateException("record of transaction " + transaction + " holds " + pending.size()
                    + " pending trials where one at most was expected");
        }
        return pending.stream().findFirst();
    }
}
