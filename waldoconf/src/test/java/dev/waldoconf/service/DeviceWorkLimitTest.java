package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.Security;
import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.lab.control.SetGauge;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process-wide bound on device work: a site agent serving several lab switches in this JVM
 * pushes them one at a time when the bound is 1, counted in the lab.
 */
@Timeout(180)
class DeviceWorkLimitTest {
    private static final int SWITCHES = 4;
    /** Each answer held this long, so that pushes left unbounded would overlap at the lab. */
    private static final long ANSWER_DELAY_MS = 40;

    @TempDir
    Path dir;
    private final List<SimulatedSwitch> switches = new ArrayList<>();
    private SiteAgent agent;
    private WaldoConf waldoconf;
    private final int maxBefore = DeviceWorkLimit.PROCESS.max();

    @AfterEach
    void stop() {
        DeviceWorkLimit.PROCESS.setMax(maxBefore);
        if (agent != null) {
            agent.close();
        }
        if (waldoconf != null) {
            waldoconf.close();
        }
        switches.forEach(SimulatedSwitch::close);
    }

    @Test
    void withABoundOfOneTheAgentNeverHasTwoSetsInFlightAndTheApplyStillCommits() throws Exception {
        SetGauge gauge = new SetGauge();
        for (int i = 1; i <= SWITCHES; i++) {
            SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("lab-" + i).withSnmpPort(0)
                    .withControlPort(-1));
            sw.faults().countSetsIn(gauge);
            sw.faults().delayResponses(ANSWER_DELAY_MS);
            switches.add(sw);
        }
        Inventory inventory = writeInventory();
        waldoconf = WaldoConf.open(new EngineOptions(Security.INSECURE).withOperatorState(dir.resolve("operator")),
                Map.of());
        DeviceWorkLimit.PROCESS.setMax(1);
        Path services = dir.resolve("services");
        agent = SiteAgent.start(inventory, "north", services,
                waldoconf.agentNet(inventory, "north", SiteAgent.agentDir(services, "north")), Optional.empty(),
                new SiteAgent.Settings(2, 2, Duration.ofMillis(300)), waldoconf::serve, SiteAgent.Events.NONE);
        Path change = Files.writeString(dir.resolve("vlan-70.yaml"), """
                vlans:
                  - id: 70
                    name: v70
                    ports:
                      - group: all
                        tagged: 20
                """);

        ApplyResult result = waldoconf.apply(waldoconf.plan(change, inventory), Optional.empty(), true,
                ProgressListener.NONE);

        assertThat(result.outcome()).as(result.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        for (SimulatedSwitch sw : switches) {
            assertThat(sw.state().vlans()).as("%s has VLAN 70", sw.name()).containsKey(70);
        }
        assertThat(gauge.seen()).as("SETs the lab saw").isGreaterThanOrEqualTo(SWITCHES);
        assertThat(gauge.most()).as("the most SETs in flight at once at the lab").isEqualTo(1);
    }

    @Test
    void aBoundBelowOneIsRefusedWithWhatWasGiven() {
        assertThatThrownBy(() -> new DeviceWorkLimit(0)).hasMessageContaining("1 or more", "got 0");
        assertThatThrownBy(() -> DeviceWorkLimit.PROCESS.setMax(-2)).hasMessageContaining("got -2");
    }

    @Test
    void aTurnGivenBackTwiceIsGivenBackOnce() {
        DeviceWorkLimit limit = new DeviceWorkLimit(1);
        DeviceWorkLimit.Turn turn = limit.take();
        turn.close();
        turn.close();
        try (DeviceWorkLimit.Turn next = limit.take()) {
            // Had the second close released a permit, the bound of 1 would now allow two turns.
            assertThat(limit.available()).isZero();
        }
    }

    private Inventory writeInventory() throws Exception {
        Files.writeString(dir.resolve("community"), "private\n");
        StringBuilder yaml = new StringBuilder("sites:\n  north: {service: 127.0.0.1:" + freeTcpPort()
                + "}\nswitches:\n");
        for (SimulatedSwitch sw : switches) {
            yaml.append("  - {name: ").append(sw.name())
                    .append(", snmp: 127.0.0.1:").append(sw.snmpAddress().getPort())
                    .append(", version: '2c', credentials: lab, site: north}\n");
        }
        yaml.append("credentials:\n  lab: {community: {file: community}}\n");
        return InventoryLoader.load(Files.writeString(dir.resolve("inventory.yaml"), yaml.toString()));
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
