package dev.waldoconf.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.model.VlanChange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link VlanDevice} must keep, as NAPALM's driver tests do for its drivers:
 * the in-memory device and the SNMP driver against each lab quirk profile run these same tests.
 * A subclass opens a device on a fresh 24-port switch in its factory state, can make the switch
 * refuse VLANs, and can say what the switch really holds without going through the driver.
 */
public abstract class VlanDeviceContractTest {
    /** Ports of the switch every subclass provides. */
    protected static final int PORTS = 24;

    private VlanDevice device;

    /** Opens a device on a fresh switch with {@link #PORTS} ports in its factory state. */
    protected abstract VlanDevice openDevice() throws Exception;

    /** Makes the switch refuse every later request that touches one of {@code vlans}. */
    protected abstract void refuseVlans(Set<Integer> vlans) throws Exception;

    /** The error status a refusal shows in the exception message, e.g. {@code commitFailed}. */
    protected abstract String refusalStatus();

    /** What the switch holds, read without the driver under test. */
    protected abstract SwitchState switchHolds() throws Exception;

    /** Stops whatever {@link #openDevice} started, after the device is closed. */
    protected void stopSwitch() throws Exception {
    }

    @BeforeEach
    final void openFreshDevice() throws Exception {
        device = openDevice();
    }

    @AfterEach
    final void closeDevice() throws Exception {
        try {
            device.close();
        } finally {
            stopSwitch();
        }
    }

    /** The device under test. */
    protected VlanDevice device() {
        return device;
    }

    protected static SortedSet<Integer> ports(int... ports) {
        return Arrays.stream(ports).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    protected static SortedSet<Integer> range(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    /** Access ports 1-4 in VLAN 10 "users", VLAN 20 "voice" tagged on 1-4 and the uplinks 23-24. */
    protected static SwitchState accessAndVoice() {
        SwitchState state = SwitchState.factoryDefault(PORTS)
                .with(new Vlan(1, "default", ports(), range(5, 24)))
                .with(new Vlan(10, "users", ports(23, 24), range(1, 4)))
                .with(new Vlan(20, "voice", ports(1, 2, 3, 4, 23, 24), ports()));
        for (int port = 1; port <= 4; port++) {
            state = state.withPvid(port, 10);
        }
        return state;
    }

    @Test
    void aFreshSwitchReadsAsItsFactoryState() throws Exception {
        assertThat(device.read()).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void pushMovesTheSwitchToTheDesiredStateAndReturnsThePreviousOne() throws Exception {
        SwitchState previous = device.push(accessAndVoice());

        assertThat(previous).isEqualTo(SwitchState.factoryDefault(PORTS));
        assertThat(device.read()).isEqualTo(accessAndVoice());
        assertThat(switchHolds()).isEqualTo(accessAndVoice());
    }

    @Test
    void pushingTheReturnedStateUndoesAChange() throws Exception {
        SwitchState previous = device.push(accessAndVoice());

        device.push(previous);

        assertThat(switchHolds()).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void aPushTargetIsGivenWhatTheSwitchHoldsAndTheSwitchEndsAtItsAnswer() throws Exception {
        device.push(accessAndVoice());
        List<SwitchState> given = new ArrayList<>();

        SwitchState previous = device.push(held -> {
            given.add(held);
            return held.without(20);
        });

        assertThat(given).containsExactly(accessAndVoice());
        assertThat(previous).isEqualTo(accessAndVoice());
        assertThat(switchHolds()).isEqualTo(accessAndVoice().without(20));
    }

    @Test
    void compareListsTheStepsInPhaseOrderAndNothingOnceApplied() throws Exception {
        assertThat(device.compare(accessAndVoice())).extracting(VlanChange::phase).isSorted()
                .contains(VlanChange.Phase.CREATE_AND_TAG, VlanChange.Phase.UNTAGGED_AND_PVID,
                        VlanChange.Phase.PRUNE);

        device.push(accessAndVoice());

        assertThat(device.compare(accessAndVoice())).isEmpty();
    }

    @Test
    void pushingWhatTheSwitchHoldsChangesNothing() throws Exception {
        device.push(accessAndVoice());

        SwitchState previous = device.push(accessAndVoice());

        assertThat(previous).isEqualTo(accessAndVoice());
        assertThat(switchHolds()).isEqualTo(accessAndVoice());
    }

    @Test
    void renamesAndMovesPortsBetweenTaggedAndUntagged() throws Exception {
        device.push(accessAndVoice());
        SwitchState desired = accessAndVoice()
                .with(new Vlan(10, "staff", ports(4, 23, 24), range(1, 3)))
                .with(new Vlan(20, "phones", ports(1, 2, 3, 23, 24), ports(4)))
                .withPvid(4, 20);

        device.push(desired);

        assertThat(switchHolds()).isEqualTo(desired);
    }

    @Test
    void deletesAVlanAfterMovingThePvidsAwayFromIt() throws Exception {
        device.push(accessAndVoice());

        device.push(SwitchState.factoryDefault(PORTS));

        assertThat(switchHolds()).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void aRefusedVlanLeavesTheSwitchAsItWas() throws Exception {
        refuseVlans(Set.of(30));
        SwitchState desired = SwitchState.factoryDefault(PORTS)
                .with(new Vlan(29, "before", range(20, 24), ports()))
                .with(new Vlan(30, "refused", range(20, 24), ports()));

        DeviceException failure = catchThrowableOfType(DeviceException.class, () -> device.push(desired));

        assertThat(failure).isNotNull();
        assertThat(failure.undone()).isTrue();
        assertThat(failure.getMessage()).contains(device.name(), "VLAN 30", refusalStatus(), "Undo succeeded");
        assertThat(switchHolds()).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void aRefusalInALaterPhaseUndoesTheEarlierPhases() throws Exception {
        SwitchState start = SwitchState.factoryDefault(PORTS).with(new Vlan(20, "servers", range(10, 12), ports()));
        device.push(start);
        refuseVlans(Set.of(20));
        SwitchState desired = start.with(new Vlan(40, "new", ports(1, 2), ports()))
                .with(new Vlan(20, "servers", range(10, 11), ports()));

        DeviceException failure = catchThrowableOfType(DeviceException.class, () -> device.push(desired));

        assertThat(failure).isNotNull();
        assertThat(failure.undone()).isTrue();
        assertThat(failure.getMessage()).contains("remove port 12 from VLAN 20", refusalStatus());
        assertThat(switchHolds()).isEqualTo(start);
    }

    @Test
    void aPortTheSwitchLacksIsRejectedBeforeAnythingIsSent() throws Exception {
        SwitchState desired = SwitchState.factoryDefault(PORTS).with(new Vlan(50, "wide", ports(3, 25), ports()));

        assertThatThrownBy(() -> device.push(desired)).isInstanceOf(DeviceException.class)
                .hasMessageContaining("port(s) 25").hasMessageContaining("ports 1-24")
                .matches(e -> ((DeviceException) e).undone());
        assertThat(switchHolds()).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void aPvidNamingAVlanThatWillNotExistIsRejectedBeforeAnythingIsSent() throws Exception {
        SwitchState desired = SwitchState.factoryDefault(PORTS).with(new Vlan(60, "kept", ports(1), ports()))
                .withPvid(7, 61);

        assertThatThrownBy(() -> device.push(desired)).isInstanceOf(DeviceException.class)
                .hasMessageContaining("port 7 would have PVID 61");
        assertThat(switchHolds()).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void aNameLongerThanTheMibAllowsIsRejectedBeforeAnythingIsSent() throws Exception {
        SwitchState desired = SwitchState.factoryDefault(PORTS).with(new Vlan(80, "x".repeat(33), ports(1), ports()));

        assertThatThrownBy(() -> device.push(desired)).isInstanceOf(DeviceException.class)
                .hasMessageContaining("VLAN 80 name").hasMessageContaining("longer than 32 octets");
        assertThat(switchHolds()).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void manyVlansGoInOnePush() throws Exception {
        SwitchState desired = SwitchState.factoryDefault(PORTS);
        for (int vlan = 100; vlan < 140; vlan++) {
            desired = desired.with(new Vlan(vlan, "vlan-" + vlan, range(20, 24), ports()));
        }

        device.push(desired);

        assertThat(switchHolds()).isEqualTo(desired);
    }

    @Test
    void namesKeepTheirCharacters() throws Exception {
        SwitchState desired = SwitchState.factoryDefault(PORTS).with(new Vlan(70, "café ☕ guests", ports(24), ports()));

        device.push(desired);

        assertThat(device.read()).isEqualTo(desired);
    }
}
