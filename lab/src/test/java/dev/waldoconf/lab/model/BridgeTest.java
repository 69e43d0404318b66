package dev.waldoconf.lab.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.model.Change.SetPvid;
import dev.waldoconf.lab.model.Change.SetRowStatus;
import dev.waldoconf.lab.model.Change.SetSystem;
import dev.waldoconf.lab.model.Change.SetVlanName;
import dev.waldoconf.lab.model.Change.SetVlanPorts;
import java.util.List;
import org.junit.jupiter.api.Test;

class BridgeTest {
    private static final SwitchSpec SPEC = SwitchSpec.defaults();
    private static final SwitchState FACTORY = SwitchState.factoryDefault(SPEC, "sw");
    private static final int CREATE_AND_GO = RowStatus.CREATE_AND_GO.code();
    private static final int CREATE_AND_WAIT = RowStatus.CREATE_AND_WAIT.code();
    private static final int ACTIVE = RowStatus.ACTIVE.code();
    private static final int DESTROY = RowStatus.DESTROY.code();

    private final Bridge bridge = new Bridge(SPEC);

    private static Change egress(int vlan, int... ports) {
        return new SetVlanPorts(vlan, PortColumn.EGRESS, PortSet.of(ports).toPortList(24));
    }

    private static Change untagged(int vlan, int... ports) {
        return new SetVlanPorts(vlan, PortColumn.UNTAGGED, PortSet.of(ports).toPortList(24));
    }

    private static Change forbidden(int vlan, int... ports) {
        return new SetVlanPorts(vlan, PortColumn.FORBIDDEN, PortSet.of(ports).toPortList(24));
    }

    private SwitchState accept(Bridge rules, SwitchState from, Change... changes) {
        Outcome outcome = rules.apply(from, List.of(changes), 100);
        assertThat(outcome).isInstanceOf(Outcome.Accepted.class);
        return ((Outcome.Accepted) outcome).next();
    }

    private SwitchState accept(SwitchState from, Change... changes) {
        return accept(bridge, from, changes);
    }

    private Outcome.Rejected reject(Bridge rules, SwitchState from, Change... changes) {
        Outcome outcome = rules.apply(from, List.of(changes), 100);
        assertThat(outcome).isInstanceOf(Outcome.Rejected.class);
        return (Outcome.Rejected) outcome;
    }

    private Outcome.Rejected reject(SwitchState from, Change... changes) {
        return reject(bridge, from, changes);
    }

    @Test
    void factoryDefaultHasVlanOneUntaggedOnEveryPortAndEveryPvidOne() {
        VlanRow one = FACTORY.vlan(1);
        assertThat(one.isActive()).isTrue();
        assertThat(one.egress()).isEqualTo(PortSet.firstPorts(24));
        assertThat(one.untagged()).isEqualTo(PortSet.firstPorts(24));
        assertThat(FACTORY.pvids()).hasSize(24).containsOnly(1);
    }

    @Test
    void createAndGoWithColumnsInTheSamePduMakesAnActiveVlan() {
        SwitchState next = accept(FACTORY, egress(10, 1, 2, 3), new SetRowStatus(10, CREATE_AND_GO),
                untagged(10, 3), new SetVlanName(10, "users"));
        VlanRow row = next.vlan(10);
        assertThat(row.isActive()).isTrue();
        assertThat(row.name()).isEqualTo("users");
        assertThat(row.egress()).isEqualTo(PortSet.of(1, 2, 3));
        assertThat(row.untagged()).isEqualTo(PortSet.of(3));
        assertThat(row.createdAtCs()).isEqualTo(100);
    }

    @Test
    void createAndWaitThenActiveGoesThroughNotInService() {
        SwitchState waiting = accept(FACTORY, new SetRowStatus(20, CREATE_AND_WAIT));
        assertThat(waiting.vlan(20).status()).isEqualTo(RowStatus.NOT_IN_SERVICE);
        assertThat(waiting.activeVlans()).extracting(VlanRow::vlanId).containsExactly(1);
        SwitchState active = accept(waiting, new SetRowStatus(20, ACTIVE));
        assertThat(active.vlan(20).isActive()).isTrue();
    }

    @Test
    void destroyRemovesTheRowAndCountsTheDelete() {
        SwitchState with = accept(FACTORY, new SetRowStatus(30, CREATE_AND_GO));
        SwitchState without = accept(with, new SetRowStatus(30, DESTROY));
        assertThat(without.vlan(30)).isNull();
        assertThat(without.vlanNumDeletes()).isEqualTo(1);
    }

    @Test
    void destroyingAMissingRowIsNoError() {
        assertThat(accept(FACTORY, new SetRowStatus(77, DESTROY))).isEqualTo(FACTORY);
    }

    @Test
    void createAndGoOnAnExistingRowIsInconsistentValue() {
        Outcome.Rejected rejected = reject(FACTORY, new SetRowStatus(1, CREATE_AND_GO));
        assertThat(rejected.error()).isEqualTo(SnmpError.INCONSISTENT_VALUE);
        assertThat(rejected.index()).isZero();
    }

    @Test
    void vlanZeroReservedOrAboveTheMaximumIsNoCreation() {
        for (int vlan : new int[] {0, 4095, 4096, 5000}) {
            assertThat(reject(FACTORY, new SetRowStatus(vlan, CREATE_AND_GO)).error()).isEqualTo(SnmpError.NO_CREATION);
        }
        Bridge small = new Bridge(new SwitchSpec(24, 100, QuirkProfile.STANDARD));
        assertThat(reject(small, FACTORY, new SetRowStatus(101, CREATE_AND_GO)).error())
                .isEqualTo(SnmpError.NO_CREATION);
    }

    @Test
    void aPortListLongerThanThePortCountAllowsIsWrongLength() {
        Change tooLong = new SetVlanPorts(1, PortColumn.EGRESS, new byte[4]);
        assertThat(reject(FACTORY, tooLong).error()).isEqualTo(SnmpError.WRONG_LENGTH);
    }

    @Test
    void aPortListNamingAMissingPortIsWrongValue() {
        Bridge twenty = new Bridge(SPEC.withPortCount(20));
        SwitchState state = SwitchState.factoryDefault(SPEC.withPortCount(20), "sw");
        Change port21 = new SetVlanPorts(1, PortColumn.EGRESS, PortSet.of(21).toPortList(24));
        assertThat(reject(twenty, state, port21).error()).isEqualTo(SnmpError.WRONG_VALUE);
    }

    @Test
    void untaggedPortsThatAreNotEgressPortsAreInconsistentValueOnTheUntaggedVarbind() {
        Outcome.Rejected rejected = reject(FACTORY, new SetRowStatus(10, CREATE_AND_GO), egress(10, 1, 2),
                untagged(10, 2, 3));
        assertThat(rejected.error()).isEqualTo(SnmpError.INCONSISTENT_VALUE);
        assertThat(rejected.index()).isEqualTo(2);
        assertThat(rejected.reason()).contains("{3}");
    }

    @Test
    void shrinkingEgressBelowTheUntaggedSetIsInconsistentValue() {
        assertThat(reject(FACTORY, egress(1, 1, 2)).error()).isEqualTo(SnmpError.INCONSISTENT_VALUE);
    }

    @Test
    void aPortInBothEgressAndForbiddenIsInconsistentValue() {
        SwitchState with = accept(FACTORY, new SetRowStatus(10, CREATE_AND_GO), egress(10, 1, 2));
        Outcome.Rejected rejected = reject(with, forbidden(10, 2, 5));
        assertThat(rejected.error()).isEqualTo(SnmpError.INCONSISTENT_VALUE);
        assertThat(rejected.reason()).contains("{2}");
    }

    @Test
    void aPvidNamingAMissingOrInactiveVlanIsInconsistentValue() {
        assertThat(reject(FACTORY, new SetPvid(3, 99)).error()).isEqualTo(SnmpError.INCONSISTENT_VALUE);
        SwitchState waiting = accept(FACTORY, new SetRowStatus(20, CREATE_AND_WAIT));
        assertThat(reject(waiting, new SetPvid(3, 20)).error()).isEqualTo(SnmpError.INCONSISTENT_VALUE);
    }

    @Test
    void aPvidMayNameAVlanCreatedInTheSamePdu() {
        SwitchState next = accept(FACTORY, new SetPvid(3, 40), new SetRowStatus(40, CREATE_AND_GO));
        assertThat(next.pvid(3)).isEqualTo(40);
    }

    @Test
    void destroyingAVlanThatIsStillAPvidIsInconsistentValue() {
        SwitchState with = accept(FACTORY, new SetRowStatus(10, CREATE_AND_GO), new SetPvid(5, 10));
        Outcome.Rejected rejected = reject(with, new SetRowStatus(10, DESTROY));
        assertThat(rejected.error()).isEqualTo(SnmpError.INCONSISTENT_VALUE);
        assertThat(rejected.reason()).contains("{5}");
    }

    @Test
    void destroyingAVlanIsFineWhenTheSamePduMovesItsPvidsAway() {
        SwitchState with = accept(FACTORY, new SetRowStatus(10, CREATE_AND_GO), new SetPvid(5, 10));
        SwitchState next = accept(with, new SetRowStatus(10, DESTROY), new SetPvid(5, 1));
        assertThat(next.vlan(10)).isNull();
        assertThat(next.pvid(5)).isEqualTo(1);
    }

    @Test
    void settingAColumnOfAMissingRowIsInconsistentName() {
        assertThat(reject(FACTORY, new SetVlanName(50, "x")).error()).isEqualTo(SnmpError.INCONSISTENT_NAME);
    }

    @Test
    void rowStatusValuesThatCannotBeSetAreWrongValue() {
        assertThat(reject(FACTORY, new SetRowStatus(10, RowStatus.NOT_READY.code())).error())
                .isEqualTo(SnmpError.WRONG_VALUE);
        assertThat(reject(FACTORY, new SetRowStatus(10, 9)).error()).isEqualTo(SnmpError.WRONG_VALUE);
    }

    @Test
    void activatingAMissingRowIsInconsistentValue() {
        assertThat(reject(FACTORY, new SetRowStatus(10, ACTIVE)).error()).isEqualTo(SnmpError.INCONSISTENT_VALUE);
    }

    @Test
    void textLongerThanTheSyntaxAllowsIsWrongLength() {
        assertThat(reject(FACTORY, new SetVlanName(1, "x".repeat(33))).error()).isEqualTo(SnmpError.WRONG_LENGTH);
        assertThat(reject(FACTORY, new SetSystem(SystemField.NAME, "x".repeat(256))).error())
                .isEqualTo(SnmpError.WRONG_LENGTH);
    }

    @Test
    void oneBadChangeRejectsTheWholeRequestAndNamesItsIndex() {
        Outcome.Rejected rejected = reject(FACTORY, new SetSystem(SystemField.NAME, "renamed"),
                new SetRowStatus(10, CREATE_AND_GO), new SetPvid(4, 999));
        assertThat(rejected.index()).isEqualTo(2);
        assertThat(FACTORY.sysName()).isEqualTo("sw");
        assertThat(FACTORY.vlan(10)).isNull();
    }

    @Test
    void lengthAndValueErrorsComeBeforeConsistencyErrors() {
        Outcome.Rejected rejected = reject(FACTORY, new SetPvid(4, 900),
                new SetVlanPorts(1, PortColumn.EGRESS, new byte[9]));
        assertThat(rejected.error()).isEqualTo(SnmpError.WRONG_LENGTH);
        assertThat(rejected.index()).isEqualTo(1);
    }

    @Test
    void strictOrderRefusesUntaggedPortsAndPvidsForAVlanCreatedInTheSamePdu() {
        Bridge strict = new Bridge(SPEC.withQuirks(QuirkProfile.STRICT_ORDER));
        assertThat(reject(strict, FACTORY, new SetRowStatus(10, CREATE_AND_GO), egress(10, 1), untagged(10, 1))
                .reason()).startsWith("strict-order");
        assertThat(reject(strict, FACTORY, new SetRowStatus(10, CREATE_AND_GO), new SetPvid(1, 10)).error())
                .isEqualTo(SnmpError.INCONSISTENT_VALUE);
        SwitchState created = accept(strict, FACTORY, new SetRowStatus(10, CREATE_AND_GO), egress(10, 1));
        SwitchState used = accept(strict, created, untagged(10, 1), new SetPvid(1, 10));
        assertThat(used.pvid(1)).isEqualTo(10);
    }

    @Test
    void noCreateAndWaitAnswersWrongValueButAcceptsCreateAndGo() {
        Bridge quirky = new Bridge(SPEC.withQuirks(QuirkProfile.NO_CREATE_AND_WAIT));
        assertThat(reject(quirky, FACTORY, new SetRowStatus(10, CREATE_AND_WAIT)).error())
                .isEqualTo(SnmpError.WRONG_VALUE);
        assertThat(accept(quirky, FACTORY, new SetRowStatus(10, CREATE_AND_GO)).vlan(10).isActive()).isTrue();
    }

    @Test
    void systemScalarsAreWritable() {
        SwitchState next = accept(FACTORY, new SetSystem(SystemField.CONTACT, "noc@example.net"),
                new SetSystem(SystemField.LOCATION, "rack 4"));
        assertThat(next.sysContact()).isEqualTo("noc@example.net");
        assertThat(next.sysLocation()).isEqualTo("rack 4");
    }
}
