package dev.waldoconf.engine;

import dev.waldo.net.NetConfig;
import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.Inventory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The transactional part behind {@link dev.waldoconf.WaldoConf}: apply a resolved plan to every
 * switch as one distributed transaction (optionally as a trial that reverts by itself), confirm or
 * roll back a trial, report status, and run the per-switch service. Callers use the facade, which
 * adds reading and planning, device wiring and the operator's identity; this interface is the seam
 * where the facade takes {@link dev.waldoconf.service.WaldoConfEngine} or, in tests of its callers,
 * a fake.
 *
 * <p>Failures are {@link EngineException}s whose {@link EngineException.Kind} says why (the CLI maps
 * it to its exit codes); their messages name the switch and what to do next, and never contain secrets.
 */
public interface ChangeEngine extends AutoCloseable {
    /**
     * Applies {@code change} in one transaction: every switch is read inside it, the plan is
     * resolved against those reads (so VLANs the plan does not manage keep whatever they hold at
     * commit), and every switch that changes moves to its new state, or none does.
     *
     * @param change the plan, and the fingerprints of the preview a person reviewed, if any: then a
     *     switch whose fingerprint differs at commit makes nothing change, and the outcome is
     *     {@link ApplyResult.Outcome#STALE} with the plan as it resolves now; without them the plan is
     *     applied as it resolves at commit (the result carries it)
     * @param trial when present, the change reverts on every switch after this long unless confirmed
     * @param progress told about each switch as the change proceeds
     * @return the outcome; {@link ApplyResult.Outcome#REFUSED} when a switch voted no and every switch was undone
     * @throws ConfigException when the plan cannot be applied to what the switches hold at commit (nothing changed)
     * @throws EngineException when the change could not be made (a service unreachable, a pending trial on a
     *     switch that would change); its message says which switches may hold what
     */
    ApplyResult apply(PlannedChange change, Optional<Duration> trial, ProgressListener progress)
            throws EngineException, ConfigException;

    /**
     * Keeps a pending trial on every switch of it, reporting to {@code progress} as the
     * switches' services are connected and as each switch keeps the change.
     *
     * @param changeId the trial's change id; empty for the only pending trial
     * @throws EngineException when there is no such trial, or several and no id was given
     */
    ChangeResult confirm(Inventory inventory, Optional<String> changeId, ProgressListener progress)
            throws EngineException;

    /**
     * Reverts a pending trial now, on every switch that holds it, as one transaction: every such
     * switch goes back to its state before the trial, or none does. Only pending trials can be
     * rolled back; a committed (or confirmed) change stays, and is undone by applying a plan.
     *
     * @param changeId the trial's change id; empty for the only pending trial
     * @throws EngineException {@link EngineException.Kind#CONFLICT} when no such trial is pending, or several
     *     and no id was given; {@link EngineException.Kind#REFUSED} when the rollback failed and changed nothing
     */
    ChangeResult rollback(Inventory inventory, Optional<String> changeId, ProgressListener progress)
            throws EngineException;

    /** Pending trials with deadlines, each switch's reachability, and drift from the intended state. */
    StatusReport status(Inventory inventory) throws EngineException;

    /**
     * Starts the WaldoConf service of one switch ({@code waldoconf serve}, and one per switch
     * under {@code waldoconf lab up}). It runs until the returned handle is closed.
     */
    RunningService startService(ServiceSpec spec) throws EngineException;

    /**
     * How the node of site {@code site}'s agent ({@code waldoconf serve --site}) talks to operators
     * and other services, with its own state (TLS key and certificate) in {@code stateDir}: under
     * mutual TLS its certificate is issued from the project CA on its first start.
     *
     * @throws EngineException if its certificate cannot be issued
     */
    NetConfig agentNet(Inventory inventory, String site, Path stateDir) throws EngineException;

    /** Releases connections; the default has nothing to release. */
    @Override
    default void close() {
    }
}
