package dev.waldoconf.engine;

import dev.waldoconf.model.VlanChange;
import java.time.Instant;
import java.util.List;

/**
 * What {@code waldoconf status} shows.
 *
 * @param pendingTrials trials that will revert unless confirmed
 * @param switches every switch of the inventory
 */
public record StatusReport(List<PendingTrial> pendingTrials, List<SwitchStatus> switches) {
    /** Copies the lists. */
    public StatusReport {
        pendingTrials = List.copyOf(pendingTrials);
        switches = List.copyOf(switches);
    }

    /**
     * A trial that reverts at {@code deadline} unless confirmed.
     *
     * @param changeId the change's id
     * @param deadline when every switch of it reverts
     * @param switches the switches that hold it, as status found them (a switch whose service did not
     *     answer is not among them; the report lists it as unreachable or undecided)
     */
    public record PendingTrial(String changeId, Instant deadline, List<String> switches) {
        /** Copies the list. */
        public PendingTrial {
            switches = List.copyOf(switches);
        }
    }

    /**
     * One switch.
     *
     * @param switchName the switch
     * @param reachable whether its service (and through it the switch) answered
     * @param drift steps that would bring the switch back to the state WaldoConf intends; empty when none
     * @param detail why it is unreachable or undecided, or ""
     * @param undecided its service answers, but a change still being decided holds the state status
     *     reads (a transaction in doubt, whose operator command stopped mid-commit), so status gave up
     *     on it after a while instead of waiting; {@code detail} says so
     */
    public record SwitchStatus(String switchName, boolean reachable, List<VlanChange> drift, String detail,
            boolean undecided) {
        /** Copies the list. */
        public SwitchStatus {
            drift = List.copyOf(drift);
        }

        /** A switch that is reachable or not, with nothing undecided. */
        public SwitchStatus(String switchName, boolean reachable, List<VlanChange> drift, String detail) {
            this(switchName, reachable, drift, detail, false);
        }

        /** A switch whose service answers while a change still being decided holds its state ({@code why}). */
        public static SwitchStatus undecided(String switchName, String why) {
            return new SwitchStatus(switchName, true, List.of(), why, true);
        }
    }
}
