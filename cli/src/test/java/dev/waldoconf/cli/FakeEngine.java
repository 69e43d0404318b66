package dev.waldoconf.cli;

import dev.waldo.net.NetConfig;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.ChangeEngine;
import dev.waldoconf.engine.ChangeResult;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.engine.StatusReport;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A change engine for CLI tests: records what it was asked and answers as told. */
final class FakeEngine implements ChangeEngine {
    final List<String> calls = new ArrayList<>();
    ResolvedPlan appliedPlan;
    Optional<Duration> appliedTrial;
    EngineException failure;
    /** Thrown instead of answering, as a bug in the engine would. */
    RuntimeException bug;
    ApplyResult.Outcome outcome = ApplyResult.Outcome.COMMITTED;
    StatusReport status = new StatusReport(List.of(), List.of());
    /** How many applies that refuse stale plans answer STALE first, with {@link #replanned} as the plan now. */
    int staleTimes;
    /** The plan as the switches hold it "at commit": what STALE shows and what an apply at commit applies. */
    ResolvedPlan replanned;

    @Override
    public ApplyResult apply(ResolvedPlan plan, Optional<Duration> trial, boolean refuseIfChanged,
            ProgressListener progress) throws EngineException {
        calls.add("apply" + (refuseIfChanged ? "" : " at-commit"));
        failIfTold();
        appliedPlan = plan;
        appliedTrial = trial;
        if (staleTimes > 0 && refuseIfChanged) {
            staleTimes--;
            return new ApplyResult("c-42", ApplyResult.Outcome.STALE, Optional.empty(), List.of(),
                    "switch(es) lab-1 changed since the preview; nothing was changed", Optional.of(replanned));
        }
        ResolvedPlan applied = replanned != null && !refuseIfChanged ? replanned : plan;
        List<ApplyResult.SwitchOutcome> switches = new ArrayList<>();
        for (ResolvedPlan.SwitchChange change : applied.changing()) {
            boolean ok = outcome != ApplyResult.Outcome.REFUSED || !change.target().name().equals("lab-2");
            progress.onProgress(change.target().name(), ok ? ProgressListener.Stage.PREPARED
                    : ProgressListener.Stage.REFUSED, ok ? "" : "commitFailed on VLAN 20");
            switches.add(new ApplyResult.SwitchOutcome(change.target().name(), ok, ok ? "applied"
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
