package dev.waldoconf.service;

import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.services.ChangeCoordinator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The coordinator side of WaldoConf: runs apply, confirm and rollback as
 * single Waldo transactions across the switch services, through the
 * ChangeCoordinator service on the caller's host.
 */
public final class ChangeRunner {
    /**
     * How long an apply without --trial stays revertible: the runner confirms
     * it right after it commits; the window only matters if the runner dies
     * in between, and then every switch reverts by itself.
     */
    public static final Duration SELF_CONFIRM_WINDOW = Duration.ofSeconds(120);

    private final ChangeCoordinator coordinator;
    private final Clock clock;

    /** A switch service to change. */
    public record Target(String name, EndpointRef service) {
    }

    /** A switch's pending trial as its service reports it. */
    public record PendingTrial(String switchName, String change, Instant deadline, boolean reachable) {
        /** Whether a trial is pending there. */
        public boolean pending() {
            return reachable && !change.isEmpty();
        }
    }

    /** Thrown when a change was refused before anything changed (e.g. a pending trial). */
    public static final class ChangeRefusedException extends RuntimeException {
        public ChangeRefusedException(String message) {
            super(message);
        }
    }

    /** A runner whose coordinator lives on {@code host}. */
    public ChangeRunner(Host host, Clock clock) {
        this.coordinator = ChangeCoordinator.create(host);
        this.clock = clock;
    }

    /** A fresh change id: short, sortable by time, and unlikely to repeat. */
    public String newChangeId() {
        return "c" + Long.toString(clock.millis() / 1000, 36) + "-"
                + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36);
    }

    /**
     * Moves every target to its desired state in one transaction, as trial
     * {@code change} reverting after {@code trial}; with {@code trial} empty
     * the change is confirmed at once.
     *
     * @return the deadline the services act on (whole seconds): when the trial
     *     reverts, or, without a trial, the end of the self-confirm window
     *
     * @throws ChangeRefusedException if a switch has a pending trial (nothing changed)
     * @throws TransactionAbortedException if a switch voted no (nothing changed anywhere)
     */
    public Instant apply(String change, List<Target> targets, List<SwitchState> desired,
            java.util.Optional<Duration> trial) {
        long deadline = clock.instant().plus(trial.orElse(SELF_CONFIRM_WINDOW)).getEpochSecond();
        WList<WMap<Double, dev.waldoconf.services.Vlan>> vlans = new WList<>();
        WList<WMap<Double, Double>> pvids = new WList<>();
        for (SwitchState state : desired) {
            vlans.add(WaldoState.vlans(state));
            pvids.add(WaldoState.pvids(state));
        }
        String refused = coordinator.apply(change, refs(targets), vlans, pvids, deadline, names(targets));
        if (!refused.isEmpty()) {
            throw new ChangeRefusedException(refused);
        }
        if (trial.isEmpty()) {
            coordinator.confirm(change, refs(targets));
        }
        return Instant.ofEpochSecond(deadline);
    }

    /**
     * Keeps trial {@code change} on every target.
     *
     * @throws TransactionAbortedException if one of them no longer holds it (it expired); nothing changed
     */
    public void confirm(String change, List<Target> targets) {
        coordinator.confirm(change, refs(targets));
    }

    /**
     * Reverts trial {@code change} on every target at once.
     *
     * @throws TransactionAbortedException if one of them no longer holds it; nothing changed
     */
    public void rollback(String change, List<Target> targets) {
        coordinator.rollback(change, refs(targets));
    }

    /** The pending trial of each target, in order; unreachable ones are marked so. */
    public List<PendingTrial> pendingTrials(List<Target> targets) {
        WList<String> trials = coordinator.trials(refs(targets));
        WList<Double> deadlines = coordinator.deadlines(refs(targets));
        List<PendingTrial> pending = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            String trial = trials.get(i);
            boolean reachable = !trial.equals("unreachable");
            pending.add(new PendingTrial(targets.get(i).name(), reachable ? trial : "",
                    Instant.ofEpochSecond(Math.round(deadlines.get(i))), reachable));
        }
        return pending;
    }

    /** The state {@code target}'s service intends its switch to hold. */
    public SwitchState intended(Target target) {
        return WaldoState.state(coordinator.intended_vlans(target.service()),
                coordinator.intended_pvids(target.service()));
    }

    /** The switches of the trial pending on {@code target}. */
    public List<String> trialSwitches(Target target) {
        return List.copyOf(coordinator.trial_switches(target.service()));
    }

    private static WList<EndpointRef> refs(List<Target> targets) {
        WList<EndpointRef> refs = new WList<>();
        targets.forEach(target -> refs.add(target.service()));
        return refs;
    }

    private static WList<String> names(List<Target> targets) {
        WList<String> names = new WList<>();
        targets.forEach(target -> names.add(target.name()));
        return names;
    }
}
