package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.CertificateAuthority;
import dev.waldo.net.NetConfig;
import dev.waldo.net.Security;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Services and operators under mutual TLS with a project CA, as {@code waldoconf serve} and the
 * other commands run them by default: who may connect, who may change, and whom the operator
 * accepts at a switch's address.
 */
@Timeout(120)
class MutualAuthenticationTest {
    private static final SwitchState FACTORY = SwitchState.factoryDefault(8);
    private static final SwitchState WITH_VLAN_20 = FACTORY.with(new Vlan(20, "voice", new TreeSet<>(Set.of(8)),
            new TreeSet<>()));

    @TempDir
    Path dir;

    private final List<MemoryVlanDevice> devices = new ArrayList<>();
    private final List<SwitchServer> servers = new ArrayList<>();
    private final List<OperatorOnSwitches> sessions = new ArrayList<>();
    private Path ca;

    @BeforeEach
    void serveTwoSwitchesUnderTheProjectCa() throws Exception {
        ca = dir.resolve("ca");
        for (String name : List.of("sw-1", "sw-2")) {
            MemoryVlanDevice device = new MemoryVlanDevice(name, 8, FACTORY);
            Path state = dir.resolve("services").resolve(name);
            NetConfig net = Identities.serviceNet(name, SwitchServer.netDir(state), Security.MUTUAL);
            // The first service creates the project CA, as the first 'waldoconf serve' on a machine does.
            assertThat(Identities.ensureServiceCertificate(net, ca)).contains("issued a certificate for switch-" + name);
            devices.add(device);
            servers.add(SwitchServer.start(name, device, new InetSocketAddress("127.0.0.1", 0), state, net,
                    Clock.systemUTC()));
        }
    }

    @AfterEach
    void stop() {
        sessions.forEach(OperatorOnSwitches::close);
        servers.forEach(SwitchServer::close);
    }

    private Path operator(String name, boolean readOnly) {
        Path state = dir.resolve("operators").resolve(name);
        Identities.issueOperator(Identities.projectCa(ca), name, readOnly, state);
        return state;
    }

    private Map<String, InetSocketAddress> addresses() {
        Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();
        servers.forEach(server -> addresses.put(server.switchName(), server.address()));
        return addresses;
    }

    private OperatorOnSwitches connect(Map<String, InetSocketAddress> addresses, NetConfig net) {
        OperatorOnSwitches session = OperatorOnSwitches.connect(addresses, net, Clock.systemUTC());
        sessions.add(session);
        return session;
    }

    private void apply(OperatorOnSwitches session) {
        session.runner().apply(session.runner().newChangeId(), session.targets(), List.of(WITH_VLAN_20, WITH_VLAN_20),
                Optional.empty());
    }

    private List<AuditJournal.Entry> journal(int switchIndex) throws Exception {
        Path state = dir.resolve("services").resolve(devices.get(switchIndex).name());
        return new AuditJournal(SwitchServer.netDir(state)).read();
    }

    @Test
    void anOperatorWithTheChangeRoleChangesEverySwitchAndIsRecordedByName() throws Exception {
        OperatorOnSwitches alice = connect(addresses(), Identities.operatorNet(operator("alice", false), Security.MUTUAL));

        apply(alice);

        assertThat(devices).allSatisfy(device -> assertThat(device.read()).isEqualTo(WITH_VLAN_20));
        // A plain apply stages the change as a trial and confirms it: each is a change of its own.
        assertThat(journal(0)).isNotEmpty().allSatisfy(entry -> {
            assertThat(entry.who()).isEqualTo("operator-alice");
            assertThat(entry.outcome()).isEqualTo("committed");
            assertThat(entry.switchName()).isEqualTo("sw-1");
        });
        assertThat(journal(0).get(0).what()).contains("names 1 entry -> 2 entries");
    }

    @Test
    void aClientWithoutAnOperatorCertificateFromTheProjectCaIsRefused() throws Exception {
        // Trust on first use: a self-signed certificate, as any host on the network can make.
        NetConfig stranger = NetConfig.defaults("operator-mallory~1", dir.resolve("mallory"));
        assertThatThrownBy(() -> connect(addresses(), stranger)).isInstanceOf(NetworkException.class)
                .hasMessageContaining("cannot reach the service of switch sw-1");
        // A certificate from another CA, even with the right name and role.
        Path rogue = dir.resolve("rogue-operator");
        Identities.issueOperator(CertificateAuthority.create(dir.resolve("rogue-ca"), "rogue"), "alice", false, rogue);
        assertThatThrownBy(() -> connect(addresses(), Identities.operatorNet(rogue, Security.MUTUAL)))
                .isInstanceOf(NetworkException.class);

        assertThat(devices).allSatisfy(device -> assertThat(device.read()).isEqualTo(FACTORY));
        assertThat(journal(0)).isEmpty();
    }

    @Test
    void aReadOnlyOperatorMayReadButItsChangeIsRefusedEverywhere() throws Exception {
        OperatorOnSwitches bob = connect(addresses(), Identities.operatorNet(operator("bob", true), Security.MUTUAL));

        assertThat(bob.runner().reports(bob.targets())).hasSize(2).allMatch(ChangeRunner.SwitchReport::reachable);
        assertThatThrownBy(() -> apply(bob)).isInstanceOf(TransactionAbortedException.class)
                .hasMessageContaining("refuses the change: operator-bob may only read")
                .hasMessageContaining(Identities.READ_ROLE);

        assertThat(devices).allSatisfy(device -> assertThat(device.read()).isEqualTo(FACTORY));
        // A switch records the refusal when it is asked to prepare. The last stage call carries the
        // prepare, so the last switch refuses first and the change is backed out on the others
        // before they are asked: at least one switch records it, and every record names bob.
        List<AuditJournal.Entry> recorded = new java.util.ArrayList<>(journal(0));
        recorded.addAll(journal(1));
        assertThat(recorded).isNotEmpty().allSatisfy(entry -> {
            assertThat(entry.who()).isEqualTo("operator-bob");
            assertThat(entry.outcome()).startsWith("refused: operator-bob may only read");
        });
    }

    @Test
    void anOperatorRefusesAServiceWhoseCertificateNamesAnotherSwitch() throws Exception {
        Map<String, InetSocketAddress> swapped = new LinkedHashMap<>();
        swapped.put("sw-1", servers.get(1).address());
        swapped.put("sw-2", servers.get(0).address());

        assertThatThrownBy(() -> connect(swapped, Identities.operatorNet(operator("alice", false), Security.MUTUAL)))
                .isInstanceOf(NetworkException.class)
                // Both addresses are connected at once, so both wrong services are named, each on its line.
                .hasMessageContaining("cannot reach the services of 2 of 2 switches")
                .hasMessageContaining("\n  sw-1: the service at 127.0.0.1:" + servers.get(1).address().getPort()
                        + " is not switch sw-1's: switch-sw-2 answered, as its certificate from the project CA proves,"
                        + " where switch-sw-1 was expected; check the service: address of sw-1 in the inventory (nothing"
                        + " was sent to it)")
                .hasMessageContaining("\n  sw-2: the service at 127.0.0.1:" + servers.get(0).address().getPort()
                        + " is not switch sw-2's: switch-sw-1 answered");
        assertThat(devices).allSatisfy(device -> assertThat(device.read()).isEqualTo(FACTORY));
    }

    @Test
    void aServiceRevertsItsOwnExpiredTrialAndRecordsItAsItsOwnChange() throws Exception {
        OperatorOnSwitches alice = connect(addresses(), Identities.operatorNet(operator("alice", false), Security.MUTUAL));
        alice.runner().apply(alice.runner().newChangeId(), alice.targets(), List.of(WITH_VLAN_20, WITH_VLAN_20),
                Optional.of(java.time.Duration.ofSeconds(1)));
        alice.close();

        long giveUpAt = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
        while (!devices.stream().allMatch(device -> FACTORY.equals(readQuietly(device)))) {
            assertThat(System.nanoTime()).as("every switch reverted within 60 s").isLessThan(giveUpAt);
            Thread.sleep(100);
        }
        // The revert's push lands in prepare; its journal line is written once it committed, a moment later.
        while (journal(0).size() < 2) {
            assertThat(System.nanoTime()).as("the revert was journaled within 60 s").isLessThan(giveUpAt);
            Thread.sleep(100);
        }
        assertThat(journal(0)).extracting(AuditJournal.Entry::who, AuditJournal.Entry::outcome).containsExactly(
                org.assertj.core.groups.Tuple.tuple("operator-alice", "committed"),
                org.assertj.core.groups.Tuple.tuple("switch-sw-1 (this service: an expired trial)", "committed"));
    }

    private static SwitchState readQuietly(MemoryVlanDevice device) {
        try {
            return device.read();
        } catch (dev.waldoconf.device.DeviceException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anOperatorWithoutACertificateIsToldHowToGetOne() {
        assertThatThrownBy(() -> Identities.operatorNet(dir.resolve("nobody"), Security.MUTUAL))
                .hasMessageContaining("no operator certificate in " + dir.resolve("nobody"))
                .hasMessageContaining("'waldoconf init'");
    }
}
