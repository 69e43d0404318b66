package dev.waldoconf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.Security;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.custom.CustomProgram;
import dev.waldoconf.custom.TestInventories;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.ChangeResult;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.engine.StatusReport;
import dev.waldoconf.lab.Lab;
import dev.waldoconf.lab.SwitchConfig;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * WaldoConf used as a library, without the CLI: the facade opens the switches over SNMP itself,
 * runs their services, and plans, applies, reports and rolls back through them.
 */
@Timeout(120)
class WaldoConfTest {
    /** VLAN 60 tagged on port 20 of every switch: a small change that touches every switch. */
    static final String P60 = """
            vlans:
              - id: 60
                name: p60
                ports:
                  - group: all
                    tagged: 20
            """;

    @TempDir
    Path dir;
    private Lab lab;
    private final List<RunningService> services = new ArrayList<>();

    @AfterEach
    void stop() {
        services.forEach(RunningService::close);
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    void plansAppliesATrialReportsItAndRollsItBack() throws Exception {
        Inventory inventory = labInventory(2);
        EngineOptions options = new EngineOptions(Security.INSECURE).withOperatorState(dir.resolve("operator"));
        try (WaldoConf waldoconf = WaldoConf.open(options, Map.of())) {
            assertThat(waldoconf.operatorState()).isEqualTo(dir.resolve("operator"));
            serveEverySwitch(waldoconf, inventory);
            ResolvedPlan plan = waldoconf.plan(Files.writeString(dir.resolve("p60.yaml"), P60), inventory);
            assertThat(plan.changing()).hasSize(2);

            ApplyResult trial = waldoconf.apply(plan, Optional.of(Duration.ofMinutes(5)), true, ProgressListener.NONE);
            assertThat(trial.outcome()).as(trial.message()).isEqualTo(ApplyResult.Outcome.TRIAL_PENDING);
            StatusReport status = waldoconf.status(inventory);
            assertThat(status.pendingTrials()).extracting(StatusReport.PendingTrial::changeId)
                    .containsExactly(trial.changeId());
            // Each switch read (in parallel) and compared with what its service intends: the trial's state.
            assertThat(status.switches()).extracting(StatusReport.SwitchStatus::switchName)
                    .containsExactly("lab-1", "lab-2");
            assertThat(status.switches()).allSatisfy(sw -> {
                assertThat(sw.reachable()).as(sw.detail()).isTrue();
                assertThat(sw.drift()).isEmpty();
            });
            for (SwitchEntry entry : inventory.switches()) {
                assertThat(waldoconf.read(inventory, entry).vlans()).as(entry.name()).containsKey(60);
            }

            ChangeResult back = waldoconf.rollback(inventory, Optional.empty(), ProgressListener.NONE);
            assertThat(back.ok()).isTrue();
            assertThat(back.switches()).containsExactly("lab-1", "lab-2");
            for (SwitchEntry entry : inventory.switches()) {
                assertThat(waldoconf.read(inventory, entry).vlans()).as(entry.name()).doesNotContainKey(60);
            }
            assertThatThrownBy(() -> waldoconf.confirm(inventory, Optional.empty(), ProgressListener.NONE))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.kind())
                            .isEqualTo(EngineException.Kind.CONFLICT))
                    .hasMessage("no trial is pending");
        }
    }

    @Test
    void planNamesTheSwitchItCannotRead() throws Exception {
        Map<String, InetSocketAddress> agents = new LinkedHashMap<>();
        // Nothing answers SNMP on the discard port of loopback.
        agents.put("gone-1", new InetSocketAddress("127.0.0.1", 9));
        Inventory inventory = TestInventories.write(dir, agents, "", "private", "public");
        try (WaldoConf waldoconf = WaldoConf.open(new EngineOptions(Security.INSECURE), Map.of())) {
            Path planFile = Files.writeString(dir.resolve("p60.yaml"), P60);
            assertThatThrownBy(() -> waldoconf.plan(planFile, inventory))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.kind())
                            .isEqualTo(EngineException.Kind.UNREACHABLE))
                    .hasMessageStartingWith("cannot read 1 of 1 switches; nothing was changed:\n  gone-1: ");
        }
    }

    @Test
    void callWithoutAnOperatorCertificateSaysHowToGetOne() throws Exception {
        Inventory inventory = labInventory(1);
        CustomProgram program = CustomProgram.check(Path.of("system-group"));
        Path operator = dir.resolve("no-operator");
        try (WaldoConf waldoconf = WaldoConf.open(EngineOptions.DEFAULTS.withOperatorState(operator), Map.of())) {
            assertThatThrownBy(() -> waldoconf.call(program, inventory.switches(), "SystemGroupChange", "set_all",
                    List.of("rack 12", "noc@example.net")))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.kind())
                            .isEqualTo(EngineException.Kind.UNAVAILABLE))
                    .hasMessageContaining("no operator certificate in " + operator)
                    .hasMessageContaining("'waldoconf init'");
        }
    }

    /** An inventory of {@code count} simulated lab switches, reached over SNMP with a community from a file. */
    private Inventory labInventory(int count) throws Exception {
        lab = Lab.start(count, SwitchConfig.named("lab"), null);
        Map<String, InetSocketAddress> agents = new LinkedHashMap<>();
        lab.switches().forEach(sw -> agents.put(sw.name(), sw.snmpAddress()));
        return TestInventories.write(dir, agents, "", "private", "public");
    }

    private void serveEverySwitch(WaldoConf waldoconf, Inventory inventory) throws EngineException {
        for (SwitchEntry entry : inventory.switches()) {
            services.add(waldoconf.serve(new ServiceSpec(inventory, entry.name(), dir.resolve("service-"
                    + entry.name()), Optional.empty())));
        }
    }
}
