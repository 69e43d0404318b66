package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.DeviceProfile.Outcome;
import dev.waldoconf.lab.snmp.Oids;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A switch's device profile as an SNMP manager meets it: the seeded losses come as timeouts on
 * exactly the requests the seed says, and every answer takes at least the profile's delay.
 */
class DeviceProfileSnmpTest {
    @Test
    void aSeededProfileLosesExactlyTheRequestsItsSeedSays() throws IOException {
        DeviceProfile lossy = new DeviceProfile("lossy", 0, 0, 25, 0, 0, 42);
        int requests = 24;
        // The same seed and switch name replayed here: which of the requests the switch will not answer.
        DeviceProfile.Pacer replay = lossy.pacer("lossy-1");
        List<Boolean> expectedLost = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            expectedLost.add(replay.next(0).outcome() == Outcome.LOST);
        }
        assertThat(expectedLost).as("the seed must lose some requests for this test to mean anything")
                .contains(true, false);
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("lossy-1").withProfile(lossy));
             // No retries: every request is exactly one PDU, so request i meets the switch's i-th fate.
             LabClient client = LabClient.v2c(sw.snmpAddress(), "public", 1500, 0)) {
            List<Boolean> timedOut = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                timedOut.add(timesOut(client));
            }
            assertThat(timedOut).isEqualTo(expectedLost);
            long lost = expectedLost.stream().filter(Boolean::booleanValue).count();
            assertThat(sw.pdusDroppedByProfile()).isEqualTo(lost);
            assertThat(sw.pdusAnsweredByProfile()).isEqualTo(requests - lost);
        }
    }

    @Test
    void everyAnswerTakesAtLeastTheProfilesDelay() throws IOException {
        DeviceProfile slow = new DeviceProfile("slow", 30, 5, 0, 0, 0, 1);
        int requests = 5;
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("slow-1").withProfile(slow));
             LabClient client = LabClient.v2c(sw.snmpAddress(), "public", 5000, 0)) {
            for (int i = 0; i < requests; i++) {
                long start = System.nanoTime();
                assertThat(client.get(Oids.scalar(Oids.SYS_NAME)).isOk()).isTrue();
                // A lower bound only: how much longer a busy machine takes says nothing about the profile.
                assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(slow.delayMs());
            }
            assertThat(sw.pdusAnsweredByProfile()).isEqualTo(requests);
        }
    }

    @Test
    void theFastProfileIsTheDefaultAndDropsNothing() throws IOException {
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("fast-1"));
             LabClient client = LabClient.v2c(sw.snmpAddress(), "public", 2000, 0)) {
            assertThat(sw.config().profile()).isEqualTo(DeviceProfile.FAST);
            for (int i = 0; i < 20; i++) {
                assertThat(client.get(Oids.scalar(Oids.SYS_NAME)).isOk()).isTrue();
            }
            assertThat(sw.pdusDroppedByProfile()).isZero();
        }
    }

    private static boolean timesOut(LabClient client) {
        try {
            client.get(Oids.scalar(Oids.SYS_NAME));
            return false;
        } catch (IOException e) {
            assertThat(e).hasMessageContaining("no response");
            return true;
        }
    }
}
