package dev.waldoconf.lab;

import static dev.waldoconf.lab.Q.CREATE_AND_GO;
import static dev.waldoconf.lab.Q.CREATE_AND_WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.lab.LabClient.Response;
import dev.waldoconf.lab.control.ControlClient;
import dev.waldoconf.lab.model.QuirkProfile;
import dev.waldoconf.lab.snmp.Oids;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Each quirk profile and each fault, the faults set through the control interface. */
class FaultsAndQuirksTest {

    private static Response set(SimulatedSwitch sw, org.snmp4j.smi.VariableBinding... bindings) throws IOException {
        try (LabClient client = LabClient.v2c(sw.snmpAddress(), "private", 2000)) {
            return client.set(bindings);
        }
    }

    private static String control(SimulatedSwitch sw, String command) throws IOException {
        try (ControlClient client = ControlClient.connect(sw.controlAddress())) {
            return client.command(command);
        }
    }

    @Test
    void standardProfileAcceptsCreateUntagAndPvidInOnePdu() throws IOException {
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("std"))) {
            assertThat(set(sw, Q.rowStatus(10, CREATE_AND_GO), Q.egress(10, 1), Q.untagged(10, 1), Q.pvid(1, 10))
                    .isOk()).isTrue();
            assertThat(set(sw, Q.rowStatus(11, CREATE_AND_WAIT)).isOk()).isTrue();
        }
    }

    @Test
    void strictOrderProfileNeedsTheVlanCommittedBeforeUntaggedPortsOrPvids() throws IOException {
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("strict")
                .withQuirks(QuirkProfile.STRICT_ORDER))) {
            Response sameStep = set(sw, Q.rowStatus(10, CREATE_AND_GO), Q.egress(10, 1), Q.untagged(10, 1));
            assertThat(sameStep.errorName()).isEqualTo("inconsistentValue");
            assertThat(sameStep.errorIndex()).isEqualTo(3);
            assertThat(set(sw, Q.rowStatus(10, CREATE_AND_GO), Q.pvid(1, 10)).errorIndex()).isEqualTo(2);
            assertThat(set(sw, Q.rowStatus(10, CREATE_AND_GO), Q.egress(10, 1)).isOk()).isTrue();
            assertThat(set(sw, Q.untagged(10, 1), Q.pvid(1, 10)).isOk()).isTrue();
            assertThat(sw.state().pvid(1)).isEqualTo(10);
        }
    }

    @Test
    void noCreateAndWaitProfileAnswersWrongValue() throws IOException {
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("nocaw")
                .withQuirks(QuirkProfile.NO_CREATE_AND_WAIT))) {
            assertThat(set(sw, Q.rowStatus(10, CREATE_AND_WAIT)).errorName()).isEqualTo("wrongValue");
            assertThat(set(sw, Q.rowStatus(10, CREATE_AND_GO)).isOk()).isTrue();
            assertThat(sw.state().vlan(10).isActive()).isTrue();
        }
    }

    @Test
    void refuseWithCommitFailedFailsInCommitAndChangesNothing() throws IOException {
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("refuse-cf"))) {
            assertThat(control(sw, "refuse 20-29 commitFailed")).contains("refuse=20,21,22");
            var before = sw.state();
            Response refused = set(sw, Q.rowStatus(10, CREATE_AND_GO), Q.rowStatus(25, CREATE_AND_GO));
            assertThat(refused.errorName()).isEqualTo("commitFailed");
            assertThat(refused.errorIndex()).isEqualTo(2);
            assertThat(sw.state()).isEqualTo(before);
            assertThat(set(sw, Q.rowStatus(10, CREATE_AND_GO)).isOk()).isTrue();
            control(sw, "refuse off");
            assertThat(set(sw, Q.rowStatus(25, CREATE_AND_GO)).isOk()).isTrue();
        }
    }

    @Test
    void refuseWithInconsistentValueFailsInPrepare() throws IOException {
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("refuse-iv"))) {
            control(sw, "refuse 30 inconsistentValue");
            set(sw, Q.rowStatus(31, CREATE_AND_GO));
            Response refused = set(sw, Q.pvid(4, 31), Q.pvid(5, 30), Q.rowStatus(30, CREATE_AND_GO));
            assertThat(refused.errorName()).isEqualTo("inconsistentValue");
            assertThat(refused.errorIndex()).isEqualTo(2);
            assertThat(sw.state().pvid(4)).isEqualTo(1);
        }
    }

    @Test
    void delayHoldsEveryResponseUntilItIsCleared() throws IOException {
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("slow"));
             LabClient impatient = LabClient.v2c(sw.snmpAddress(), "public", 200);
             LabClient patient = LabClient.v2c(sw.snmpAddress(), "public", 5000)) {
            control(sw, "delay 1000");
            assertThatThrownBy(() -> impatient.get(Oids.scalar(Oids.SYS_NAME))).hasMessageContaining("no response");
            assertThat(patient.get(Oids.scalar(Oids.SYS_NAME)).isOk()).isTrue();
            control(sw, "delay 0");
            assertThat(impatient.get(Oids.scalar(Oids.SYS_NAME)).isOk()).isTrue();
        }
    }

    @Test
    void dropSetSwallowsTheResponseButAppliesTheSet() throws IOException {
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("lossy"));
             LabClient client = LabClient.v2c(sw.snmpAddress(), "private", 300)) {
            control(sw, "drop set");
            assertThatThrownBy(() -> client.set(Q.rowStatus(10, CREATE_AND_GO))).hasMessageContaining("no response");
            assertThat(client.get(Q.rowStatusOid(10)).bindings().get(0).getVariable().toInt()).isEqualTo(Q.ACTIVE);
            control(sw, "drop all");
            assertThatThrownBy(() -> client.get(Oids.scalar(Oids.SYS_NAME))).hasMessageContaining("no response");
            control(sw, "drop off");
            assertThat(client.get(Oids.scalar(Oids.SYS_NAME)).isOk()).isTrue();
        }
    }

    @Test
    void exitAfterStopsTheSwitchOnceTheLastAllowedSetWasAnswered() throws IOException, InterruptedException {
        SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("crashy"));
        try (LabClient client = LabClient.v2c(sw.snmpAddress(), "private", 300)) {
            control(sw, "exit-after 2");
            assertThat(client.get(Oids.scalar(Oids.SYS_NAME)).isOk()).isTrue();
            assertThat(client.set(Q.rowStatus(10, CREATE_AND_GO)).isOk()).isTrue();
            assertThat(client.set(Q.rowStatus(11, CREATE_AND_GO)).isOk()).isTrue();
            assertThat(sw.isRunning()).isFalse();
            assertThatThrownBy(() -> client.get(Oids.scalar(Oids.SYS_NAME))).hasMessageContaining("no response");
        } finally {
            sw.close();
        }
    }

    @Test
    void faultsAreOffByDefaultAndClearTurnsThemOff() throws IOException {
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("clean"))) {
            assertThat(control(sw, "faults")).isEqualTo("refuse=none delay=0 drop=off exit-after=off");
            control(sw, "refuse 1 commitFailed");
            control(sw, "drop all");
            assertThat(control(sw, "clear")).isEqualTo("refuse=none delay=0 drop=off exit-after=off");
            assertThat(control(sw, "state")).isEqualTo("vlans=1 sysName=clean");
        }
    }
}
