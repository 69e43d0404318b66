package dev.waldoconf.cli;

import dev.waldo.net.NetConfig;
import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.PlanResolver;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.ChangeEngine;
import dev.waldoconf.engine.ChangeResult;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.PlannedChange;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.engine.StatusReport;
import dev.waldoconf.model.SwitchState;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A change engine for CLI tests: records what it was asked and answers as told. An apply resolves
 * its plan against the switches it {@link #reads}, as the real engine does inside its transaction.
 */
final class FakeEngine implements ChangeEngine {
    final List<String> calls = new ArrayList<>();
    /** The change the last apply was asked for. */
    PlannedChange appliedChange;
    /** The plan the last apply resolved and applied. */
    ResolvedPlan appliedPlan;
    /** The switches an apply reads inside its transaction (the harness's devices). */
    DeviceFactory reads;
    Optional<Duration> appliedTrial;
    EngineException failure;
    /** Thrown instead of answering, as a bug in the engine would. */
    RuntimeException bug;
    ApplyResult.Outcome outcome = ApplyResult.Outcome.COMMITTED;
    StatusReport status = new StatusReport(List.of(), List.of());
    /** How many applies of a reviewed plan answer STALE first, with {@link #replanned} as the plan now. */
    int staleTimes;
    /** The plan as the switches hold it "at commit", what STALE shows. */
    ResolvedPlan replanned;

    @Override
    public ApplyResult apply(PlannedChange change, Optional<Duration> trial, ProgressListener progress)
            throws EngineException, ConfigException {
        calls.add("apply" + (change.reviewed().isPresent() ? "" : " at-commit"));
        failIfTold();
        appliedChange = change;
        appliedTrial = trial;
        if (staleTimes > 0 && change.reviewed().isPresent()) {
            staleTimes--;
            return new ApplyResult("c-42", ApplyResult.Outcome.STALE, Optional.empty(), List.of(),
                    "switch(es) lab-1 changed since the preview; nothing was changed", Optional.of(replanned));
        }
        ResolvedPlan applied = resolve(change);
        appliedPlan = applied;
        List<ApplyResult.SwitchOutcome> switches = new ArrayList<>();
        for (ResolvedPlan.SwitchChange staged : applied.changing()) {
            boolean ok = outcome != ApplyResult.Outcome.REFUSED || !staged.target().name().equals("lab-2");
            progress.onProgress(staged.target().name(), ok ? ProgressListener.Stage.PREPARED
                    : ProgressListener.Stage.REFUSED, ok ? "" : "commitFailed on VLAN 20");
            switches.add(new ApplyResult.SwitchOutcome(staged.target().name(), ok, ok ? "applied"
                    : "refused: commitFailed on VLAN 20"));
        }
        Optional<Instant> deadline = trial.map(t -> Instant.parse("2026-01-01T00:00:00Z").plus(t));
        if (outcome == ApplyResult.Outcome.REFUSED) {
            return new ApplyResult("c-42", outcome, Optional.empty(), switches, "lab-2 refused", Optional.empty());
        }
        return new ApplyResult("c-42", trial.isPresent() ? ApplyResult.Outcome.TRIAL_PENDING
                : ApplyResult.Outcome.COMMITTED, deadline, switches, "", Optional.of(applied));
    }

    @Override
    public ChangeResult confirm(Inventory inventory, Optional<String> changeId, ProgressListener progress)
            throws EngineException {
        calls.add("confirm " + changeId.orElse("-"));
        failIfTold();
        List<String> switches = List.of("lab-1", "lab-2");
        switches.forEach(name -> progress.onProgress(name, ProgressListener.Stage.COMMITTED, "confirmed"));
        return new ChangeResult(changeId.orElse("c-42"), true, switches, "");
    }

    @Override
    public ChangeResult rollback(Inventory inventory, Optional<String> changeId, ProgressListener progress)
            throws EngineException {
        calls.add("rollback " + changeId.orElse("-"));
        failIfTold();
        return new ChangeResult(changeId.orElse("c-42"), true, List.of("lab-1", "lab-2"), "");
    }

    @Override
    public StatusReport status(Inventory inventory) throws EngineException {
        calls.add("status");
        failIfTold();
        return status;
    }

    /** The plan as it resolves against the switches now. */
    private ResolvedPlan resolve(PlannedChange change) throws EngineException, ConfigException {
        Map<String, SwitchState> states = new LinkedHashMap<>();
        for (SwitchEntry entry : change.inventory().switches()) {
            try (VlanDevice device = reads.open(entry, change.inventory().credentialsOf(entry))) {
                states.put(entry.name(), device.read());
            } catch (DeviceException e) {
                throw new EngineException(EngineException.Kind.UNREACHABLE, e.getMessage(), e);
            }
        }
        return PlanResolver.resolve(change.plan(), change.inventory(), states);
    }

    @Override
    public NetConfig agentNet(Inventory inventory, String site, Path stateDir) throws EngineException {
        calls.add("agent " + site);
        failIfTold();
        return NetConfig.defaults("site-" + site, stateDir).insecure();
    }

    @Override
    public RunningService startService(ServiceSpec spec) throws EngineException {
        calls.add("serve " + spec.switchName());
        failIfTold();
        return new RunningService() {
            @Override
            public String switchName() {
                return spec.switchName();
            }

            @Override
            public void awaitTermination() {
            }

            @Override
            public void close() {
            }
        };
    }

    private void failIfTold() throws EngineException {
        if (bug != null) {
            throw bug;
        }
        if (failure != null) {
            throw failure;
        }
    }
}
