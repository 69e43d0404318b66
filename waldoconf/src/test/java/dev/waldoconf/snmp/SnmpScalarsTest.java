package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.UsmUserSpec;
import dev.waldoconf.lab.control.DropMode;
import dev.waldoconf.lab.model.QuirkProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.snmp4j.smi.OID;

/** Scalar get, set with read-back, and restore, against a lab switch's system group. */
class SnmpScalarsTest {
    private static final OID SYS_DESCR = new OID("1.3.6.1.2.1.1.1.0");
    private static final OID SYS_SERVICES = new OID("1.3.6.1.2.1.1.7.0");

    private SimulatedSwitch sw;
    private SnmpScalars scalars;

    @BeforeEach
    void start() throws Exception {
        sw = LabSwitches.start(QuirkProfile.STANDARD);
        scalars = SnmpScalars.open(sw.name(), LabSwitches.v2c(sw).withRetries(0));
    }

    @AfterEach
    void stop() {
        scalars.close();
        sw.close();
    }

    @Test
    void readsTextAndNumbers() throws Exception {
        assertThat(scalars.get(SnmpScalars.SYS_NAME)).isEqualTo(new ScalarValue.Text(sw.name()));
        assertThat(scalars.get(SYS_SERVICES)).isEqualTo(new ScalarValue.Number(2));
    }

    @Test
    void setReturnsTheOldValueAndRestoreUndoesIt() throws Exception {
        ScalarValue old = scalars.set(SnmpScalars.SYS_LOCATION, new ScalarValue.Text("rack 4, row B"));

        assertThat(old).isEqualTo(new ScalarValue.Text(""));
        assertThat(sw.state().sysLocation()).isEqualTo("rack 4, row B");

        scalars.restore(SnmpScalars.SYS_LOCATION, old);

        assertThat(sw.state().sysLocation()).isEmpty();
    }

    @Test
    void aRefusedSetNamesTheErrorAndLeavesTheOldValue() {
        DeviceException failure = catchThrowableOfType(DeviceException.class,
                () -> scalars.set(SYS_DESCR, new ScalarValue.Text("hacked")));

        assertThat(failure.getMessage()).contains(sw.name(), "1.3.6.1.2.1.1.1.0", "notWritable", "holds its old value");
        assertThat(failure.undone()).isTrue();
    }

    @Test
    void aValueOfTheWrongKindIsRefusedBeforeSending() {
        DeviceException failure = catchThrowableOfType(DeviceException.class,
                () -> scalars.set(SnmpScalars.SYS_CONTACT, new ScalarValue.Number(5)));

        assertThat(failure.getMessage()).contains("sysContact.0 holds Text", "cannot be set to a Number 5");
        assertThat(failure.undone()).isTrue();
    }

    @Test
    void aMissingObjectIsNamed() {
        DeviceException failure = catchThrowableOfType(DeviceException.class,
                () -> scalars.get(new OID("1.3.6.1.2.1.1.6")));

        assertThat(failure.getMessage()).contains("has no 1.3.6.1.2.1.1.6", "trailing .0");
    }

    @Test
    void anAgentThatLosesSetAnswersIsReportedAndUndoneWhenItComesBack() {
        sw.faults().dropResponses(DropMode.SET);

        DeviceException failure = catchThrowableOfType(DeviceException.class,
                () -> scalars.set(SnmpScalars.SYS_CONTACT, new ScalarValue.Text("noc@example.net")));

        // The SET applied but its answer was lost; the restore applies too, and reading back shows it.
        assertThat(failure.getMessage()).contains("timeout", "holds its old value ''");
        assertThat(failure.undone()).isTrue();
        assertThat(sw.state().sysContact()).isEmpty();
    }

    @Test
    void worksOverSnmpV3WithASha1User() throws Exception {
        try (SnmpScalars v3 = SnmpScalars.open(sw.name(), LabSwitches.v3(sw, UsmUserSpec.defaultSha1()))) {
            v3.set(SnmpScalars.SYS_CONTACT, new ScalarValue.Text("noc@example.net"));
        }

        assertThat(sw.state().sysContact()).isEqualTo("noc@example.net");
    }
}
