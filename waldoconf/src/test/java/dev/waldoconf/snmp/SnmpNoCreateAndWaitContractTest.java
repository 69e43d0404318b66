package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.model.QuirkProfile;
import org.junit.jupiter.api.Test;

/**
 * The device contract against a switch that refuses createAndWait, with a driver told to try
 * createAndWait first: every creating test goes through the fallback to createAndGo.
 */
class SnmpNoCreateAndWaitContractTest extends SnmpContractTest {
    @Override
    QuirkProfile profile() {
        return QuirkProfile.NO_CREATE_AND_WAIT;
    }

    @Override
    SnmpTarget target(SimulatedSwitch sw) {
        return LabSwitches.v2c(sw);
    }

    @Override
    SnmpVlanDevice.Options options() {
        return SnmpVlanDevice.Options.defaults().withRowCreation(RowCreation.CREATE_AND_WAIT);
    }

    @Test
    void theDriverLearnsToCreateRowsWithCreateAndGo() throws Exception {
        driver().push(accessAndVoice());

        assertThat(driver().rowCreation()).isEqualTo(RowCreation.CREATE_AND_GO);
        assertThat(switchHolds()).isEqualTo(accessAndVoice());
    }
}
