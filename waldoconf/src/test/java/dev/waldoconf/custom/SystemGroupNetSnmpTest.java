package dev.waldoconf.custom;

import static dev.waldoconf.custom.NetSnmpAgents.readText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldo.net.NetConfig;
import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldoconf.config.AgentTargets;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.service.OperatorSession;
import dev.waldoconf.service.WaldoConfEngine;
import dev.waldoconf.snmp.SnmpScalars;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in system-group service (waldoconf/services/system_group.wld) against REAL net-snmp
 * agents on loopback: one service per snmpd, in this JVM, and the operator's coordinator calling
 * them all as one transaction. The change lands on every agent, or, when one agent refuses or is
 * gone, on none.
 */
class SystemGroupNetSnmpTest {
    private static final Path BUILT_IN = Path.of("system-group");
    private static final String CHANGE = "SystemGroupChange";

    @TempDir
    static Path dir;
    private static NetSnmpAgents snmpd;
    private static final List<NetSnmpAgents.Agent> agents = new ArrayList<>();
    private static CustomProgram program;
    private final List<RunningService> services = new ArrayList<>();
    /** Numbers each test's operator host, so hosts never share pinned certificates. */
    private static final AtomicInteger RUNS = new AtomicInteger();
    private final int run = RUNS.incrementAndGet();

    @BeforeAll
    static void startAgents() throws Exception {
        snmpd = NetSnmpAgents.in(dir);
        for (int i = 1; i <= 3; i++) {
            agents.add(snmpd.start("agent-" + i));
        }
        program = CustomProgram.check(BUILT_IN).load();
    }

    @AfterAll
    static void stopAgents() throws InterruptedException {
        if (snmpd != null) {
            snmpd.close();
        }
    }

    /** Every agent starts from a known location and contact, set behind the services' backs. */
    @BeforeEach
    void setBaseline() throws Exception {
        NetSnmpAgents.setBaseline(agents);
    }

    @AfterEach
    void stopServices() {
        services.forEach(RunningService::close);
    }

    @Test
    void setAllLandsOnEveryAgentThroughServeAndCall() throws Exception {
        Inventory inventory = inventory(agents, "");
        WaldoConfEngine engine = new WaldoConfEngine((entry, credentials) -> {
            throw new DeviceException("the custom path opens no VLAN device", true);
        }, dir.resolve("operator"), Clock.systemUTC());
        for (SwitchEntry entry : inventory.switches()) {
            services.add(engine.startService(new ServiceSpec(inventory, entry.name(), dir.resolve("served")
                    .resolve(entry.name()),
                    Optional.of(BUILT_IN))));
        }

        try (CustomCall call = CustomCall.connect(program, addresses(inventory), operatorNet())) {
            assertThat(call.call(CHANGE, "set_all", List.of("rack 12, hall B", "noc@example.net"))).isEqualTo(3.0);
            assertThat(call.call(CHANGE, "show", List.of()).toString())
                    .contains("agent-1: rack 12, hall B / noc@example.net", "agent-3: rack 12, hall B");
            assertThat(call.call("SystemNameChange", "match_inventory", List.of())).isEqualTo(3.0);
        }
        for (NetSnmpAgents.Agent agent : agents) {
            assertThat(readText(agent, SnmpScalars.SYS_LOCATION)).isEqualTo("rack 12, hall B");
            assertThat(readText(agent, SnmpScalars.SYS_CONTACT)).isEqualTo("noc@example.net");
            assertThat(readText(agent, SnmpScalars.SYS_NAME)).isEqualTo(agent.name());
        }
    }

    @Test
    void anAgentThatRefusesLeavesEveryAgentAsItWas() throws Exception {
        Inventory inventory = inventory(agents, "agent-2");
        serveDirectly(inventory);

        try (CustomCall call = CustomCall.connect(program, addresses(inventory), operatorNet())) {
            TransactionAbortedException refused = catchThrowableOfType(TransactionAbortedException.class,
                    () -> call.call(CHANGE, "set_all", List.of("rack 13", "ops@example.net")));

            assertThat(refused).isNotNull();
            assertThat(refused.getMessage()).contains("agent-2", "1.3.6.1.2.1.1.6.0");
        }
        assertUnchanged(agents);
    }

    @Test
    void anAgentThatIsGoneLeavesTheOthersAsTheyWere() throws Exception {
        NetSnmpAgents.Agent doomed = snmpd.start("agent-gone");
        List<NetSnmpAgents.Agent> taking = List.of(agents.get(0), agents.get(1), doomed);
        Inventory inventory = inventory(taking, "");
        serveDirectly(inventory);
        NetSnmpAgents.stop(doomed);

        try (CustomCall call = CustomCall.connect(program, addresses(inventory), operatorNet())) {
            // The gone agent's service cannot read sysLocation for the transaction (load), so the
            // function fails there, naming the agent, before any agent is SET.
            ApplicationException failed = catchThrowableOfType(ApplicationException.class,
                    () -> call.call(CHANGE, "set_all", List.of("rack 14", "ops@example.net")));

            assertThat(failed).isNotNull();
            assertThat(failed.getMessage()).contains("agent-gone");
        }
        assertUnchanged(agents.subList(0, 2));
    }

    @Test
    void anAbortInTheCoordinatorChangesNoAgent() throws Exception {
        Inventory inventory = inventory(agents, "");
        serveDirectly(inventory);

        try (CustomCall call = CustomCall.connect(program, addresses(inventory), operatorNet())) {
            TransactionAbortedException aborted = catchThrowableOfType(TransactionAbortedException.class,
                    () -> call.call(CHANGE, "set_all", List.of("", "ops@example.net")));

            assertThat(aborted.reason()).isEqualTo(TransactionAbortedException.Reason.ABORT_CALLED);
        }
        assertUnchanged(agents);
    }

    @Test
    void serveChecksEveryBoundObjectOnTheAgentAtStart() throws Exception {
        Inventory inventory = inventory(agents.subList(0, 1), "");
        SwitchEntry entry = inventory.switches().get(0);
        Path wrongType = Files.writeString(dir.resolve("wrong.wld"),
                "Service S {\n    @snmp(oid: '1.3.6.1.2.1.1.6.0') Number location;\n}\n");
        Path missing = Files.writeString(dir.resolve("missing.wld"),
                "Service S {\n    @snmp(oid: '1.3.6.1.4.1.32473.99.0') Text nothing;\n}\n");

        EngineException type = catchThrowableOfType(EngineException.class, () -> CustomService.serve(wrongType,
                inventory, entry, operatorNet(), null, Map.of()));
        EngineException absent = catchThrowableOfType(EngineException.class, () -> CustomService.serve(missing,
                inventory, entry, operatorNet(), null, Map.of()));

        assertThat(type.kind()).isEqualTo(EngineException.Kind.UNAVAILABLE);
        assertThat(type.getMessage()).contains(wrongType + ":2:44: error: 'location' is Number but the agent's"
                + " 1.3.6.1.2.1.1.6.0 holds an OCTET STRING", "^");
        assertThat(absent.getMessage()).contains("agent-1", "1.3.6.1.4.1.32473.99.0", "check the OID");
    }

    /** Starts one service per switch with the already loaded program (compiling it once per test run). */
    private void serveDirectly(Inventory inventory) throws Exception {
        for (SwitchEntry entry : inventory.switches()) {
            SnmpScalars agent = SnmpScalars.open(entry.name(),
                    AgentTargets.of(entry, inventory.credentialsOf(entry), Map.of()));
            services.add(CustomService.serve(entry.name(), program, agent, new InetSocketAddress(entry.service().host(),
                    entry.service().port()), NetConfig.defaults("switch-" + entry.name(),
                    dir.resolve("served-net").resolve(entry.name()))));
        }
    }

    private static void assertUnchanged(List<NetSnmpAgents.Agent> unchanged) throws Exception {
        for (NetSnmpAgents.Agent agent : unchanged) {
            assertThat(readText(agent, SnmpScalars.SYS_LOCATION)).as(agent.name()).isEqualTo("before " + agent.name());
            assertThat(readText(agent, SnmpScalars.SYS_CONTACT)).as(agent.name()).isEqualTo("nobody");
        }
    }


    /** An inventory of {@code members}: the write community, or the read-only one for {@code readOnly}. */
    private Inventory inventory(List<NetSnmpAgents.Agent> members, String readOnly) throws Exception {
        Map<String, InetSocketAddress> snmp = new LinkedHashMap<>();
        members.forEach(agent -> snmp.put(agent.name(), agent.address()));
        return TestInventories.write(dir, snmp, readOnly, NetSnmpAgents.WRITE, NetSnmpAgents.READ);
    }

    private static Map<String, OperatorSession.Service> addresses(Inventory inventory) {
        return TestInventories.services(inventory);
    }

    private NetConfig operatorNet() {
        return NetConfig.defaults("operator-test-" + run, dir.resolve("operator-" + run));
    }
}
