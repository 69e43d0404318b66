package dev.waldoconf.snmp;

import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.UsmUserSpec;
import dev.waldoconf.lab.model.QuirkProfile;

/**
 * The device contract over SNMPv3 (SHA-256, AES) against a strict-order switch, which takes a
 * VLAN into untagged lists and PVIDs only once an earlier PDU created it.
 */
class SnmpStrictOrderContractTest extends SnmpContractTest {
    @Override
    QuirkProfile profile() {
        return QuirkProfile.STRICT_ORDER;
    }

    @Override
    SnmpTarget target(SimulatedSwitch sw) {
        return LabSwitches.v3(sw, UsmUserSpec.defaultSha256());
    }
}
