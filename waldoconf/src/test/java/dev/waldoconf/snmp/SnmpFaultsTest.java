package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.control.DropMode;
import dev.waldoconf.lab.model.QuirkProfile;
import dev.waldoconf.lab.model.SnmpError;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Faults of the lab switch as the operator sees them through the SNMP driver. */
class SnmpFaultsTest {
    private static final int PORTS = 24;

    private SimulatedSwitch sw;
    private SnmpVlanDevice device;

    @BeforeEach
    void start() throws Exception {
        sw = LabSwitches.start(QuirkProfile.STANDARD);
        // One try per request keeps the fault tests short; a lost answer is then a timeout at once.
        device = SnmpVlanDevice.open(sw.name(), LabSwitches.v2c(sw).withRetries(0));
    }

    @AfterEach
    void stop() {
        device.close();
        sw.close();
    }

    @Test
    void lostSetAnswersAreReportedAsATimeoutAndTheUndoIsJudgedByReadingBack() {
        sw.faults().dropResponses(DropMode.SET);

        DeviceException failure = catchThrowableOfType(DeviceException.class,
                () -> device.push(LabSwitches.twoNewVlans()));

        // The SETs were applied though their answers were lost; reading back shows the undo worked.
        assertThat(failure.getMessage()).contains(sw.name(), "create VLAN 10 'users'", "timeout", "Undo succeeded");
        assertThat(failure.undone()).isTrue();
        assertThat(LabSwitches.holds(sw)).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void aSwitchThatStopsAnsweringMidPushIsReportedAsPossiblyHalfChanged() {
        sw.faults().exitAfterSets(1);
        SwitchState desired = LabSwitches.twoNewVlans().withPvid(5, 10)
                .with(new Vlan(10, "users", new TreeSet<>(Set.of(23, 24)), new TreeSet<>(Set.of(5))));

        DeviceException failure = catchThrowableOfType(DeviceException.class, () -> device.push(desired));

        assertThat(failure.getMessage()).contains("read back after phase CREATE_AND_TAG", "timeout", "Undo FAILED");
        assertThat(failure.undone()).isFalse();
        assertThat(LabSwitches.holds(sw).vlans()).containsKeys(10, 20);
    }

    @Test
    void delayedAnswersAreReportedAsATimeoutBeforeAnythingChanges() throws Exception {
        sw.faults().delayResponses(LabSwitches.SHORT_TIMEOUT_MS * 3L);
        SnmpTarget impatient = LabSwitches.v2c(sw).withTimeoutMs(LabSwitches.SHORT_TIMEOUT_MS).withRetries(0);

        DeviceException failure;
        try (SnmpVlanDevice slow = SnmpVlanDevice.open(sw.name(), impatient)) {
            failure = catchThrowableOfType(DeviceException.class,
                    () -> slow.push(LabSwitches.twoNewVlans()));
        }

        assertThat(failure.getMessage()).contains(sw.name(), "no response", "nothing was changed")
                .doesNotContain(sw.config().writeCommunity());
        assertThat(failure.undone()).isTrue();
        assertThat(LabSwitches.holds(sw)).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void anInconsistentValueRefusalNamesTheObjectTheAgentBlamed() {
        sw.faults().refuse(Set.of(20), SnmpError.INCONSISTENT_VALUE);

        DeviceException failure = catchThrowableOfType(DeviceException.class,
                () -> device.push(LabSwitches.twoNewVlans()));

        assertThat(failure.getMessage()).contains("'create VLAN 20 'voice'' failed: inconsistentValue at "
                + "dot1qVlanStaticRowStatus.20", "Undo succeeded");
        assertThat(failure.undone()).isTrue();
        assertThat(LabSwitches.holds(sw)).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void aSwitchThatNeverAnswersCannotBeRead() {
        sw.faults().dropResponses(DropMode.ALL);

        DeviceException failure = catchThrowableOfType(DeviceException.class, device::read);

        assertThat(failure.getMessage()).contains(sw.name(), "no response from 127.0.0.1", "v2c community (hidden)");
    }
}
