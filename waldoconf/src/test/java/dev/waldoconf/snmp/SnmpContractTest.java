package dev.waldoconf.snmp;

import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.device.VlanDeviceContractTest;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.model.QuirkProfile;
import dev.waldoconf.lab.model.SnmpError;
import dev.waldoconf.model.SwitchState;
import java.util.Set;

/**
 * The device contract for the SNMP driver against an embedded lab switch; each subclass picks
 * a quirk profile, credentials and driver options.
 */
abstract class SnmpContractTest extends VlanDeviceContractTest {
    private SimulatedSwitch sw;
    private SnmpVlanDevice driver;

    /** The lab switch's vendor behaviour. */
    abstract QuirkProfile profile();

    /** How the driver reaches the switch. */
    abstract SnmpTarget target(SimulatedSwitch sw);

    /** The driver's options. */
    SnmpVlanDevice.Options options() {
        return SnmpVlanDevice.Options.defaults();
    }

    @Override
    protected VlanDevice openDevice() throws Exception {
        sw = LabSwitches.start(profile());
        driver = SnmpVlanDevice.open(sw.name(), target(sw), options());
        return driver;
    }

    @Override
    protected void stopSwitch() {
        sw.close();
    }

    @Override
    protected void refuseVlans(Set<Integer> vlans) {
        sw.faults().refuse(vlans, SnmpError.COMMIT_FAILED);
    }

    @Override
    protected String refusalStatus() {
        return "commitFailed";
    }

    @Override
    protected SwitchState switchHolds() {
        return LabSwitches.holds(sw);
    }

    /** The driver under test. */
    SnmpVlanDevice driver() {
        return driver;
    }
}
