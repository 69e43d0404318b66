package dev.waldoconf.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A switch's configuration key by key: the change between two states holds exactly the keys that
 * differ, applying it onto a state that others changed on other keys keeps their change, the
 * values before a change put the keys back, and a newer change trims an older one's undo.
 */
class SwitchPartTest {
    private static final SwitchState FACTORY = SwitchState.factoryDefault(8);
    /** VLAN 20 tagged on 8, with port 5 moved off VLAN 1 as its access port. */
    private static final SwitchState VOICE = FACTORY
            .with(new Vlan(1, "default", new TreeSet<>(), new TreeSet<>(Set.of(1, 2, 3, 4, 6, 7, 8))))
            .with(new Vlan(20, "voice", new TreeSet<>(Set.of(8)), new TreeSet<>(Set.of(5))))
            .withPvid(5, 20);
    private static final SwitchState CAMERAS = FACTORY.with(new Vlan(30, "cameras", new TreeSet<>(Set.of(7)),
            new TreeSet<>()));

    @Test
    void theChangeBetweenTwoStatesHoldsExactlyTheKeysThatDiffer() {
        SwitchPart change = SwitchPart.between(FACTORY, VOICE);

        assertThat(change.keys()).containsExactlyInAnyOrder("vlan 20", "member 1/5", "member 20/5", "member 20/8",
                "pvid 5");
        assertThat(change.members()).containsEntry(new SwitchPart.Member(1, 5), Optional.empty())
                .containsEntry(new SwitchPart.Member(20, 5), Optional.of(SwitchPart.Membership.UNTAGGED));
        assertThat(change.appliedTo(FACTORY)).isEqualTo(VOICE);
        assertThat(SwitchPart.between(VOICE, VOICE).isEmpty()).isTrue();
    }

    @Test
    void aChangeAppliedOntoAStateChangedOnOtherKeysKeepsThatChange() {
        SwitchPart voice = SwitchPart.between(FACTORY, VOICE);
        SwitchPart cameras = SwitchPart.between(FACTORY, CAMERAS);

        assertThat(voice.overlaps(cameras)).isFalse();
        SwitchState both = voice.appliedTo(CAMERAS);
        assertThat(both.vlans()).containsKeys(1, 20, 30);
        assertThat(both).isEqualTo(cameras.appliedTo(VOICE));
    }

    @Test
    void theValuesBeforeAChangePutItsKeysBackAndLeaveTheRest() {
        SwitchPart voice = SwitchPart.between(FACTORY, VOICE);
        SwitchPart before = voice.valuesIn(FACTORY);
        SwitchState withCamerasToo = SwitchPart.between(FACTORY, CAMERAS).appliedTo(VOICE);

        assertThat(before.keys()).isEqualTo(voice.keys());
        assertThat(before.appliedTo(withCamerasToo)).as("voice undone, cameras kept").isEqualTo(CAMERAS);
    }

    @Test
    void deletingAVlanDropsItsMembershipsAndANewerChangeTrimsAnOlderUndo() {
        SwitchPart delete = new SwitchPart(new TreeMap<>(java.util.Map.of(20, Optional.<String>empty())),
                new TreeMap<>(), new TreeMap<>());
        assertThat(delete.appliedTo(VOICE).vlans()).doesNotContainKey(20);

        SwitchPart olderUndo = SwitchPart.between(FACTORY, VOICE).valuesIn(FACTORY);
        SwitchPart newer = SwitchPart.between(VOICE, VOICE.withPvid(5, 1));
        SwitchPart trimmed = olderUndo.without(newer);
        assertThat(olderUndo.overlaps(newer)).isTrue();
        assertThat(trimmed.keys()).containsExactlyInAnyOrder("vlan 20", "member 1/5", "member 20/5", "member 20/8");
        assertThat(olderUndo.then(newer).pvids()).containsEntry(5, 1);
    }
}
