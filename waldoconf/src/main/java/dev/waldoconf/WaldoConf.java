package dev.waldoconf;

import dev.waldo.net.NetConfig;
import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.PlanLoader;
import dev.waldoconf.config.PlanResolver;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.custom.CustomCall;
import dev.waldoconf.custom.CustomProgram;
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
import dev.waldoconf.service.OperatorSession;
import dev.waldoconf.service.WaldoConfEngine;
import dev.waldoconf.snmp.SnmpDeviceFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * WaldoConf as a library: plan, apply, confirm, rollback, status, serve and call, the operations
 * of the {@code waldoconf} command, for Java callers and for the command itself.
 *
 * <p>It owns the wiring those operations share: how switches are opened (SNMP, secrets read from
 * the environment just before use), where the operator's identity lives (its certificate from the
 * project CA, or under {@code --tofu} the service certificates it pinned; {@link
 * #DEFAULT_OPERATOR_STATE} unless {@link EngineOptions#operatorState()} says otherwise), and how the
 * operator and the services authenticate each other ({@link EngineOptions#security()}).
 *
 * <p>Failures are checked exceptions: {@link ConfigException} for an inventory, plan or program that
 * cannot be used (each problem at file:line:col), {@link EngineException} for a change that could not
 * be made, whose {@link EngineException.Kind} says why. Messages name the switch and what to do
 * next, and never contain secrets.
 */
public final class WaldoConf implements AutoCloseable {
    /** Where the operator's key and certificate live unless the options name another directory. */
    public static final String DEFAULT_OPERATOR_STATE_NAME = ".waldoconf/operator";
    /** {@link #DEFAULT_OPERATOR_STATE_NAME} as a path. */
    public static final Path DEFAULT_OPERATOR_STATE = Path.of(DEFAULT_OPERATOR_STATE_NAME);

    /** How switches are read for a plan unless {@link #readingWith} says otherwise: {@link BoundedParallel#SWITCH_READS}. */
    public static final BoundedParallel READS = BoundedParallel.SWITCH_READS;

    private final DeviceFactory devices;
    private final ChangeEngine engine;
    private final EngineOptions options;
    private final BoundedParallel reads;

    private WaldoConf(DeviceFactory devices, ChangeEngine engine, EngineOptions options, BoundedParallel reads) {
        this.devices = Objects.requireNonNull(devices, "devices");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.options = Objects.requireNonNull(options, "options");
        this.reads = Objects.requireNonNull(reads, "reads");
    }

    /**
     * This WaldoConf, reading switches for plans as {@code reads} says (how many at once, and how
     * long one switch may take) instead of {@link #READS}: for networks of slow switches, and tests.
     */
    public WaldoConf readingWith(BoundedParallel reads) {
        return new WaldoConf(devices, engine, options, reads);
    }

    /**
     * WaldoConf on real switches: SNMP with secrets from {@code environment} (or their files), and
     * WaldoConf's change engine reaching the switches' services as {@code options} ask.
     */
    public static WaldoConf open(EngineOptions options, Map<String, String> environment) {
        DeviceFactory devices = new SnmpDeviceFactory(environment);
        return new WaldoConf(devices, new WaldoConfEngine(devices, operatorState(options), Clock.systemUTC(),
                options), options, READS);
    }

    /**
     * WaldoConf with its switches opened by {@code devices} and its changes made by {@code engine}:
     * for switches that are not reached over SNMP (simulated ones, tests) and for tests of callers.
     */
    public static WaldoConf of(DeviceFactory devices, ChangeEngine engine, EngineOptions options) {
        return new WaldoConf(devices, engine, options, READS);
    }

    /** Where this operator's key and certificate (or pinned service certificates) live. */
    public Path operatorState() {
        return operatorState(options);
    }

    private static Path operatorState(EngineOptions options) {
        return options.operatorState().orElse(DEFAULT_OPERATOR_STATE);
    }

    /** The options this WaldoConf was opened with. */
    public EngineOptions options() {
        return options;
    }

    /**
     * What applying {@code planFile} would change: reads every switch of {@code inventory} at once and
     * resolves the plan against what they hold. Changes nothing.
     *
     * @throws ConfigException when the plan is invalid or does not fit the switches (each problem at file:line:col)
     * @throws EngineException ({@link EngineException.Kind#UNREACHABLE}) naming every switch that could not be read
     */
    public ResolvedPlan plan(Path planFile, Inventory inventory) throws ConfigException, EngineException {
        return plan(planFile, inventory, ProgressListener.NONE);
    }

    /**
     * As {@link #plan(Path, Inventory)}, telling {@code progress} about each switch as it is read
     * ({@link Stage#READ}) or cannot be ({@link Stage#UNREACHABLE}, with why).
     */
    public ResolvedPlan plan(Path planFile, Inventory inventory, ProgressListener progress)
            throws ConfigException, EngineException {
        var plan = PlanLoader.load(planFile, inventory);
        return PlanResolver.resolve(plan, inventory, readAll(inventory, progress));
    }

    /**
     * Applies a plan from {@link #plan} to every switch in one transaction; {@code refuseIfChanged}
     * makes a switch whose part of the preview changed since refuse it (see {@link ChangeEngine#apply}).
     */
    public ApplyResult apply(ResolvedPlan preview, Optional<Duration> trial, boolean refuseIfChanged,
            ProgressListener progress) throws EngineException, ConfigException {
        return engine.apply(PlannedChange.of(preview, refuseIfChanged), trial, progress);
    }

    /**
     * Applies {@code planFile} to every switch of {@code inventory} in one transaction without a
     * preview: the switches are read once, inside the transaction, and the plan is applied as it
     * resolves against those reads; the result carries it (see {@link ChangeEngine#apply}).
     *
     * @throws ConfigException if the plan does not fit the inventory, or the switches at commit (nothing changed)
     */
    public ApplyResult apply(Path planFile, Inventory inventory, Optional<Duration> trial, ProgressListener progress)
            throws EngineException, ConfigException {
        return engine.apply(PlannedChange.unreviewed(PlanLoader.load(planFile, inventory), inventory), trial, progress);
    }

    /** Keeps a pending trial on every switch of it; see {@link ChangeEngine#confirm}. */
    public ChangeResult confirm(Inventory inventory, Optional<String> changeId, ProgressListener progress)
            throws EngineException {
        return engine.confirm(inventory, changeId, progress);
    }

    /** Reverts a pending trial now on every switch of it, or none; see {@link ChangeEngine#rollback}. */
    public ChangeResult rollback(Inventory inventory, Optional<String> changeId, ProgressListener progress)
            throws EngineException {
        return engine.rollback(inventory, changeId, progress);
    }

    /** Pending trials, each switch's reachability and drift; see {@link ChangeEngine#status}. */
    public StatusReport status(Inventory inventory) throws EngineException {
        return engine.status(inventory);
    }

    /** Starts one switch's service until the handle is closed; see {@link ChangeEngine#startService}. */
    public RunningService serve(ServiceSpec spec) throws EngineException {
        return engine.startService(spec);
    }

    /** How site {@code site}'s agent runs its node; see {@link ChangeEngine#agentNet}. */
    public NetConfig agentNet(Inventory inventory, String site, Path stateDir) throws EngineException {
        return engine.agentNet(inventory, site, stateDir);
    }

    /**
     * Calls {@code kind.function} of a coordinator Service in {@code program} across the custom services
     * of {@code switches} (run by {@code serve --service}) as one transaction, as this operator.
     *
     * @param arguments the function's arguments after the services (see {@link CustomCall#arguments})
     * @return the switches that committed, in order, and the function's result (null when it returns nothing)
     * @throws EngineException {@link EngineException.Kind#REFUSED} when a switch refused, the program aborted
     *     or failed (no switch changed); {@link EngineException.Kind#UNREACHABLE} when a service did not
     *     answer; {@link EngineException.Kind#UNAVAILABLE} when this operator has no identity to connect with
     */
    public CallResult call(CustomProgram program, List<SwitchEntry> switches, String kind, String function,
            List<Object> arguments) throws EngineException {
        return onServices(program, switches, kind + "." + function,
                call -> new CallResult(call.names(), call.call(kind, function, arguments)));
    }

    /**
     * Like {@link #call}, as a trial: every switch's service reverts the change by itself after
     * {@code trial} unless {@link #confirmCall} comes first.
     *
     * @return the staged trial: its id, deadline and the function's result
     * @throws EngineException as {@link #call} does; {@link EngineException.Kind#CONFLICT} when a trial is
     *     already pending on a switch
     */
    public CustomCall.Staged callAsTrial(CustomProgram program, List<SwitchEntry> switches, String kind,
            String function, List<Object> arguments, Duration trial) throws EngineException {
        return onServices(program, switches, kind + "." + function,
                call -> call.callAsTrial(kind, function, arguments, trial, Clock.systemUTC()));
    }

    /**
     * Keeps custom trial {@code change} on every switch of {@code switches} where it is pending, in one
     * transaction.
     *
     * @return the switches that kept it
     * @throws EngineException {@link EngineException.Kind#CONFLICT} when no such trial is pending
     */
    public List<String> confirmCall(CustomProgram program, List<SwitchEntry> switches, String change)
            throws EngineException {
        return onServices(program, switches, "confirm " + change, call -> call.confirm(change));
    }

    /** Reverts custom trial {@code change} at once on every switch where it is pending; see {@link #confirmCall}. */
    public List<String> rollbackCall(CustomProgram program, List<SwitchEntry> switches, String change)
            throws EngineException {
        return onServices(program, switches, "rollback " + change, call -> call.rollback(change));
    }

    /** The custom trials pending on the services of {@code switches}. */
    public List<CustomCall.PendingTrial> callTrials(CustomProgram program, List<SwitchEntry> switches)
            throws EngineException {
        return onServices(program, switches, "list trials", CustomCall::pendingTrials);
    }

    /** One thing done on the custom services of {@code switches}, its failures as EngineExceptions. */
    private <T> T onServices(CustomProgram program, List<SwitchEntry> switches, String what,
            java.util.function.Function<CustomCall, T> action) throws EngineException {
        try (CustomCall call = CustomCall.connect(program.load(), OperatorSession.servicesOf(switches),
                operator())) {
            return action.apply(call);
        } catch (TransactionAbortedException e) {
            throw new EngineException(EngineException.Kind.REFUSED, (e.reason() == TransactionAbortedException
                    .Reason.ABORT_CALLED ? "the program called abort()" : "refused: " + e.getMessage())
                    + "; no switch was changed", e);
        } catch (ApplicationException e) {
            throw new EngineException(EngineException.Kind.REFUSED, what + " failed: " + e.getMessage()
                    + "; no switch was changed", e);
        } catch (NetworkException e) {
            throw new EngineException(EngineException.Kind.UNREACHABLE, e.getMessage() + "; no switch was changed",
                    e);
        } catch (IllegalArgumentException e) {
            throw new EngineException(EngineException.Kind.CONFLICT, e.getMessage(), e);
        }
    }

    /**
     * How a {@link #call} ended.
     *
     * @param switches the switches whose services committed, in the order the coordinator got them
     * @param result what the function returned, or null when it returns nothing
     */
    public record CallResult(List<String> switches, Object result) {
        /** Copies the list. */
        public CallResult {
            switches = List.copyOf(switches);
        }
    }

    /** This operator: its identity and pins, one store for apply and call alike. */
    private OperatorSession.Operator operator() {
        return new OperatorSession.Operator(operatorState(), options.security());
    }

    /** Reads one switch's VLAN state directly over its device (e.g. to see whether it answers). */
    public SwitchState read(Inventory inventory, SwitchEntry entry) throws DeviceException {
        try (VlanDevice device = devices.open(entry, inventory.credentialsOf(entry))) {
            return device.read();
        }
    }

    /**
     * Every switch's state, read in parallel (as {@link #readingWith} set, {@link #READS} unless told),
     * each reported to {@code progress} as {@link Stage#READ} or, with why, {@link Stage#UNREACHABLE}.
     *
     * @throws EngineException (unreachable) naming every switch that could not be read and why
     */
    private Map<String, SwitchState> readAll(Inventory inventory, ProgressListener progress) throws EngineException {
        Map<String, SwitchEntry> byName = new LinkedHashMap<>();
        inventory.switches().forEach(entry -> byName.put(entry.name(), entry));
        BoundedParallel.Outcome<String, SwitchState> read = reads.run(List.copyOf(byName.keySet()), name -> {
            SwitchState state = read(inventory, byName.get(name));
            progress.onProgress(name, Stage.READ, "");
            return state;
        });
        List<String> failures = new ArrayList<>();
        read.failures().forEach((name, reason) -> {
            progress.onProgress(name, Stage.UNREACHABLE, reason);
            failures.add("  " + (reason.startsWith(name + ":") ? reason : name + ": " + reason));
        });
        if (!failures.isEmpty()) {
            throw new EngineException(EngineException.Kind.UNREACHABLE, "cannot read " + failures.size() + " of "
                    + inventory.switches().size() + " switches; nothing was changed:\n" + String.join("\n", failures)
                    + "\nCheck that the switches are up (for the lab: 'waldoconf lab status') and the inventory's"
                    + " addresses and credentials.");
        }
        return read.results();
    }

    /** Releases the engine's connections. */
    @Override
    public void close() {
        engine.close();
    }
}
