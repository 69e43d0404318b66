package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.model.QuirkProfile;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.model.VlanChange;
import dev.waldoconf.model.VlanDiff;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.VariableBinding;

/** PDU size limits: the configured maximum, tooBig answers, and agents that refuse createAndGo. */
class SnmpPduSplittingTest {
    private static final int PORTS = 24;

    private SimulatedSwitch sw;
    private SnmpVlanDevice device;

    @AfterEach
    void stop() {
        device.close();
        sw.close();
    }

    private WatchedSession start(QuirkProfile profile, Function<SnmpSession, WatchedSession> watch,
                                 SnmpVlanDevice.Options options) throws Exception {
        sw = LabSwitches.start(profile);
        WatchedSession session = watch.apply(Snmp4jSession.open(LabSwitches.v2c(sw)));
        device = new SnmpVlanDevice(sw.name(), session, options);
        return session;
    }

    /** Ten VLANs on the uplinks, ports 1-10 each untagged in its own VLAN with it as PVID. */
    private static SwitchState tenAccessVlans() {
        SwitchState state = SwitchState.factoryDefault(PORTS)
                .with(new Vlan(1, "default", new TreeSet<>(), range(11, 24)));
        for (int i = 1; i <= 10; i++) {
            state = state.with(new Vlan(100 + i, "access-" + i, range(23, 24), new TreeSet<>(Set.of(i))))
                    .withPvid(i, 100 + i);
        }
        return state;
    }

    private static TreeSet<Integer> without(TreeSet<Integer> ports, int port) {
        ports.remove(port);
        return ports;
    }

    private static TreeSet<Integer> range(int from, int to) {
        TreeSet<Integer> ports = new TreeSet<>();
        for (int port = from; port <= to; port++) {
            ports.add(port);
        }
        return ports;
    }

    private static int column(VariableBinding vb) {
        OID oid = vb.getOid();
        return oid.startsWith(QBridge.VLAN_STATIC_ENTRY) ? oid.get(QBridge.VLAN_STATIC_ENTRY.size()) : 0;
    }

    @Test
    void aSmallMaximumSplitsPdusButNeverSeparatesAVlansEgressAndUntaggedLists() throws Exception {
        WatchedSession session = start(QuirkProfile.STRICT_ORDER, WatchedSession::recording,
                SnmpVlanDevice.Options.defaults().withMaxVarbindsPerPdu(2));

        device.push(tenAccessVlans());

        assertThat(LabSwitches.holds(sw)).isEqualTo(tenAccessVlans());
        assertThat(session.forwardedSets).hasSizeGreaterThan(20).allSatisfy(set -> assertThat(set).hasSizeLessThanOrEqualTo(2));
        for (List<VariableBinding> set : session.forwardedSets) {
            long egress = set.stream().filter(vb -> column(vb) == QBridge.COLUMN_EGRESS).count();
            long untagged = set.stream().filter(vb -> column(vb) == QBridge.COLUMN_UNTAGGED).count();
            assertThat(egress).as("egress and untagged travel together in %s", set).isEqualTo(untagged);
        }
    }

    @Test
    void tooBigAnswersAreSplitUntilTheAgentTakesThem() throws Exception {
        WatchedSession session = start(QuirkProfile.STANDARD, real -> WatchedSession.tooBigAbove(real, 5),
                SnmpVlanDevice.Options.defaults());

        device.push(tenAccessVlans());

        assertThat(LabSwitches.holds(sw)).isEqualTo(tenAccessVlans());
        assertThat(session.interceptedSets).isNotEmpty();
        assertThat(session.forwardedSets).allSatisfy(set -> assertThat(set).hasSizeLessThanOrEqualTo(5));
    }

    @Test
    void requestsTheSnmpLibraryCannotSendAreSplitToo() throws Exception {
        WatchedSession session = start(QuirkProfile.STANDARD, real -> WatchedSession.unsendableAbove(real, 4),
                SnmpVlanDevice.Options.defaults());

        device.push(tenAccessVlans());

        assertThat(LabSwitches.holds(sw)).isEqualTo(tenAccessVlans());
        assertThat(session.interceptedSets).isNotEmpty();
        assertThat(session.forwardedSets).allSatisfy(set -> assertThat(set).hasSizeLessThanOrEqualTo(4));
    }

    @Test
    void aSingleStepTooBigForTheAgentFailsAndIsUndone() throws Exception {
        start(QuirkProfile.STANDARD, real -> WatchedSession.tooBigAbove(real, 1), SnmpVlanDevice.Options.defaults());

        DeviceException failure = catchThrowableOfType(DeviceException.class, () -> device.push(tenAccessVlans()));

        assertThat(failure.getMessage()).contains("create VLAN 101 'access-1'", "tooBig");
        assertThat(failure.undone()).isTrue();
        assertThat(LabSwitches.holds(sw)).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    @Test
    void anAgentThatAcknowledgesASetWithoutApplyingItIsCaughtByReadingBack() throws Exception {
        // Acknowledge, but drop, every SET that gives VLAN 105 untagged ports (as a buggy agent might);
        // two bindings per PDU keep VLAN 105's membership alone in its PDU.
        OID untagged105 = QBridge.staticColumn(QBridge.COLUMN_UNTAGGED, 105);
        start(QuirkProfile.STANDARD, real -> new WatchedSession(real, set ->
                set.stream().anyMatch(vb -> vb.getOid().equals(untagged105)
                        && !PortList.decode(((OctetString) vb.getVariable()).getValue()).isEmpty())
                        ? new SnmpResponse(0, 0, set) : null), SnmpVlanDevice.Options.defaults().withMaxVarbindsPerPdu(2));

        DeviceException failure = catchThrowableOfType(DeviceException.class, () -> device.push(tenAccessVlans()));

        assertThat(failure.getMessage()).contains("read back after phase UNTAGGED_AND_PVID",
                "dot1qVlanStaticUntaggedPorts.105 is ports [] where ports [5] was asked", "Undo succeeded");
        assertThat(failure.undone()).isTrue();
        assertThat(LabSwitches.holds(sw)).isEqualTo(SwitchState.factoryDefault(PORTS));
    }

    /**
     * A push of three phases walks the switch twice (before, and after the last phase) and checks
     * each earlier phase with one GET of the objects it set, instead of walking it after every phase.
     */
    @Test
    void aPushWalksTheSwitchBeforeAndAfterAndChecksEarlierPhasesByTheirObjects() throws Exception {
        WatchedSession session = start(QuirkProfile.STANDARD, WatchedSession::recording,
                SnmpVlanDevice.Options.defaults());
        SwitchState desired = LabSwitches.twoNewVlans().withPvid(5, 10)
                .with(new Vlan(10, "users", new TreeSet<>(Set.of(23, 24)), new TreeSet<>(Set.of(5))))
                .with(new Vlan(1, "default", new TreeSet<>(), without(range(1, 24), 5)));
        List<VlanChange> steps = VlanDiff.between(LabSwitches.holds(sw), desired);
        assertThat(steps).extracting(VlanChange::phase).as("the change has three phases")
                .contains(VlanChange.Phase.CREATE_AND_TAG, VlanChange.Phase.UNTAGGED_AND_PVID, VlanChange.Phase.PRUNE);

        device.push(desired);

        assertThat(LabSwitches.holds(sw)).isEqualTo(desired);
        // A read is a walk of the PVIDs and of the VLAN table (one GETBULK each at this size) and a GET
        // of the port count; each of the two earlier phases adds one GET of its objects.
        assertThat(session.bulks).as("GETBULKs: two reads of the switch").isEqualTo(4);
        assertThat(session.gets).as("GETs: the two reads' port counts and the two earlier phases").isEqualTo(4);
        // Each GETBULK asks for one instance more than it expects: all the PVIDs (the port count is read
        // first), the VLAN table's five columns of the rows the switch held when last read (the first read
        // has no guess), and after the push the rows the push leaves.
        assertThat(session.bulkRepetitions).as("max-repetitions of the reads' GETBULKs")
                .containsExactly(PORTS + 1, SnmpSession.WALK_REPETITIONS, PORTS + 1, 5 * desired.vlans().size() + 1);
    }

    @Test
    void anAgentThatRefusesCreateAndGoGetsCreateAndWaitThenActive() throws Exception {
        WatchedSession session = start(QuirkProfile.STRICT_ORDER, real -> new WatchedSession(real, set -> {
            for (int i = 0; i < set.size(); i++) {
                if (column(set.get(i)) == QBridge.COLUMN_ROW_STATUS
                        && set.get(i).getVariable().toInt() == QBridge.ROW_CREATE_AND_GO) {
                    return new SnmpResponse(SnmpResponse.WRONG_VALUE, i + 1, set);
                }
            }
            return null;
        }), SnmpVlanDevice.Options.defaults());

        device.push(tenAccessVlans());

        assertThat(device.rowCreation()).isEqualTo(RowCreation.CREATE_AND_WAIT);
        assertThat(session.interceptedSets).hasSize(1);
        assertThat(LabSwitches.holds(sw)).isEqualTo(tenAccessVlans());
    }
}
