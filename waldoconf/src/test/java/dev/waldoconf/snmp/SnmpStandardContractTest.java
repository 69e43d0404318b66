package dev.waldoconf.snmp;

import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.model.QuirkProfile;

/** The device contract over SNMPv2c against a switch that reads the MIB as written. */
class SnmpStandardContractTest extends SnmpContractTest {
    @Override
    QuirkProfile profile() {
        return QuirkProfile.STANDARD;
    }

    @Override
    SnmpTarget target(SimulatedSwitch sw) {
        return LabSwitches.v2c(sw);
    }
}
