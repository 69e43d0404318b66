package dev.waldoconf.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class VlanDiffTest {
    private static TreeSet<Integer> ports(Integer... ports) {
        return new TreeSet<>(List.of(ports));
    }

    @Test
    void ordersStepsSoEveryAgentAcceptsThem() {
        SwitchState current = SwitchState.factoryDefault(8).with(new Vlan(30, "old", ports(8), ports()));
        SwitchState desired = SwitchState.factoryDefault(8)
                .with(new Vlan(1, "default", ports(), ports(1, 2, 3, 4, 6, 7, 8)))
                .with(new Vlan(20, "voice", ports(8), ports(5)))
                .withPvid(5, 20);

        List<VlanChange> steps = VlanDiff.between(current, desired);

        assertThat(steps).extracting(VlanChange::describe).containsExactly(
                "create VLAN 20 'voice'",
                "add tagged port 8 to VLAN 20",
                "add untagged port 5 to VLAN 20",
                "set PVID of port 5 1 -> 20",
                "remove port 5 from VLAN 1",
                "delete VLAN 30 'old'");
        assertThat(steps).extracting(VlanChange::phase).isSorted();
    }

    @Test
    void equalStatesNeedNoSteps() {
        assertThat(VlanDiff.between(SwitchState.factoryDefault(24), SwitchState.factoryDefault(24))).isEmpty();
    }

    @RepeatedTest(50)
    void applyingTheDiffReachesTheDesiredStateAndTheReverseDiffUndoesIt() {
        Random random = new Random();
        SwitchState from = randomState(random);
        SwitchState to = randomState(random);

        assertThat(VlanDiff.apply(from, VlanDiff.between(from, to))).isEqualTo(to);
        assertThat(VlanDiff.apply(to, VlanDiff.between(to, from))).isEqualTo(from);
    }

    private static SwitchState randomState(Random random) {
        SwitchState state = SwitchState.empty();
        for (int id : new int[] {1, 10, 20, 30, 4094}) {
            if (random.nextBoolean()) {
                TreeSet<Integer> tagged = new TreeSet<>();
                TreeSet<Integer> untagged = new TreeSet<>();
                for (int port = 1; port <= 8; port++) {
                    switch (random.nextInt(3)) {
                        case 0 -> tagged.add(port);
                        case 1 -> untagged.add(port);
                        default -> { }
                    }
                }
                state = state.with(new Vlan(id, "v" + random.nextInt(3), tagged, untagged));
            }
        }
        for (int port = 1; port <= 8; port++) {  // a device has a PVID on every port
            state = state.withPvid(port, 1 + random.nextInt(30));
        }
        return state;
    }

    @Test
    void portRangesRoundTrip() {
        assertThat(PortRanges.format(ports(1, 2, 3, 5, 7, 8))).isEqualTo("1-3,5,7-8");
        assertThat(PortRanges.parse("1-3, 5,7-8")).containsExactly(1, 2, 3, 5, 7, 8);
    }
}
