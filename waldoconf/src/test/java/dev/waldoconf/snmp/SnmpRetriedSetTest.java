package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.model.QuirkProfile;
import dev.waldoconf.lab.model.SnmpError;
import dev.waldoconf.model.SwitchState;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A SET whose first try is applied but whose answer is lost, so that its resend reaches a switch
 * that already did it: the push must judge by what the switch holds, not by the resend's error.
 */
class SnmpRetriedSetTest {
    private static final int PORTS = 24;

    private SimulatedSwitch sw;
    private SnmpVlanDevice device;

    @BeforeEach
    void start() throws Exception {
        sw = LabSwitches.start(QuirkProfile.STANDARD);
        // Two tries, the first of which the lab leaves unanswered: a short wait is enough.
        device = SnmpVlanDevice.open(sw.name(),
                LabSwitches.v2c(sw).withTimeoutMs(LabSwitches.SHORT_TIMEOUT_MS).withRetries(1));
    }

    @AfterEach
    void stop() {
        device.close();
        sw.close();
    }

    @Test
    void aCreateAndGoWhoseFirstTryLandedIsDoneThoughItsResendIsRefused() throws Exception {
        // The first SET creates both rows with createAndGo; its resend finds them and is refused.
        sw.faults().dropNextSetResponses(1);

        device.push(LabSwitches.twoNewVlans());

        assertThat(LabSwitches.holds(sw)).isEqualTo(LabSwitches.twoNewVlans());
    }

    @Test
    void aResendRefusedOnASwitchThatDoesNotHoldTheChangeStillFailsSayingWhatWasFound() {
        // Both tries are refused (nothing applied), and the first one's answer is lost.
        sw.faults().refuse(Set.of(20), SnmpError.INCONSISTENT_VALUE);
        sw.faults().dropNextSetResponses(1);

        DeviceException failure = catchThrowableOfType(DeviceException.class,
                () -> device.push(LabSwitches.twoNewVlans()));

        assertThat(failure.getMessage()).contains("'create VLAN 20 'voice''",
                "the first try got no answer (timeout), its resend was answered inconsistentValue at "
                        + "dot1qVlanStaticRowStatus.20",
                "dot1qVlanStaticRowStatus.20 is absent where createAndGo was asked", "Undo succeeded");
        assertThat(failure.undone()).isTrue();
        assertThat(LabSwitches.holds(sw)).isEqualTo(SwitchState.factoryDefault(PORTS));
    }
}
