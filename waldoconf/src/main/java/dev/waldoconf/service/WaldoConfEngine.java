package dev.waldoconf.service;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetNode;
import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.BoundedParallel;
import dev.waldoconf.engine.ChangeEngine;
import dev.waldoconf.engine.ChangeResult;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.PlannedChange;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.engine.ProgressListener.Stage;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.engine.StatusReport;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.VlanChange;
import dev.waldoconf.model.VlanDiff;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The change engine behind the {@code waldoconf} command: each switch has a
 * {@link SwitchServer} ({@code waldoconf serve}); apply, confirm and rollback
 * connect to the switches' services as one {@link OperatorSession} and run as
 * single Waldo transactions across them.
 */
public final class WaldoConfEngine implements ChangeEngine {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WaldoConfEngine.class);
    private final DeviceFactory devices;
    private final Path operatorState;
    private final Clock clock;
    private final EngineOptions options;

    /**
     * An engine whose hosts trust each other on first use ({@code --tofu}): no project CA needed, for
     * tests and tools in one process. The {@code waldoconf} command passes {@link EngineOptions} and
     * runs under mutual TLS by default.
     *
     * @param devices opens switches over SNMP for {@code serve} and drift checks
     * @param operatorState where the operator's host keeps its TLS key and pinned service certificates
     */
    public WaldoConfEngine(DeviceFactory devices, Path operatorState, Clock clock) {
        this(devices, operatorState, clock, new EngineOptions(dev.waldo.net.Security.SELF_SIGNED));
    }

    /** An engine whose hosts (operator and services) run as {@code options} ask, e.g. with TLS off. */
    public WaldoConfEngine(DeviceFactory devices, Path operatorState, Clock clock, EngineOptions options) {
        this.devices = devices;
        this.operatorState = operatorState;
        this.clock = clock;
        this.options = options;
    }

    /**
     * An operator session connected to the services of every one of {@code switches}: a change or
     * a trial's end must reach all of them.
     *
     * Package-private for tests that drive a {@link ChangeRunner} as the engine sets it up.
     *
     * @throws EngineException ({@link EngineException.Kind#UNREACHABLE}) naming every switch not reached
     */
    Connected connect(List<SwitchEntry> switches, ProgressListener progress) throws EngineException {
        long start = System.nanoTime();
        OperatorSession session = OperatorSession.open(operator(), ChangeRunner.SERVICE,
                OperatorSession.servicesOf(switches), progress);
        try {
            session.requireAll();
            long connected = System.nanoTime();
            List<ChangeRunner.Target> targets = ChangeRunner.targets(session);
            // For benchmarks (bench/apply-vs-snmpset): where the time before a change's transaction goes.
            LOG.debug("connected {} services in {} ms, found their targets in {} ms", switches.size(),
                    (connected - start) / 1_000_000, (System.nanoTime() - connected) / 1_000_000);
            return new Connected(session, new ChangeRunner(session.host(), clock), targets);
        } catch (NetworkException e) {
            session.close();
            throw new EngineException(EngineException.Kind.UNREACHABLE, e.getMessage(), e);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** A session with the runner and the switch services it changes. */
    record Connected(OperatorSession session, ChangeRunner runner, List<ChangeRunner.Target> targets)
            implements AutoCloseable {
        @Override
        public void close() {
            session.close();
        }
    }

    /** This operator: its identity and pins, as the options' security uses them. */
    private OperatorSession.Operator operator() {
        return new OperatorSession.Operator(operatorState, options.security());
    }

    /**
     * Switch {@code name}'s service host, with its certificate issued from the project CA on its first
     * start under mutual TLS (logged, so the operator sees where it came from).
     */
    private NetConfig serviceNet(String name, Path stateDir) throws EngineException {
        NetConfig net = Identities.serviceNet(name, SwitchServer.netDir(stateDir), options.security());
        issueCertificate(name, net);
        return net;
    }

    /** Issues the node running as {@code net} its certificate if it needs one (see {@link Identities#ensureServiceCertificate}). */
    private void issueCertificate(String name, NetConfig net) throws EngineException {
        String issued;
        try {
            issued = Identities.ensureServiceCertificate(net, options.projectCaDir());
        } catch (IllegalStateException | IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new EngineException(EngineException.Kind.UNAVAILABLE, name + ": cannot issue the service's"
                    + " certificate from the project CA in " + options.projectCaDir() + ": " + e.getMessage(), e);
        }
        if (!issued.isEmpty()) {
            LOG.info("{}: {}", name, issued);
        }
    }

    @Override
    public ApplyResult apply(PlannedChange planned, Optional<Duration> trial, ProgressListener progress)
            throws EngineException, ConfigException {
        List<SwitchEntry> entries = planned.inventory().switches();
        PlanIntent intent = new PlanIntent(planned.plan(), planned.inventory(), planned.reviewed());
        try (Connected session = connect(entries, progress)) {
            String change = session.runner().newChangeId();
            ChangeRunner.Applied applied;
            try {
                applied = session.runner().apply(change, session.targets(), intent, trial);
            } catch (PlanIntent.StalePlanException e) {
                return new ApplyResult(change, ApplyResult.Outcome.STALE, Optional.empty(), List.of(),
                        e.getMessage(), Optional.of(e.now()));
            } catch (PlanIntent.PlanRefusedException e) {
                throw e.problems();
            } catch (TransactionAbortedException e) {
                return refused(change, stagedBy(intent), e.getMessage(), progress);
            } catch (ChangeRunner.ChangeRefusedException e) {
                throw new EngineException(EngineException.Kind.CONFLICT, e.getMessage() + "; no switch was changed", e);
            } catch (ChangeRunner.UnconfirmedException e) {
                throw new EngineException(EngineException.Kind.UNREACHABLE, ChangeMessages.unconfirmed(e), e);
            } catch (ApplicationException e) {
                throw new EngineException(EngineException.Kind.REFUSED,
                        ChangeMessages.failedInServiceProgram(change, e.getMessage()), e);
            } catch (NetworkException e) {
                throw new EngineException(EngineException.Kind.UNREACHABLE, ChangeMessages.interrupted(change,
                        e.getMessage(), stagedBy(intent), trial.isPresent(), Instant.now(clock)
                                .plus(trial.orElse(ChangeRunner.SELF_CONFIRM_WINDOW))), e);
            }
            return committed(change, intent.resolved().orElseThrow(), applied, trial, progress);
        }
    }

    /** The switches the latest attempt would stage (those whose state changes), for messages. */
    private static List<String> stagedBy(PlanIntent intent) {
        return intent.resolved().map(plan -> plan.changing().stream().map(c -> c.target().name()).toList())
                .orElse(List.of());
    }

    private static ApplyResult committed(String change, ResolvedPlan plan, ChangeRunner.Applied applied,
            Optional<Duration> trial, ProgressListener progress) {
        if (applied.switches().isEmpty()) {
            return new ApplyResult(change, ApplyResult.Outcome.COMMITTED, Optional.empty(), List.of(),
                    "nothing to change: every switch already matches the plan", Optional.of(plan));
        }
        List<ApplyResult.SwitchOutcome> outcomes = new ArrayList<>();
        for (ResolvedPlan.SwitchChange switchChange : plan.changing()) {
            String name = switchChange.target().name();
            progress.onProgress(name, Stage.COMMITTED, "");
            outcomes.add(new ApplyResult.SwitchOutcome(name, true,
                    switchChange.steps().size() + " step(s) applied and read back"));
        }
        // The CLI words success itself; the message carries only what it cannot know.
        return trial.isPresent()
                ? new ApplyResult(change, ApplyResult.Outcome.TRIAL_PENDING, Optional.of(applied.deadline()), outcomes,
                        "", Optional.of(plan))
                : new ApplyResult(change, ApplyResult.Outcome.COMMITTED, Optional.empty(), outcomes, "",
                        Optional.of(plan));
    }

    /** A switch voted no: nothing changed anywhere; the refusing switch is the one its message names exactly. */
    private static ApplyResult refused(String change, List<String> staged, String reason,
            ProgressListener progress) {
        Optional<String> refuser = ChangeMessages.switchNamedIn(reason, staged);
        List<ApplyResult.SwitchOutcome> outcomes = new ArrayList<>();
        for (String name : staged) {
            boolean refused = refuser.isPresent() && refuser.get().equals(name);
            progress.onProgress(name, refused ? Stage.REFUSED : Stage.UNDONE, refused ? reason : "");
            outcomes.add(new ApplyResult.SwitchOutcome(name, !refused,
                    refused ? reason : "undone: the change did not commit"));
        }
        return new ApplyResult(change, ApplyResult.Outcome.REFUSED, Optional.empty(), outcomes,
                "refused: " + reason + "; no switch was changed", Optional.empty());
    }

    @Override
    public ChangeResult confirm(Inventory inventory, Optional<String> changeId, ProgressListener progress)
            throws EngineException {
        try (Connected session = connect(inventory.switches(), progress)) {
            TrialOnSwitches trial = findTrial(session, changeId);
            try {
                session.runner().confirm(trial.change(), trial.targets());
            } catch (TransactionAbortedException e) {
                throw new EngineException(EngineException.Kind.CONFLICT, "trial " + trial.change()
                        + " is no longer pending on every switch (it may have expired); nothing was confirmed", e);
            }
            trial.names().forEach(name -> progress.onProgress(name, Stage.COMMITTED, "confirmed"));
            return new ChangeResult(trial.change(), true, trial.names(), "");
        }
    }

    @Override
    public ChangeResult rollback(Inventory inventory, Optional<String> changeId, ProgressListener progress)
            throws EngineException {
        try (Connected session = connect(inventory.switches(), progress)) {
            TrialOnSwitches trial = findTrial(session, changeId);
            try {
                session.runner().rollback(trial.change(), trial.targets());
            } catch (TransactionAbortedException e) {
                throw new EngineException(EngineException.Kind.REFUSED, "rollback of " + trial.change()
                        + " failed and changed nothing: " + e.getMessage(), e);
            }
            trial.names().forEach(name -> progress.onProgress(name, Stage.UNDONE, ""));
            return new ChangeResult(trial.change(), true, trial.names(), "");
        }
    }

    /** A pending trial and the connected switches that hold it. */
    private record TrialOnSwitches(String change, List<ChangeRunner.Target> targets) {
        List<String> names() {
            return targets.stream().map(ChangeRunner.Target::name).toList();
        }
    }

    private static TrialOnSwitches findTrial(Connected session, Optional<String> changeId)
            throws EngineException {
        Map<String, List<ChangeRunner.Target>> byChange = new TreeMap<>();
        List<ChangeRunner.PendingTrial> pending = session.runner().pendingTrials(session.targets());
        for (int i = 0; i < pending.size(); i++) {
            if (pending.get(i).pending()) {
                byChange.computeIfAbsent(pending.get(i).change(), c -> new ArrayList<>()).add(session.targets().get(i));
            }
        }
        if (changeId.isPresent()) {
            List<ChangeRunner.Target> holders = byChange.get(changeId.get());
            if (holders == null) {
                throw new EngineException(EngineException.Kind.CONFLICT, "no switch has pending trial "
                        + changeId.get() + (byChange.isEmpty() ? "" : "; pending: " + byChange.keySet()));
            }
            return new TrialOnSwitches(changeId.get(), holders);
        }
        if (byChange.size() != 1) {
            throw new EngineException(EngineException.Kind.CONFLICT, byChange.isEmpty()
                    ? "no trial is pending" : "several trials are pending " + byChange.keySet() + "; name one");
        }
        Map.Entry<String, List<ChangeRunner.Target>> only = byChange.entrySet().iterator().next();
        return new TrialOnSwitches(only.getKey(), only.getValue());
    }

    /**
     * How long {@code status} waits for one switch's service to answer its reads. They read the
     * trial's variables under the transaction's locks, so they wait behind a change still being
     * decided there: a commit in progress takes a second or two, but a transaction in doubt (its
     * operator command stopped or was killed after the votes) holds them until that command's host
     * comes back or the trial's deadline ends it. Status must never hang on one, so past this it
     * reports the switch as undecided and goes on.
     */
    static final Duration STATUS_READ_PATIENCE = Duration.ofSeconds(20);

    @Override
    public StatusReport status(Inventory inventory) throws EngineException {
        try (OperatorSession reachable = OperatorSession.open(operator(), ChangeRunner.SERVICE,
                OperatorSession.servicesOf(inventory.switches()), ProgressListener.NONE);
                Connected session = new Connected(reachable, new ChangeRunner(reachable.host(), clock),
                        ChangeRunner.targets(reachable))) {
            ServiceViews views = ServiceView.readAll(session.runner(), session.targets(), STATUS_READ_PATIENCE);
            // A switch's trial is its change id and deadline only (vlan_switch.wld): the switches
            // of a trial are the ones found holding it.
            Map<String, Instant> deadlines = new TreeMap<>();
            Map<String, List<String>> holders = new TreeMap<>();
            Map<String, SwitchState> intended = new LinkedHashMap<>();
            views.read().forEach((name, report) -> {
                report.trials().forEach((change, deadline) -> {
                    deadlines.putIfAbsent(change, deadline);
                    holders.computeIfAbsent(change, c -> new ArrayList<>()).add(name);
                });
                intended.put(name, report.intended());
            });
            List<StatusReport.PendingTrial> trials = new ArrayList<>();
            deadlines.forEach((change, deadline) -> trials.add(new StatusReport.PendingTrial(change, deadline,
                    holders.get(change))));
            List<StatusReport.SwitchStatus> switches = drift(inventory, intended);
            views.undecided().forEach((name, why) -> switches.add(StatusReport.SwitchStatus.undecided(name,
                    undecided(why))));
            views.failed().forEach((name, why) -> switches.add(new StatusReport.SwitchStatus(name, false, List.of(),
                    why)));
            session.session().unreachable().forEach((name, why) ->
                    switches.add(new StatusReport.SwitchStatus(name, false, List.of(), why)));
            return new StatusReport(trials, switches);
        }
    }

    /**
     * How status reads the services: each in a read-only transaction of its own (snapshot reads: it
     * waits for no apply in progress, unless one is left in doubt there), so that one service held by
     * an undecided change does not hold up the others' answers.
     */
    private static final class ServiceView {
        /** How many services are read at once: enough to hide round trips, few enough for a busy operator. */
        private static final int READS_IN_FLIGHT = 32;

        private ServiceView() {
        }

        /**
         * Reads every target, {@link #READS_IN_FLIGHT} at a time, and waits for them until {@code
         * patience} has passed; a target not read by then is named undecided. The reads run on
         * threads of their own and are not waited for past that (a Waldo transaction waiting on a
         * lock cannot be interrupted; closing the session ends them), which is why this is not a
         * {@link BoundedParallel}, whose run waits for every task it gave up.
         */
        static ServiceViews readAll(ChangeRunner runner, List<ChangeRunner.Target> targets, Duration patience) {
            Semaphore slots = new Semaphore(READS_IN_FLIGHT);
            Map<String, CompletableFuture<ChangeRunner.SwitchReport>> reads = new LinkedHashMap<>();
            for (ChangeRunner.Target target : targets) {
                CompletableFuture<ChangeRunner.SwitchReport> read = new CompletableFuture<>();
                reads.put(target.name(), read);
                Thread.ofVirtual().name("status-" + target.name()).start(() -> {
                    try {
                        slots.acquire();
                        try {
                            read.complete(runner.reports(List.of(target)).get(0));
                        } finally {
                            slots.release();
                        }
                    } catch (InterruptedException | RuntimeException e) {
                        read.completeExceptionally(e);
                    }
                });
            }
            long giveUpAt = System.nanoTime() + patience.toNanos();
            ServiceViews views = new ServiceViews(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
            reads.forEach((name, read) -> {
                try {
                    ChangeRunner.SwitchReport report = read.get(Math.max(0, giveUpAt - System.nanoTime()),
                            TimeUnit.NANOSECONDS);
                    if (report.reachable()) {
                        views.read().put(name, report);
                    } else {
                        views.failed().put(name, "its service went away while status read it");
                    }
                } catch (TimeoutException e) {
                    views.undecided().put(name, "its service did not answer status's reads within "
                            + patience.toSeconds() + " s");
                } catch (ExecutionException e) {
                    views.failed().put(name, String.valueOf(e.getCause().getMessage()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    views.failed().put(name, "interrupted while waiting for it");
                }
            });
            return views;
        }
    }

    /**
     * What status read from the services: each one's view, the ones still held after the patience
     * (undecided), and the ones whose reads failed (their link went down), each with why.
     */
    private record ServiceViews(Map<String, ChangeRunner.SwitchReport> read, Map<String, String> undecided,
            Map<String, String> failed) {
    }

    /** Why a switch's reads did not end: most often a change in doubt holding them; {@code why} says what happened. */
    private static String undecided(String why) {
        return "a change still being decided holds its state (" + why + "): its operator command stopped or was"
                + " killed after the switches voted, or it is committing right now. The next command from this"
                + " operator settles a killed one, the trial's deadline does at the latest; run 'waldoconf status'"
                + " again";
    }

    /**
     * Each switch's drift from what its service intends, read in parallel as plans are
     * ({@link BoundedParallel#SWITCH_READS}); a switch that cannot be read is reported so.
     */
    private List<StatusReport.SwitchStatus> drift(Inventory inventory, Map<String, SwitchState> intended) {
        BoundedParallel.Outcome<String, List<VlanChange>> read = BoundedParallel.SWITCH_READS.run(
                List.copyOf(intended.keySet()), name -> {
                    SwitchEntry entry = inventory.switchNamed(name).orElseThrow();
                    try (VlanDevice device = devices.open(entry, inventory.credentialsOf(entry))) {
                        return VlanDiff.between(device.read(), intended.get(name));
                    }
                });
        List<StatusReport.SwitchStatus> switches = new ArrayList<>();
        for (String name : intended.keySet()) {
            switches.add(read.results().containsKey(name)
                    ? new StatusReport.SwitchStatus(name, true, read.results().get(name), "")
                    : new StatusReport.SwitchStatus(name, false, List.of(),
                            "service answers but the switch does not: " + read.failures().get(name)));
        }
        return switches;
    }

    @Override
    public RunningService startService(ServiceSpec spec) throws EngineException {
        SwitchEntry entry = spec.inventory().switchNamed(spec.switchName()).orElseThrow(() ->
                new EngineException(EngineException.Kind.UNAVAILABLE, "the inventory has no switch named '"
                        + spec.switchName() + "'"));
        if (entry.site().isPresent() && spec.agentNode().isEmpty()) {
            throw new EngineException(EngineException.Kind.UNAVAILABLE, "switch " + entry.name() + " belongs to site "
                    + entry.site().get() + ", whose agent serves it at " + entry.service() + ": run 'waldoconf serve"
                    + " --site " + entry.site().get() + "'");
        }
        NetConfig net = spec.agentNode().isPresent()
                // On its site agent's node, whose certificate speaks for it: the host needs no certificate of its own.
                ? Identities.serviceNet(entry.name(), SwitchServer.netDir(spec.stateDir()), options.security())
                : serviceNet(entry.name(), spec.stateDir())
                        .withHostAuthority(Identities.hostAuthority(spec.inventory()));
        NetNode node = spec.agentNode().orElse(null);
        if (spec.customService().isPresent()) {
            // An operator's own .wld device service (see dev.waldoconf.custom and waldoconf/README.md).
            return dev.waldoconf.custom.CustomService.serve(spec.customService().get(), spec.inventory(), entry,
                    net, node, System.getenv());
        }
        try {
            VlanDevice device = devices.open(entry, spec.inventory().credentialsOf(entry));
            return SwitchServer.start(entry.name(), device, entry.service().resolve(), spec.stateDir(), net, clock,
                    InDoubtRecovery.othersIn(spec.inventory(), entry.name()), node);
        } catch (DeviceException e) {
            throw new EngineException(EngineException.Kind.UNREACHABLE, e.getMessage(), e);
        } catch (IOException e) {
            throw new EngineException(EngineException.Kind.UNAVAILABLE, entry.name() + ": cannot use state directory "
                    + spec.stateDir() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public NetConfig agentNet(Inventory inventory, String site, Path stateDir) throws EngineException {
        NetConfig net = Identities.agentNet(site, stateDir, options.security(), inventory);
        issueCertificate(Identities.siteIdentity(site), net);
        return net;
    }
}
