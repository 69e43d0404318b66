package dev.waldoconf.lab.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFileTest {
    private static final SwitchSpec SPEC = SwitchSpec.defaults();

    @TempDir
    Path dir;

    private SwitchState configured() {
        Outcome outcome = new Bridge(SPEC).apply(SwitchState.factoryDefault(SPEC, "sw1"), List.of(
                new Change.SetRowStatus(10, RowStatus.CREATE_AND_GO.code()),
                new Change.SetVlanName(10, " users = staff\\ünï\n"),
                new Change.SetVlanPorts(10, PortColumn.EGRESS, PortSet.of(1, 2, 24).toPortList(24)),
                new Change.SetVlanPorts(10, PortColumn.UNTAGGED, PortSet.of(2).toPortList(24)),
                new Change.SetVlanPorts(10, PortColumn.FORBIDDEN, PortSet.of(5).toPortList(24)),
                new Change.SetRowStatus(20, RowStatus.CREATE_AND_WAIT.code()),
                new Change.SetPvid(2, 10),
                new Change.SetSystem(SystemField.LOCATION, "rack 4")), 0);
        return ((Outcome.Accepted) outcome).next();
    }

    @Test
    void aMissingFileLoadsAsTheFactoryDefault() throws IOException {
        StateFile.Snapshot snapshot = new StateFile(dir.resolve("none.state")).load(SPEC, "sw1");
        assertThat(snapshot.state()).isEqualTo(SwitchState.factoryDefault(SPEC, "sw1"));
        assertThat(snapshot.engineBoots()).isZero();
    }

    @Test
    void savedStateLoadsBackEqual() throws IOException {
        StateFile file = new StateFile(dir.resolve("sub/sw1.state"));
        SwitchState state = configured();
        file.save(new StateFile.Snapshot(state, 7));
        StateFile.Snapshot loaded = file.load(SPEC, "ignored");
        assertThat(loaded.engineBoots()).isEqualTo(7);
        assertThat(loaded.state()).isEqualTo(withoutCreationTimes(state));
    }

    @Test
    void theFileIsSortedReadableText() throws IOException {
        StateFile file = new StateFile(dir.resolve("sw1.state"));
        file.save(new StateFile.Snapshot(configured(), 1));
        String text = Files.readString(file.path());
        assertThat(text).contains("vlan.10.egress=c00001\n", "vlan.20.status=notInService\n", "port.2.pvid=10\n",
                "sysLocation=rack 4\n");
        assertThat(dir.toFile().list()).containsExactly("sw1.state");
    }

    @Test
    void aSaveThatCannotReplaceTheFileFailsAndLeavesNoTemporary() throws IOException {
        StateFile file = new StateFile(dir.resolve("sw1.state"));
        file.save(new StateFile.Snapshot(SwitchState.factoryDefault(SPEC, "sw1"), 1));
        Files.delete(file.path());
        Files.createDirectories(file.path().resolve("in-the-way"));  // a file cannot be renamed over a directory

        assertThatThrownBy(() -> file.save(new StateFile.Snapshot(configured(), 2))).isInstanceOf(IOException.class);
        assertThat(dir.toFile().list()).as("no temporary left").containsExactly("sw1.state");
        Files.delete(file.path().resolve("in-the-way"));
        Files.delete(file.path());
        file.save(new StateFile.Snapshot(configured(), 3));
        assertThat(file.load(SPEC, "sw1").engineBoots()).isEqualTo(3);
    }

    @Test
    void aFileForAnotherPortCountIsRefusedWithAHint() throws IOException {
        StateFile file = new StateFile(dir.resolve("sw1.state"));
        file.save(new StateFile.Snapshot(configured(), 1));
        assertThatThrownBy(() -> file.load(SPEC.withPortCount(48), "sw1"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("written for 24 ports")
                .hasMessageContaining(file.path().toString());
    }

    @Test
    void aBrokenFileNamesTheMissingEntry() throws IOException {
        Path path = dir.resolve("bad.state");
        Files.writeString(path, "format=1\nportCount=24\n");
        assertThatThrownBy(() -> new StateFile(path).load(SPEC, "sw1"))
                .hasMessageContaining("missing entry 'port.1.pvid'")
                .hasMessageContaining("delete it");
    }

    private static SwitchState withoutCreationTimes(SwitchState state) {
        SwitchState result = state;
        for (VlanRow row : state.vlans().values()) {
            result = result.withVlan(new VlanRow(row.vlanId(), row.name(), row.egress(), row.forbidden(),
                    row.untagged(), row.status(), 0));
        }
        return result;
    }
}
