package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.UsmUserSpec;
import dev.waldoconf.lab.model.QuirkProfile;
import org.junit.jupiter.api.Test;

/**
 * The device contract with rows created by createAndWait and a later active, over SNMPv3 with
 * a SHA-1 user (old gear), against a strict-order switch.
 */
class SnmpCreateAndWaitContractTest extends SnmpContractTest {
    @Override
    QuirkProfile profile() {
        return QuirkProfile.STRICT_ORDER;
    }

    @Override
    SnmpTarget target(SimulatedSwitch sw) {
        return LabSwitches.v3(sw, UsmUserSpec.defaultSha1());
    }

    @Override
    SnmpVlanDevice.Options options() {
        return SnmpVlanDevice.Options.defaults().withRowCreation(RowCreation.CREATE_AND_WAIT);
    }

    @Test
    void theAgentAcceptsCreateAndWaitSoTheDriverKeepsUsingIt() throws Exception {
        driver().push(accessAndVoice());

        assertThat(driver().rowCreation()).isEqualTo(RowCreation.CREATE_AND_WAIT);
        assertThat(switchHolds()).isEqualTo(accessAndVoice());
    }
}
