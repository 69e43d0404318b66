package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.lab.snmp.Oids;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded API: several switches in this JVM, and what happens when one cannot persist. */
class LabTest {
    @TempDir
    Path dir;

    @Test
    void startsNamedSwitchesOnDistinctLoopbackPortsWithTheirOwnStateFiles() throws IOException {
        try (Lab lab = Lab.start(3, SwitchConfig.named("lab"), dir)) {
            assertThat(lab.snmpAddresses()).hasSize(3).doesNotHaveDuplicates()
                    .allSatisfy(address -> assertThat(address.getAddress().isLoopbackAddress()).isTrue());
            assertThat(lab.switches()).extracting(SimulatedSwitch::name).containsExactly("lab-1", "lab-2", "lab-3");
            for (InetSocketAddress address : lab.snmpAddresses()) {
                try (LabClient client = LabClient.v2c(address, "public", 2000)) {
                    assertThat(client.get(Oids.scalar(Oids.SYS_NAME)).bindings().get(0).getVariable().toString())
                            .startsWith("lab-");
                }
            }
            assertThat(lab.get(2).config().stateFile()).isEqualTo(dir.resolve("lab-2.state"));
            assertThat(dir.resolve("lab-3.state")).exists();
        }
    }

    @Test
    void closingTheLabStopsEverySwitch() throws IOException {
        Lab lab = Lab.start(2, SwitchConfig.named("gone"), null);
        lab.close();
        assertThat(lab.switches()).noneMatch(SimulatedSwitch::isRunning);
    }

    @Test
    void aSetThatCannotBePersistedAnswersCommitFailedAndChangesNothing() throws IOException {
        Path stateDir = dir.resolve("state");
        try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("disk")
                .withStateFile(stateDir.resolve("disk.state")));
             LabClient client = LabClient.v2c(sw.snmpAddress(), "private", 2000)) {
            // Replace the state directory by a plain file, so the next write must fail.
            Files.delete(stateDir.resolve("disk.state"));
            Files.delete(stateDir);
            Files.writeString(stateDir, "not a directory");
            LabClient.Response response = client.set(Q.rowStatus(10, Q.CREATE_AND_GO));
            assertThat(response.errorName()).isEqualTo("commitFailed");
            assertThat(sw.state().vlan(10)).isNull();
        }
    }

    @Test
    void aLabNeedsAtLeastOneSwitch() {
        assertThatThrownBy(() -> Lab.start(0, SwitchConfig.named("none"), null))
                .hasMessageContaining("at least one switch");
    }
}
