package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.NetConfig;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
 * The operator and three switch services as networked hosts (Netty, TLS on,
 * loopback), as {@code waldoconf apply} and {@code waldoconf serve} run them.
 */
@Timeout(120)
class NetworkedChangeTest {
    private static final SwitchState FACTORY = SwitchState.factoryDefault(8);

    @TempDir
    Path state;

    private final List<MemoryVlanDevice> devices = new ArrayList<>();
    private final List<SwitchServer> servers = new ArrayList<>();
    private OperatorOnSwitches operator;

    @BeforeEach
    void serveThreeSwitches() throws Exception {
        for (int i = 1; i <= 3; i++) {
            devices.add(new MemoryVlanDevice("sw-" + i, 8, FACTORY));
            servers.add(serve(i - 1, new InetSocketAddress("127.0.0.1", 0)));
        }
        operator = connect();
    }

    private SwitchServer serve(int index, InetSocketAddress address) throws Exception {
        String name = devices.get(index).name();
        Path dir = state.resolve(name);
        return SwitchServer.start(name, devices.get(index), address, dir, SwitchServer.defaultNet(name, dir),
                Clock.systemUTC());
    }

    private OperatorOnSwitches connect() {
        Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();
        servers.forEach(s -> addresses.put(s.switchName(), s.address()));
        return OperatorOnSwitches.connect(addresses, NetConfig.defaults("operator", state.resolve("operator")),
                Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        if (operator != null) {
            operator.close();
        }
        servers.forEach(SwitchServer::close);
    }

    private static SwitchState withVlan20() {
        return FACTORY.with(new Vlan(20, "voice", new TreeSet<>(Set.of(8)), new TreeSet<>()));
    }

    private List<SwitchState> deviceStates() throws DeviceException {
        List<SwitchState> states = new ArrayList<>();
        for (MemoryVlanDevice device : devices) {
            states.add(device.read());
        }
        return states;
    }

    @Test
    void applyReachesEverySwitchOverTheNetwork() throws Exception {
        operator.runner().apply(operator.runner().newChangeId(), operator.targets(),
                Collections.nCopies(3, withVlan20()), Optional.empty());

        assertThat(deviceStates()).containsOnly(withVlan20());
    }

    @Test
    void aRefusingSwitchBacksTheChangeOutEverywhere() throws Exception {
        devices.get(1).refuseVlans(Set.of(20));

        assertThatThrownBy(() -> operator.runner().apply(operator.runner().newChangeId(), operator.targets(),
                Collections.nCopies(3, withVlan20()), Optional.empty()))
                .isInstanceOf(TransactionAbortedException.class).hasMessageContaining("sw-2");
        assertThat(deviceStates()).containsOnly(FACTORY);
    }

    @Test
    void aTrialSurvivesTheOperatorGoingAwayAndRevertsByItself() throws Exception {
        String change = operator.runner().newChangeId();
        operator.runner().apply(change, operator.targets(), Collections.nCopies(3, withVlan20()),
                Optional.of(Duration.ofSeconds(2)));
        operator.close();  // the CLI exits after apply
        operator = null;

        long giveUpAt = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!deviceStates().stream().allMatch(FACTORY::equals)) {
            assertThat(System.nanoTime()).as("switches reverted within 60 s").isLessThan(giveUpAt);
            Thread.sleep(100);
        }
    }

    @Test
    void aLaterOperatorSeesTheTrialAndConfirmsIt() throws Exception {
        String change = operator.runner().newChangeId();
        operator.runner().apply(change, operator.targets(), Collections.nCopies(3, withVlan20()),
                Optional.of(Duration.ofMinutes(5)));
        operator.close();

        operator = connect();  // `waldoconf confirm` is a new process
        assertThat(operator.runner().pendingTrials(operator.targets()))
                .allSatisfy(trial -> assertThat(trial.change()).isEqualTo(change));
        operator.runner().confirm(change, operator.targets());

        assertThat(operator.runner().pendingTrials(operator.targets())).noneMatch(ChangeRunner.PendingTrial::pending);
        assertThat(deviceStates()).containsOnly(withVlan20());
    }
}
