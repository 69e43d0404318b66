package dev.waldoconf.service;

import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.lang.WList;
import dev.waldoconf.config.SwitchFootprint;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.services.ChangeCoordinator;
import dev.waldoconf.services.OperatorDesk;
import dev.waldoconf.services.Structs;
import dev.waldoconf.services.SwitchView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The coordinator side of WaldoConf: runs apply ({@link ApplyTransaction}), confirm and rollback
 * ({@link SwitchCalls}) as single Waldo transactions across the switch services, their calls to
 * the switches in parallel, and status through the ChangeCoordinator service, on the caller's host.
 */
public final class ChangeRunner {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ChangeRunner.class);
    /**
     * How long an apply without --trial stays revertible: the runner confirms
     * it right after it commits; the window only matters if the runner dies
     * in between, and then every switch reverts by itself.
     */
    public static final Duration SELF_CONFIRM_WINDOW = Duration.ofSeconds(120);

    private final Host host;
    private final ChangeCoordinator coordinator;
    private final SwitchCalls calls;
    private final ApplyTransaction applier;
    private final Clock clock;

    /** A switch service to change. */
    public record Target(String name, EndpointRef service) {
    }

    /**
     * A trial pending on a switch as its service reports it, or a switch whose service could not be
     * reached ({@code reachable} false, no change).
     */
    public record PendingTrial(String switchName, String change, Instant deadline, boolean reachable) {
        /** Whether a trial is pending there. */
        public boolean pending() {
            return reachable && !change.isEmpty();
        }
    }

    /**
     * What one switch's service reports, in one read-only transaction.
     *
     * @param switchName the switch
     * @param reachable whether its service answered (if not, the rest is empty)
     * @param trials its pending trials' deadlines, by change id
     * @param intended what WaldoConf last left on the switch (drift is measured against it)
     */
    public record SwitchReport(String switchName, boolean reachable, Map<String, Instant> trials,
                               SwitchState intended) {
        public SwitchReport {
            trials = Map.copyOf(trials);
        }
    }

    /** Thrown when a change was refused and nothing changed (e.g. a pending trial). */
    public static final class ChangeRefusedException extends RuntimeException {
        public ChangeRefusedException(String message) {
            super(message);
        }
    }

    /**
     * The WaldoConf VLAN service ({@code waldoconf serve --switch NAME}) as an {@link OperatorSession}
     * connects to it.
     */
    public static final OperatorSession.ServiceKind SERVICE = new OperatorSession.ServiceKind(Structs::create,
            OperatorDesk::create, served -> "waldoconf serve " + served);

    /**
     * The switch services behind the desks of {@code session} (connected to {@link #SERVICE}), in
     * its order: found in one transaction on the operator's host, asking the desks in parallel.
     */
    public static List<Target> targets(OperatorSession session) {
        if (session.desks().isEmpty()) {
            return List.of();
        }
        List<Object> services = new SwitchCalls(session.host()).each(List.copyOf(session.desks().values()), "service");
        List<String> names = List.copyOf(session.desks().keySet());
        List<Target> targets = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            targets.add(new Target(names.get(i), (EndpointRef) services.get(i)));
        }
        return targets;
    }

    /** A runner whose coordinator lives on {@code host}. */
    public ChangeRunner(Host host, Clock clock) {
        this.host = host;
        this.coordinator = ChangeCoordinator.create(host);
        this.calls = new SwitchCalls(host);
        this.applier = new ApplyTransaction(host);
        this.clock = clock;
    }

    /** A fresh change id for a VLAN change: {@code c...}; see {@link #newChangeId(char, Clock)}. */
    public String newChangeId() {
        return newChangeId('c', clock);
    }

    /**
     * A fresh change id: {@code kind} ({@code c} for VLAN changes, {@code t} for custom trials), the
     * time in base 36, a random suffix: short, sortable by time, and unlikely to repeat.
     */
    public static String newChangeId(char kind, Clock clock) {
        return kind + Long.toString(clock.millis() / 1000, 36) + "-"
                + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36);
    }

    /**
     * What a change asks of the switches, resolved inside the apply's transaction against what
     * they hold then (read under the transaction's locks).
     */
    @FunctionalInterface
    public interface Resolution {
        /**
         * The state each switch should hold, by switch name; a switch left out, or given what it
         * holds, is not changed. May throw an unchecked exception to refuse: the transaction then
         * backs out, nothing changes, and the exception reaches the caller of {@link #apply}.
         *
         * @param current what each target holds now, by switch name
         */
        Map<String, SwitchState> desired(Map<String, SwitchState> current);

        /**
         * What the resolution depends on at switch {@code switchName} beyond the keys it sets there,
         * or empty if it may depend on anything (the default): the apply then locks the switch's whole
         * configuration, and runs alone on it.
         */
        default Optional<SwitchFootprint> footprint(String switchName) {
            return Optional.empty();
        }
    }

    /**
     * A change that committed.
     *
     * @param deadline when its trial reverts or, without a trial, the end of the self-confirm window
     * @param switches the switches it changed (staged), in target order
     */
    public record Applied(Instant deadline, List<String> switches) {
        public Applied {
            switches = List.copyOf(switches);
        }
    }

    /**
     * An apply without --trial whose staging committed but whose confirm did not: the change is
     * on {@link #switches()} as trial {@link #change()} and reverts at {@link #deadline()} unless
     * confirmed.
     */
    public static final class UnconfirmedException extends RuntimeException {
        private final String change;
        private final transient Applied applied;

        UnconfirmedException(String change, Applied applied, RuntimeException cause) {
            super(cause.getMessage(), cause);
            this.change = change;
            this.applied = applied;
        }

        /** The change id. */
        public String change() {
            return change;
        }

        /** The switches that hold it as a trial. */
        public List<String> switches() {
            return applied.switches();
        }

        /** When each of them reverts it unless it is confirmed. */
        public Instant deadline() {
            return applied.deadline();
        }
    }

    /**
     * Applies {@code resolution} in one transaction: reads every target through its service,
     * resolves, and stages the new state on each target that changes as trial {@code change},
     * reverting after {@code trial}; with {@code trial} empty the change is then confirmed at once
     * (a second transaction: see waldoconf/README.md, "What a plain apply is").
     *
     * @throws ChangeRefusedException if the change would set what a pending trial holds on a switch
     *     (nothing changed)
     * @throws TransactionAbortedException if a switch voted no (nothing changed anywhere)
     * @throws UnconfirmedException if, without a trial, the change committed but the confirm failed
     */
    public Applied apply(String change, List<Target> targets, Resolution resolution, Optional<Duration> trial) {
        long deadline = clock.instant().plus(trial.orElse(SELF_CONFIRM_WINDOW)).getEpochSecond();
        long start = System.nanoTime();
        Applied applied = new Applied(Instant.ofEpochSecond(deadline),
                applier.run(change, targets, resolution, deadline));
        long staged = System.nanoTime();
        if (trial.isEmpty() && !applied.switches().isEmpty()) {
            List<Target> changed = targets.stream().filter(t -> applied.switches().contains(t.name())).toList();
            try {
                confirm(change, changed);
            } catch (RuntimeException e) {
                throw new UnconfirmedException(change, applied, e);
            }
        }
        // For benchmarks (bench/apply-vs-snmpset): the staging transaction (body, prepare, commit) and the confirm.
        LOG.debug("{}: staged on {} switches in {} ms, confirmed in {} ms", change, applied.switches().size(),
                (staged - start) / 1_000_000, (System.nanoTime() - staged) / 1_000_000);
        return applied;
    }

    /**
     * Moves every target to exactly the state given for it (in target order), in one transaction,
     * as {@link #apply(String, List, Resolution, Optional)} does: for tests and benchmarks that
     * set whole states; the product applies plans.
     */
    public Applied apply(String change, List<Target> targets, List<SwitchState> desired, Optional<Duration> trial) {
        Map<String, SwitchState> byName = new LinkedHashMap<>();
        for (int i = 0; i < targets.size(); i++) {
            byName.put(targets.get(i).name(), desired.get(i));
        }
        return apply(change, targets, current -> byName, trial);
    }

    /**
     * Keeps trial {@code change} on every target.
     *
     * @throws TransactionAbortedException if one of them no longer holds it (it expired); nothing changed
     */
    public void confirm(String change, List<Target> targets) {
        calls.allTrue(services(targets), "confirm", change);
    }

    /**
     * Reverts trial {@code change} on every target at once.
     *
     * @throws TransactionAbortedException if one of them no longer holds it; nothing changed
     */
    public void rollback(String change, List<Target> targets) {
        calls.allTrue(services(targets), "revert", change);
    }

    /**
     * What each target's service reports, in target order, read in one read-only transaction: on a
     * host with snapshot reads ({@link OperatorSession} turns them on) it neither waits for nor
     * wounds an apply in progress on those switches.
     */
    public List<SwitchReport> reports(List<Target> targets) {
        WList<SwitchView> views = host.readOnly(() -> coordinator.views(refs(targets)));
        List<SwitchReport> reports = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            SwitchView seen = views.get(i);
            Map<String, Instant> trials = new java.util.TreeMap<>();
            seen.view.trials.forEach((change, deadline) -> trials.put(change, Instant.ofEpochSecond(Math.round(deadline))));
            reports.add(new SwitchReport(targets.get(i).name(), seen.reachable, trials, WaldoState.part(seen.view.names,
                    seen.view.members, seen.view.pvids).appliedTo(SwitchState.empty())));
        }
        return reports;
    }

    /**
     * Every trial pending on the targets, switch by switch, and an entry (not pending) for each
     * target whose service could not be reached; read as {@link #reports} does.
     */
    public List<PendingTrial> pendingTrials(List<Target> targets) {
        List<PendingTrial> pending = new ArrayList<>();
        for (SwitchReport report : reports(targets)) {
            if (!report.reachable()) {
                pending.add(new PendingTrial(report.switchName(), "", Instant.EPOCH, false));
            }
            report.trials().forEach((change, deadline) ->
                    pending.add(new PendingTrial(report.switchName(), change, deadline, true)));
        }
        return pending;
    }

    /** The state {@code target}'s service intends its switch to hold, read as {@link #reports} does. */
    public SwitchState intended(Target target) {
        return reports(List.of(target)).get(0).intended();
    }

    private static List<EndpointRef> services(List<Target> targets) {
        return targets.stream().map(Target::service).toList();
    }

    private static WList<EndpointRef> refs(List<Target> targets) {
        WList<EndpointRef> refs = new WList<>();
        targets.forEach(target -> refs.add(target.service()));
        return refs;
    }
}
