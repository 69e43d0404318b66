package dev.waldoconf.custom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldo.net.NetConfig;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.service.SwitchServer;
import dev.waldoconf.service.WaldoConfEngine;
import dev.waldoconf.snmp.PreImage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in system-group service ({@code serve --service system-group}) against the lab's
 * simulated switches, which implement SNMPv2-MIB's system group: services started as {@code serve}
 * starts them, and the operator's coordinator calling them all as one transaction.
 */
class SystemGroupLabTest {
    private static final Path BUILT_IN = Path.of("system-group");

    @TempDir
    Path dir;
    private final List<SimulatedSwitch> switches = new ArrayList<>();
    private final List<RunningService> services = new ArrayList<>();
    private CustomProgram program;

    @BeforeEach
    void startSwitches() throws Exception {
        for (int i = 1; i <= 3; i++) {
            switches.add(SimulatedSwitch.start(SwitchConfig.named("lab-" + i).withControlPort(-1)));
        }
        program = CustomProgram.check(BUILT_IN).load();
    }

    @AfterEach
    void stopEverything() {
        services.forEach(RunningService::close);
        switches.forEach(SimulatedSwitch::close);
    }

    @Test
    void setAllAndMatchInventoryLandOnEverySwitchAndLeaveNothingUnfinished() throws Exception {
        Inventory inventory = serve("");

        try (CustomCall call = CustomCall.connect(program, TestInventories.services(inventory), operatorNet())) {
            assertThat(call.call("SystemGroupChange", "set_all", List.of("hall C", "noc@example.net")))
                    .isEqualTo(3.0);
            assertThat(call.call("SystemNameChange", "match_inventory", List.of())).isEqualTo(3.0);
        }

        for (int i = 0; i < switches.size(); i++) {
            assertThat(switches.get(i).state().sysLocation()).isEqualTo("hall C");
            assertThat(switches.get(i).state().sysContact()).isEqualTo("noc@example.net");
            assertThat(switches.get(i).state().sysName()).isEqualTo("edge-" + (i + 1));
        }
        for (SwitchEntry entry : inventory.switches()) {
            assertThat(unfinishedIn(entry)).as("nothing is left unfinished").isEmpty();
        }
    }

    @Test
    void aSwitchThatRefusesLeavesEverySwitchAsItWas() throws Exception {
        List<String> names = switches.stream().map(sw -> sw.state().sysName()).toList();
        Inventory inventory = serve("edge-3");

        try (CustomCall call = CustomCall.connect(program, TestInventories.services(inventory), operatorNet())) {
            TransactionAbortedException refused = catchThrowableOfType(TransactionAbortedException.class,
                    () -> call.call("SystemNameChange", "match_inventory", List.of()));

            assertThat(refused).isNotNull();
            assertThat(refused.getMessage()).contains("edge-3", "1.3.6.1.2.1.1.5.0");
        }
        assertThat(switches.stream().map(sw -> sw.state().sysName()).toList()).isEqualTo(names);
        for (SwitchEntry entry : inventory.switches()) {
            assertThat(unfinishedIn(entry)).as("an aborted change leaves nothing owed").isEmpty();
        }
    }

    /** Starts a service per switch, named edge-N in the inventory, as 'serve --service system-group' does. */
    private Inventory serve(String readOnly) throws Exception {
        Map<String, InetSocketAddress> agents = new LinkedHashMap<>();
        for (int i = 0; i < switches.size(); i++) {
            agents.put("edge-" + (i + 1), switches.get(i).snmpAddress());
        }
        SwitchConfig lab = switches.get(0).config();
        Inventory inventory = TestInventories.write(dir, agents, readOnly, lab.writeCommunity(), lab.readCommunity());
        WaldoConfEngine engine = new WaldoConfEngine((entry, credentials) -> {
            throw new DeviceException("the custom path opens no VLAN device", true);
        }, dir.resolve("operator"), Clock.systemUTC());
        for (SwitchEntry entry : inventory.switches()) {
            services.add(engine.startService(new ServiceSpec(inventory, entry.name(), stateDir(entry),
                    Optional.of(BUILT_IN))));
        }
        return inventory;
    }

    private Path stateDir(SwitchEntry entry) {
        return dir.resolve("services").resolve(entry.name());
    }

    /** The transactions the switch's service journal holds unfinished. */
    private List<DeviceJournal.Entry<List<PreImage>>> unfinishedIn(SwitchEntry entry) throws IOException {
        return DeviceJournal.open(journalOf(entry).getParent(), PreImage.FORMAT).entries();
    }

    private Path journalOf(SwitchEntry entry) {
        return CustomService.journalFile(SwitchServer.defaultNet(entry.name(), stateDir(entry)));
    }

    private NetConfig operatorNet() {
        return NetConfig.defaults("operator-test", dir.resolve("operator-net"));
    }
}
