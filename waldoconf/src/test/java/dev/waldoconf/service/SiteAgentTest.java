package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.Security;
import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.lab.model.SnmpError;
import dev.waldoconf.snmp.SharedSnmp;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A site agent ({@code waldoconf serve --site SITE}) serving three lab switches of one site in
 * this JVM behind the site's one address, started through the real engine as the command starts
 * it, and changed by a real operator over loopback: each switch stays its own participant.
 */
@Timeout(180)
class SiteAgentTest {
    private static final String SITE = "north";
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** Short, so that the test of a switch coming back does not wait the default 10 s. */
    private static final SiteAgent.Settings SETTINGS = new SiteAgent.Settings(2, 3, Duration.ofMillis(300));

    @TempDir
    Path dir;
    private final List<SimulatedSwitch> switches = new ArrayList<>();
    private final List<SiteAgent> agents = new ArrayList<>();
    private Inventory inventory;
    private WaldoConf waldoconf;

    @BeforeEach
    void startSwitches() throws Exception {
        for (int i = 1; i <= 3; i++) {
            switches.add(SimulatedSwitch.start(SwitchConfig.named("lab-" + i).withSnmpPort(0).withControlPort(-1)));
        }
        inventory = writeInventory();
        waldoconf = WaldoConf.open(new EngineOptions(Security.INSECURE).withOperatorState(dir.resolve("operator")),
                Map.of());
    }

    @AfterEach
    void stop() {
        agents.forEach(SiteAgent::close);
        if (waldoconf != null) {
            waldoconf.close();
        }
        switches.forEach(SimulatedSwitch::close);
    }

    /** Three switches of site north, whose agent serves them at the site's one address. */
    private Inventory writeInventory() throws Exception {
        Files.writeString(dir.resolve("community"), "private\n");
        StringBuilder yaml = new StringBuilder("sites:\n  " + SITE + ": {service: 127.0.0.1:" + freeTcpPort()
                + "}\nswitches:\n");
        for (SimulatedSwitch sw : switches) {
            yaml.append("  - {name: ").append(sw.name())
                    .append(", snmp: 127.0.0.1:").append(sw.snmpAddress().getPort())
                    .append(", version: '2c', credentials: lab, site: ").append(SITE).append("}\n");
        }
        yaml.append("credentials:\n  lab: {community: {file: community}}\n");
        return InventoryLoader.load(Files.writeString(dir.resolve("inventory.yaml"), yaml.toString()));
    }

    /**
     * The operator's inventory of lab-1 and lab-2 only, at the same addresses: a change planned with
     * it reads and changes those two, as an operator changes part of a site whose third switch is down.
     */
    private Inventory pairInventory() throws Exception {
        String all = Files.readString(inventory.file());
        String pair = all.lines().filter(line -> !line.contains("name: lab-3"))
                .reduce("", (text, line) -> text + line + "\n");
        return InventoryLoader.load(Files.writeString(dir.resolve("pair.yaml"), pair));
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private SiteAgent startAgent() throws Exception {
        Path services = dir.resolve("services");
        SiteAgent agent = SiteAgent.start(inventory, SITE, services,
                waldoconf.agentNet(inventory, SITE, SiteAgent.agentDir(services, SITE)), Optional.empty(), SETTINGS,
                waldoconf::serve, SiteAgent.Events.NONE);
        agents.add(agent);
        return agent;
    }

    private ResolvedPlan plan(int vlan, String group) throws Exception {
        return plan(vlan, group, inventory);
    }

    private ResolvedPlan plan(int vlan, String group, Inventory of) throws Exception {
        Path file = Files.writeString(dir.resolve("vlan-" + vlan + ".yaml"), """
                vlans:
                  - id: %d
                    name: v%d
                    ports:
                      - group: %s
                        tagged: 20
                """.formatted(vlan, vlan, group));
        return waldoconf.plan(file, of);
    }

    private ApplyResult apply(ResolvedPlan plan, Optional<Duration> trial) throws Exception {
        return waldoconf.apply(plan, trial, true, ProgressListener.NONE);
    }

    private boolean holds(int index, int vlan) throws DeviceException {
        SwitchEntry entry = inventory.switches().get(index);
        return waldoconf.read(inventory, entry).vlans().containsKey(vlan);
    }

    @Test
    void servesEverySwitchOfTheSiteAtOneAddressOnSharedThreadsAndAppliesOneChangeThroughIt() throws Exception {
        SiteAgent agent = startAgent();
        assertThat(agent.serving()).containsExactly("lab-1", "lab-2", "lab-3");
        assertThat(agent.waiting()).isEmpty();
        assertThat(agent.address()).isEqualTo(inventory.sites().get(SITE).resolve());
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .as("the switches' hosts run on the agent's I/O threads, none on threads of their own")
                .noneMatch(name -> name.startsWith("waldo-net-lab-"))
                .filteredOn(name -> name.startsWith("waldoconf-agent-io")).hasSizeLessThanOrEqualTo(2);

        ApplyResult result = apply(plan(60, "all"), Optional.empty());

        assertThat(result.outcome()).as(result.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        for (int i = 0; i < 3; i++) {
            assertThat(holds(i, 60)).as("lab-%d has VLAN 60", i + 1).isTrue();
        }
        for (int i = 1; i <= 3; i++) {
            assertThat(Files.isDirectory(dir.resolve("services/lab-" + i + "/net/" + SwitchServer.TRANSACTIONS_DIR)))
                    .as("lab-%d keeps its own transaction log", i).isTrue();
        }
    }

    @Test
    void theAgentsSwitchesShareOneSnmpEngineAndOneTrialTimerThread() throws Exception {
        int enginesBefore = SharedSnmp.PROCESS.engines();
        int sessionsBefore = SharedSnmp.PROCESS.sessions();
        SiteAgent agent = startAgent();
        assertThat(agent.serving()).hasSize(3);

        assertThat(SharedSnmp.PROCESS.sessions() - sessionsBefore).as("one SNMP session per switch").isEqualTo(3);
        assertThat(SharedSnmp.PROCESS.engines() - enginesBefore).as("engines the three sessions opened")
                .isLessThanOrEqualTo(1);
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .as("no platform thread of its own for any switch's trial timer")
                .noneMatch(name -> name.startsWith("trial-expiry-"))
                .filteredOn(name -> name.startsWith("trial-")).hasSizeLessThanOrEqualTo(1);

        agent.close();
        assertThat(SharedSnmp.PROCESS.sessions()).as("the sessions are released with the agent")
                .isEqualTo(sessionsBefore);
    }

    @Test
    void oneSwitchRefusingAbortsTheChangeOnEverySwitchOfTheAgent() throws Exception {
        startAgent();
        switches.get(1).faults().refuse(Set.of(61), SnmpError.COMMIT_FAILED);

        ApplyResult result = apply(plan(61, "all"), Optional.empty());

        assertThat(result.outcome()).as(result.message()).isEqualTo(ApplyResult.Outcome.REFUSED);
        assertThat(result.message()).contains("lab-2");
        for (int i = 0; i < 3; i++) {
            assertThat(holds(i, 61)).as("lab-%d does not have VLAN 61", i + 1).isFalse();
        }
    }

    @Test
    void aSwitchWhoseSnmpAgentIsDeadDoesNotStopTheOthersAndServesOnceItAnswers() throws Exception {
        SimulatedSwitch dead = switches.get(2);
        int port = dead.snmpAddress().getPort();
        dead.close();

        SiteAgent agent = startAgent();
        assertThat(agent.serving()).containsExactly("lab-1", "lab-2");
        assertThat(agent.waiting()).containsOnlyKeys("lab-3");

        ApplyResult result = apply(plan(62, "all", pairInventory()), Optional.empty());
        assertThat(result.outcome()).as(result.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        assertThat(holds(0, 62) && holds(1, 62)).as("lab-1 and lab-2 have VLAN 62").isTrue();

        switches.set(2, SimulatedSwitch.start(SwitchConfig.named("lab-3").withSnmpPort(port).withControlPort(-1)));
        await("lab-3 serves once its SNMP agent answers", () -> agent.serving().contains("lab-3"));
        assertThat(agent.waiting()).isEmpty();
        ApplyResult all = apply(plan(63, "all"), Optional.empty());
        assertThat(all.outcome()).as(all.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
    }

    @Test
    void aSwitchThatStopsAnsweringMidwayDoesNotHoldUpTheOthersTransactions() throws Exception {
        startAgent();
        switches.get(2).close();

        ApplyResult result = apply(plan(64, "all", pairInventory()), Optional.empty());

        assertThat(result.outcome()).as(result.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        assertThat(holds(0, 64) && holds(1, 64)).as("lab-1 and lab-2 have VLAN 64").isTrue();
        assertThatThrownBy(() -> plan(65, "all")).as("a change that includes the dead switch cannot be planned")
                .hasMessageContaining("lab-3");
    }

    /**
     * The agent stops with a trial pending on every switch and comes back after its deadline: each
     * switch's service finds its own journal and reverts its own switch, as one service per process did.
     */
    @Test
    void aRestartedAgentRevertsEachSwitchsExpiredTrialFromItsOwnJournal() throws Exception {
        SiteAgent agent = startAgent();
        ApplyResult trial = apply(plan(66, "all"), Optional.of(Duration.ofSeconds(3)));
        assertThat(trial.outcome()).as(trial.message()).isEqualTo(ApplyResult.Outcome.TRIAL_PENDING);
        agent.close();
        Thread.sleep(3_500);  // past the deadline, with no service running to act on it
        for (int i = 0; i < 3; i++) {
            assertThat(holds(i, 66)).as("lab-%d still has the trial's VLAN while the agent is down", i + 1).isTrue();
        }

        startAgent();

        await("every switch reverted by its own service", () -> {
            try {
                return !holds(0, 66) && !holds(1, 66) && !holds(2, 66);
            } catch (DeviceException e) {
                return false;
            }
        });
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long giveUpAt = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(giveUpAt);
            Thread.sleep(100);
        }
    }
}
