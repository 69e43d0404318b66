package dev.waldoconf.custom;

import static dev.waldoconf.custom.NetSnmpAgents.readText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldo.net.NetConfig;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldoconf.config.AgentTargets;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.service.SwitchServer;
import dev.waldoconf.service.TrialTimer;
import dev.waldoconf.snmp.SnmpScalars;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trials of the built-in system-group service against three REAL net-snmp agents on loopback, one
 * service per snmpd: {@code waldoconf call system-group ... --trial} stages sysLocation and
 * sysContact on all three; each service reverts its own agent at the deadline unless the trial is
 * confirmed, also after the services restarted; a rollback reverts all three at once. What the
 * agents hold is read over SNMP with the read-only community, as any manager would.
 */
class SystemGroupTrialNetSnmpTest {
    private static final String CHANGE = "SystemGroupChange";
    /** Short, so the tests wait little; whole seconds, as deadlines are. */
    private static final Duration TRIAL = Duration.ofSeconds(6);
    /** How long past a deadline a revert may take at most before the test gives up: recheck, SETs. */
    private static final Duration GRACE = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static NetSnmpAgents snmpd;
    private static final List<NetSnmpAgents.Agent> agents = new ArrayList<>();
    private static CustomProgram program;
    private static Inventory inventory;
    private final List<SwitchServer> services = new ArrayList<>();
    /** Numbers each test, so tests share no state directory and no pinned certificates. */
    private static final AtomicInteger RUNS = new AtomicInteger();
    private final int run = RUNS.incrementAndGet();

    @BeforeAll
    static void startAgents() throws Exception {
        snmpd = NetSnmpAgents.in(dir);
        for (int i = 1; i <= 3; i++) {
            agents.add(snmpd.start("trial-agent-" + i));
        }
        program = CustomProgram.check(Path.of("system-group")).load();
        Map<String, InetSocketAddress> snmp = new LinkedHashMap<>();
        agents.forEach(agent -> snmp.put(agent.name(), agent.address()));
        inventory = TestInventories.write(dir, snmp, "", NetSnmpAgents.WRITE, NetSnmpAgents.READ);
    }

    @AfterAll
    static void stopAgents() throws InterruptedException {
        if (snmpd != null) {
            snmpd.close();
        }
    }

    @BeforeEach
    void setBaseline() throws Exception {
        NetSnmpAgents.setBaseline(agents);
    }

    @AfterEach
    void stopServices() {
        services.forEach(SwitchServer::close);
        services.clear();
    }

    @Test
    void aTrialRevertsOnEveryAgentAtItsDeadline() throws Exception {
        serve();
        CustomCall.Staged staged;
        try (CustomCall call = connect()) {
            staged = stage(call, "rack 21", TRIAL);
            assertThat(staged.result()).isEqualTo(3.0);
            assertThat(call.pendingTrials()).singleElement().satisfies(trial -> {
                assertThat(trial.change()).isEqualTo(staged.change());
                assertThat(trial.pendingOn()).containsExactly("trial-agent-1", "trial-agent-2", "trial-agent-3");
            });
        }
        assertLocations("rack 21");

        awaitReverted(staged.deadline());

        assertLocations(null);
        for (NetSnmpAgents.Agent agent : agents) {
            assertThat(readText(agent, SnmpScalars.SYS_CONTACT)).isEqualTo("nobody");
        }
        try (CustomCall call = connect()) {
            assertThat(call.pendingTrials()).isEmpty();
            // The services read the agents afresh: they report the reverted values, and setting the
            // trial's value again SETs it.
            assertThat(call.call(CHANGE, "show", List.of()).toString()).contains("trial-agent-2: before trial-agent-2");
            call.call(CHANGE, "set_all", List.of("rack 21", "noc@example.net"));
        }
        assertLocations("rack 21");
    }

    @Test
    void aConfirmedTrialStaysPastItsDeadline() throws Exception {
        serve();
        try (CustomCall call = connect()) {
            CustomCall.Staged staged = stage(call, "rack 22", TRIAL);

            assertThat(call.confirm(staged.change())).hasSize(3);

            sleepPast(staged.deadline().plus(TrialTimer.RECHECK_INTERVAL));
            assertThat(call.pendingTrials()).isEmpty();
        }
        assertLocations("rack 22");
    }

    @Test
    void aRollbackRevertsEveryAgentAtOnce() throws Exception {
        serve();
        try (CustomCall call = connect()) {
            CustomCall.Staged staged = stage(call, "rack 23", Duration.ofMinutes(10));
            assertLocations("rack 23");

            assertThat(call.rollback(staged.change())).hasSize(3);

            assertLocations(null);
            IllegalArgumentException again = catchThrowableOfType(IllegalArgumentException.class,
                    () -> call.rollback(staged.change()));
            assertThat(again).hasMessageContaining("no trial " + staged.change() + " is pending");
        }
    }

    @Test
    void aPendingTrialBlocksAnotherChangeUntilItEnds() throws Exception {
        serve();
        try (CustomCall call = connect()) {
            CustomCall.Staged staged = stage(call, "rack 24", Duration.ofMinutes(10));

            TransactionAbortedException refused = catchThrowableOfType(TransactionAbortedException.class,
                    () -> call.call(CHANGE, "set_all", List.of("rack 25", "ops@example.net")));

            assertThat(refused).hasMessageContaining("trial " + staged.change() + " is pending");
            assertLocations("rack 24");
            call.confirm(staged.change());
            call.call(CHANGE, "set_all", List.of("rack 25", "ops@example.net"));
        }
        assertLocations("rack 25");
    }

    @Test
    void aTrialRevertsAtItsDeadlineAfterTheServicesRestarted() throws Exception {
        serve();
        CustomCall.Staged staged;
        try (CustomCall call = connect()) {
            staged = stage(call, "rack 26", TRIAL);
        }
        stopServices();
        assertLocations("rack 26");

        serve();
        try (CustomCall call = connect()) {
            assertThat(call.pendingTrials()).singleElement()
                    .satisfies(trial -> assertThat(trial.change()).isEqualTo(staged.change()));
        }
        awaitReverted(staged.deadline());

        assertLocations(null);
    }

    /** Stages location {@code location} (contact noc@example.net) on every agent as a trial of {@code trial}. */
    private static CustomCall.Staged stage(CustomCall call, String location, Duration trial) {
        return call.callAsTrial(CHANGE, "set_all", List.of(location, "noc@example.net"), trial, Clock.systemUTC());
    }

    /** Starts one service per agent, with this test's state directories. */
    private void serve() throws Exception {
        for (SwitchEntry entry : inventory.switches()) {
            SnmpScalars agent = SnmpScalars.open(entry.name(),
                    AgentTargets.of(entry, inventory.credentialsOf(entry), Map.of()));
            services.add(CustomService.serve(entry.name(), program, agent, new InetSocketAddress(
                    entry.service().host(), entry.service().port()), NetConfig.defaults("switch-" + entry.name(),
                    dir.resolve("served-" + run).resolve(entry.name()))));
        }
    }

    private CustomCall connect() {
        return CustomCall.connect(program, TestInventories.services(inventory),
                NetConfig.defaults("operator-trial-" + run, dir.resolve("operator-" + run)));
    }

    /** Waits, a bounded time past {@code deadline}, until every agent holds its old location again. */
    private static void awaitReverted(Instant deadline) throws Exception {
        sleepPast(deadline);
        Instant giveUp = deadline.plus(GRACE);
        while (!allReverted() && Instant.now().isBefore(giveUp)) {
            Thread.sleep(250);
        }
    }

    private static boolean allReverted() throws Exception {
        for (NetSnmpAgents.Agent agent : agents) {
            if (!readText(agent, SnmpScalars.SYS_LOCATION).equals("before " + agent.name())) {
                return false;
            }
        }
        return true;
    }

    private static void sleepPast(Instant moment) throws InterruptedException {
        long wait = Duration.between(Instant.now(), moment).toMillis();
        if (wait > 0) {
            Thread.sleep(wait + 500);
        }
    }

    /** Every agent's sysLocation is {@code location}, or, for null, what it held before the test. */
    private static void assertLocations(String location) throws Exception {
        for (NetSnmpAgents.Agent agent : agents) {
            assertThat(readText(agent, SnmpScalars.SYS_LOCATION)).as(agent.name())
                    .isEqualTo(location == null ? "before " + agent.name() : location);
        }
    }

}
