package dev.waldoconf.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldoconf.model.SwitchState;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The in-memory device passes the contract, and its injected failures behave as documented. */
class MemoryVlanDeviceTest extends VlanDeviceContractTest {
    private MemoryVlanDevice memory;

    @Override
    protected VlanDevice openDevice() {
        memory = new MemoryVlanDevice("mem-1", PORTS);
        return memory;
    }

    @Override
    protected void refuseVlans(Set<Integer> vlans) {
        memory.refuseVlans(vlans);
    }

    @Override
    protected String refusalStatus() {
        return "refused";
    }

    @Override
    protected SwitchState switchHolds() throws DeviceException {
        return memory.read();
    }

    @Test
    void aTimeoutPartWayThroughIsUndoneInReverse() throws Exception {
        memory.failAfterSteps(3);

        DeviceException failure = catchThrowableOfType(DeviceException.class, () -> memory.push(accessAndVoice()));

        assertThat(failure.getMessage()).contains("mem-1", "timeout", "Undo succeeded");
        assertThat(failure.undone()).isTrue();
        assertThat(memory.read()).isEqualTo(SwitchState.factoryDefault(PORTS));
        // Applied: create VLAN 10, tag 23-24 on it, create VLAN 20; the undo deletes both VLANs.
        assertThat(memory.stepsApplied()).isEqualTo(5);
    }

    @Test
    void anUndoThatIsRefusedReportsThatTheSwitchMayHoldPartOfTheChange() throws Exception {
        memory.push(accessAndVoice());
        // Moving port 1's PVID from 10 to 20 touches VLAN 20; moving it back touches VLAN 10.
        memory.refuseVlans(Set.of(10));
        memory.failAfterSteps(1);
        SwitchState desired = accessAndVoice().withPvid(1, 20)
                .with(new dev.waldoconf.model.Vlan(20, "voice", ports(1, 2, 3, 4, 23), ports()));

        DeviceException failure = catchThrowableOfType(DeviceException.class, () -> memory.push(desired));

        assertThat(failure.undone()).isFalse();
        assertThat(failure.getMessage()).contains("remove port 24 from VLAN 20", "timeout", "Undo FAILED",
                "set PVID of port 1 20 -> 10");
        assertThat(memory.read().pvids().get(1)).isEqualTo(20);
    }

    @Test
    void clearedFailuresLetPushesThrough() throws Exception {
        memory.refuseVlans(Set.of(10));
        memory.failAfterSteps(0);
        memory.clearFailures();

        memory.push(accessAndVoice());

        assertThat(memory.read()).isEqualTo(accessAndVoice());
    }

    @Test
    void aClosedDeviceRefusesToWork() {
        memory.close();

        assertThatThrownBy(memory::read).isInstanceOf(DeviceException.class).hasMessageContaining("closed");
    }
}
