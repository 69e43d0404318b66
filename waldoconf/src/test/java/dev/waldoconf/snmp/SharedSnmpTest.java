package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.lab.UsmUserSpec;
import dev.waldoconf.model.SwitchState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sessions to many switches share one SNMP engine (one socket, one listener and one timer thread)
 * per way of talking, answer correctly when used all at once, and let the engine go with the last
 * session; sessions with different SNMPv3 users never share one.
 */
@Timeout(120)
class SharedSnmpTest {
    private static final int SWITCHES = 6;
    private final List<SimulatedSwitch> switches = new ArrayList<>();
    private final SharedSnmp engines = new SharedSnmp();

    @BeforeEach
    void start() throws Exception {
        for (int i = 1; i <= SWITCHES; i++) {
            switches.add(SimulatedSwitch.start(SwitchConfig.named("shared-" + i).withSnmpPort(0)
                    .withControlPort(-1)));
        }
    }

    @AfterEach
    void stop() {
        switches.forEach(SimulatedSwitch::close);
    }

    private SnmpVlanDevice device(SimulatedSwitch sw, SnmpTarget target) throws Exception {
        return new SnmpVlanDevice(sw.name(), Snmp4jSession.open(target, engines), SnmpVlanDevice.Options.defaults());
    }

    @Test
    void sessionsToManySwitchesShareOneEngineAndAllReadAtOnce() throws Exception {
        List<SnmpVlanDevice> devices = new ArrayList<>();
        for (SimulatedSwitch sw : switches) {
            devices.add(device(sw, LabSwitches.v2c(sw)));
        }
        assertThat(engines.engines()).isEqualTo(1);
        assertThat(engines.sessions()).isEqualTo(SWITCHES);

        try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<SwitchState>> reads = new ArrayList<>();
            for (SnmpVlanDevice device : devices) {
                reads.add(readers.submit(device::read));
            }
            for (Future<SwitchState> read : reads) {
                assertThat(read.get()).isEqualTo(SwitchState.factoryDefault(24));
            }
        }

        devices.subList(1, SWITCHES).forEach(SnmpVlanDevice::close);
        assertThat(engines.engines()).as("one session still holds the engine").isEqualTo(1);
        assertThat(devices.get(0).read()).isEqualTo(SwitchState.factoryDefault(24));
        devices.get(0).close();
        assertThat(engines.engines()).isZero();
        assertThat(engines.sessions()).isZero();
    }

    @Test
    void differentV3UsersGetEnginesOfTheirOwnAndTheSameUserSharesOne() throws Exception {
        List<SnmpVlanDevice> devices = new ArrayList<>();
        try {
            for (SimulatedSwitch sw : switches.subList(0, 2)) {
                devices.add(device(sw, LabSwitches.v3(sw, UsmUserSpec.defaultSha256())));
            }
            devices.add(device(switches.get(2), LabSwitches.v3(switches.get(2), UsmUserSpec.defaultSha1())));
            devices.add(device(switches.get(3), LabSwitches.v2c(switches.get(3))));

            assertThat(engines.engines()).as("SHA-256 user, SHA-1 user, v2c").isEqualTo(3);
            for (SnmpVlanDevice device : devices) {
                assertThat(device.read()).as(device.name()).isEqualTo(SwitchState.factoryDefault(24));
            }
        } finally {
            devices.forEach(SnmpVlanDevice::close);
        }
        assertThat(engines.engines()).isZero();
    }

    @Test
    void closingASessionTwiceReleasesItsHoldOnce() throws Exception {
        SnmpVlanDevice first = device(switches.get(0), LabSwitches.v2c(switches.get(0)));
        SnmpVlanDevice second = device(switches.get(1), LabSwitches.v2c(switches.get(1)));
        first.close();
        first.close();
        assertThat(engines.engines()).isEqualTo(1);
        assertThat(second.read()).isEqualTo(SwitchState.factoryDefault(24));
        second.close();
        assertThat(engines.engines()).isZero();
    }
}
