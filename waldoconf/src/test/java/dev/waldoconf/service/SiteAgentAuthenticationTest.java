package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.LinkRefusedException;
import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.net.NetLoops;
import dev.waldo.net.NetNode;
import dev.waldo.net.Security;
import dev.waldo.net.StructResolver;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Site agents under mutual TLS with a project CA, as {@code waldoconf serve --site} runs them: each
 * agent proves its site with a certificate of its own ({@code site-NAME}), the operator checks that
 * the agent at each site's address is that site's, and an agent speaks only for its own site's
 * switches. Site north serves sw-1; site south serves sw-2 and sw-3.
 */
@Timeout(120)
class SiteAgentAuthenticationTest {
    private static final SwitchState FACTORY = SwitchState.factoryDefault(8);
    private static final SwitchState WITH_VLAN_20 = FACTORY.with(new Vlan(20, "voice", new TreeSet<>(Set.of(8)),
            new TreeSet<>()));
    private static final SiteAgent.Settings SETTINGS = new SiteAgent.Settings(1, 2, Duration.ofSeconds(10));

    @TempDir
    Path dir;
    private final Map<String, MemoryVlanDevice> devices = new LinkedHashMap<>();
    private final List<AutoCloseable> running = new ArrayList<>();
    private WaldoConfEngine engine;
    private Inventory inventory;
    private final Map<String, Integer> sitePorts = new LinkedHashMap<>();

    @BeforeEach
    void serveBothSites() throws Exception {
        for (String name : List.of("sw-1", "sw-2", "sw-3")) {
            devices.put(name, new MemoryVlanDevice(name, 8, FACTORY));
        }
        sitePorts.put("north", freeTcpPort());
        sitePorts.put("south", freeTcpPort());
        inventory = inventory("inventory.yaml", sitePorts.get("north"), sitePorts.get("south"));
        engine = new WaldoConfEngine((entry, credentials) -> devices.get(entry.name()), dir.resolve("operator"),
                Clock.systemUTC(), new EngineOptions(Security.MUTUAL).withProjectCa(dir.resolve("ca")));
        for (String site : List.of("north", "south")) {
            Path services = dir.resolve("services-" + site);
            SiteAgent agent = SiteAgent.start(inventory, site, services,
                    engine.agentNet(inventory, site, SiteAgent.agentDir(services, site)), Optional.empty(), SETTINGS,
                    engine::startService, SiteAgent.Events.NONE);
            running.add(agent);
            assertThat(agent.waiting()).as("site %s", site).isEmpty();
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable each : running.reversed()) {
            each.close();
        }
    }

    /** The inventory with site north's agent at {@code north} and south's at {@code south} (loopback ports). */
    private Inventory inventory(String file, int north, int south) throws Exception {
        Files.writeString(dir.resolve("community"), "private\n");
        String yaml = """
                sites:
                  north: {service: 127.0.0.1:%d}
                  south: {service: 127.0.0.1:%d}
                switches:
                  - {name: sw-1, site: north, snmp: 127.0.0.1:16101, version: '2c', credentials: lab, ports: 8}
                  - {name: sw-2, site: south, snmp: 127.0.0.1:16102, version: '2c', credentials: lab, ports: 8}
                  - {name: sw-3, site: south, snmp: 127.0.0.1:16103, version: '2c', credentials: lab, ports: 8}
                credentials:
                  lab: {community: {file: community}}
                """.formatted(north, south);
        return InventoryLoader.load(Files.writeString(dir.resolve(file), yaml));
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private NetConfig operatorNet() {
        Path state = dir.resolve("operator-alice");
        Identities.issueOperator(Identities.projectCa(dir.resolve("ca")), "alice", false, state);
        return Identities.operatorNet(state, Security.MUTUAL);
    }

    private OperatorSession connect(Inventory of) {
        OperatorSession session = OperatorSession.open(operatorNet(), ChangeRunner.SERVICE,
                OperatorSession.servicesOf(of.switches()), ProgressListener.NONE).requireAll();
        running.add(session);
        return session;
    }

    @Test
    void eachAgentProvesItsSiteWithItsOwnCertificateAndAnOperatorChangesEverySwitchThroughThem() throws Exception {
        OperatorSession session = connect(inventory);
        ChangeRunner runner = new ChangeRunner(session.host(), Clock.systemUTC());

        runner.apply(runner.newChangeId(), ChangeRunner.targets(session), List.of(WITH_VLAN_20, WITH_VLAN_20,
                WITH_VLAN_20), Optional.empty());

        for (MemoryVlanDevice device : devices.values()) {
            assertThat(device.read()).as(device.name()).isEqualTo(WITH_VLAN_20);
        }
        for (String site : List.of("north", "south")) {
            assertThat(dir.resolve("services-" + site).resolve(".site-" + site).resolve("host.crt"))
                    .as("site %s's agent has its certificate", site).exists();
        }
        assertThat(dir.resolve("services-north/sw-1/net/host.crt")).as("a switch of a site has none of its own")
                .doesNotExist();
    }

    @Test
    void swappedSiteAddressesAreRefusedForEverySwitchAndNothingIsSent() throws Exception {
        Inventory swapped = inventory("swapped.yaml", sitePorts.get("south"), sitePorts.get("north"));

        assertThatThrownBy(() -> connect(swapped)).isInstanceOf(NetworkException.class)
                .hasMessageContaining("cannot reach the services of 3 of 3 switches")
                .hasMessageContaining("\n  sw-1: the service at 127.0.0.1:" + sitePorts.get("south")
                        + " is not switch sw-1's: site-south answered, as its certificate from the project CA proves,"
                        + " where site-north was expected; check the service: address of site north under sites: in"
                        + " the inventory (nothing was sent to it)")
                .hasMessageContaining("\n  sw-3: the service at 127.0.0.1:" + sitePorts.get("north")
                        + " is not switch sw-3's: site-north answered");
        for (MemoryVlanDevice device : devices.values()) {
            assertThat(device.read()).as(device.name()).isEqualTo(FACTORY);
        }
    }

    /**
     * A host on site north's node (north's certificate) may link to a south switch as one of north's
     * switches, as a switch in doubt asking the others does, but not pretend to be one of south's.
     */
    @Test
    void anAgentSpeaksOnlyForTheSwitchesOfItsOwnSite() throws Exception {
        NetConfig north = engine.agentNet(inventory, "north", dir.resolve("north-again"));
        InetSocketAddress south = new InetSocketAddress("127.0.0.1", sitePorts.get("south"));
        try (NetLoops loops = NetLoops.create(1, "north-again");
             NetNode node = NetNode.shared(north, loops);
             NetHost own = host("switch-sw-1", node);
             NetHost impostor = host("switch-sw-3", node)) {
            assertThat(own.transport().connect(south, "switch-sw-2", null).get(10, TimeUnit.SECONDS))
                    .isEqualTo("switch-sw-2");
            assertThatThrownBy(() -> impostor.transport().connect(south, "switch-sw-2", null).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(LinkRefusedException.class)
                    .hasMessageContaining("refused the link: node site-north may not speak for host switch-sw-3");
        }
    }

    private static NetHost host(String id, NetNode node) {
        return NetHost.start(NetConfig.defaults(id, Path.of("unused")), StructResolver.NONE, new InMemoryStorage(), node);
    }
}
