package dev.waldoconf.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.model.PortRanges;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.model.VlanChange;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanResolverTest {
    @TempDir
    Path dir;
    private Inventory inventory;
    private final Map<String, SwitchState> current = new HashMap<>();

    @BeforeEach
    void factoryDefaults() throws Exception {
        inventory = ConfigFixtures.inventory(dir);
        for (String name : inventory.groups().get(Inventory.ALL)) {
            current.put(name, SwitchState.factoryDefault(24));
        }
    }

    private ResolvedPlan resolve(String yaml) throws Exception {
        Plan plan = PlanLoader.load(ConfigFixtures.write(dir, "plan.yaml", yaml), inventory);
        return PlanResolver.resolve(plan, inventory, current);
    }

    private static SwitchState desiredOf(ResolvedPlan resolved, String name) {
        return resolved.switches().stream().filter(s -> s.target().name().equals(name)).findFirst().orElseThrow()
                .desired();
    }

    private static Vlan vlan(int id, String name, String tagged, String untagged) {
        return new Vlan(id, name, PortRanges.parse(tagged), PortRanges.parse(untagged));
    }

    @Test
    void untaggedPortsBecomeAccessPortsAndTakeThePvid() throws Exception {
        ResolvedPlan resolved = resolve("""
                vlans:
                  - id: 10
                    name: users
                    ports:
                      - group: access
                        untagged: 1-8
                      - group: all
                        tagged: 24
                """);
        SwitchState lab1 = desiredOf(resolved, "lab-1");
        assertThat(lab1.vlans().get(10)).isEqualTo(vlan(10, "users", "24", "1-8"));
        assertThat(lab1.vlans().get(1)).isEqualTo(vlan(1, "default", "", "9-24"));
        assertThat(lab1.pvids().get(1)).isEqualTo(10);
        assertThat(lab1.pvids().get(9)).isEqualTo(1);
        assertThat(lab1.pvids().get(24)).isEqualTo(1);
        SwitchState lab3 = desiredOf(resolved, "lab-3");
        assertThat(lab3.vlans().get(10)).isEqualTo(vlan(10, "users", "24", ""));
        assertThat(lab3.vlans().get(1)).isEqualTo(SwitchState.factoryDefault(24).vlans().get(1));
        assertThat(resolved.changing()).hasSize(3);
    }

    @Test
    void managedMembershipIsExactlyThePlanAndUnlistedVlansAreUntouched() throws Exception {
        SwitchState before = SwitchState.factoryDefault(24)
                .with(vlan(10, "old-users", "20-22", ""))
                .with(vlan(40, "printers", "24", "12"))
                .withPvid(12, 40);
        current.put("lab-1", before);
        ResolvedPlan resolved = resolve("""
                vlans:
                  - id: 10
                    name: users
                    ports:
                      - switch: lab-1
                        tagged: 24
                """);
        SwitchState lab1 = desiredOf(resolved, "lab-1");
        assertThat(lab1.vlans().get(10)).isEqualTo(vlan(10, "users", "24", ""));
        assertThat(lab1.vlans().get(40)).isEqualTo(before.vlans().get(40));
        assertThat(lab1.pvids()).isEqualTo(before.pvids());
        assertThat(resolved.switches().get(0).steps()).extracting(VlanChange::describe).containsExactly(
                "rename VLAN 10 'old-users' -> 'users'", "add tagged port 24 to VLAN 10",
                "remove ports 20-22 from VLAN 10");
    }

    @Test
    void accessPortsLeaveTaggedMembershipOfUnmanagedVlans() throws Exception {
        current.put("lab-1", SwitchState.factoryDefault(24).with(vlan(40, "printers", "1-2,24", "")));
        ResolvedPlan resolved = resolve("""
                vlans:
                  - id: 10
                    name: users
                    ports:
                      - switch: lab-1
                        untagged: 1
                """);
        assertThat(desiredOf(resolved, "lab-1").vlans().get(40)).isEqualTo(vlan(40, "printers", "2,24", ""));
    }

    @Test
    void absentVlansAreDeletedWhereTheyExist() throws Exception {
        current.put("lab-2", SwitchState.factoryDefault(24).with(vlan(30, "guest", "24", "")));
        ResolvedPlan resolved = resolve("""
                vlans:
                  - id: 30
                    absent: true
                """);
        assertThat(resolved.changing()).extracting(s -> s.target().name()).containsExactly("lab-2");
        assertThat(resolved.changing().get(0).steps()).extracting(VlanChange::describe)
                .containsExactly("delete VLAN 30 'guest'");
    }

    @Test
    void explicitPvidWins() throws Exception {
        ResolvedPlan resolved = resolve("""
                vlans:
                  - id: 10
                    name: users
                    ports:
                      - switch: lab-1
                        untagged: 1-2
                  - id: 20
                    name: voice
                    ports:
                      - switch: lab-1
                        tagged: 1-2
                pvids:
                  - switch: lab-1
                    ports: 2
                    vlan: 20
                """);
        SwitchState lab1 = desiredOf(resolved, "lab-1");
        assertThat(lab1.pvids().get(1)).isEqualTo(10);
        assertThat(lab1.pvids().get(2)).isEqualTo(20);
    }

    @Test
    void deletingAVlanThatIsStillAPvidIsRefused() throws Exception {
        current.put("lab-1", SwitchState.factoryDefault(24).with(vlan(30, "guest", "", "5")).withPvid(5, 30));
        assertThatThrownBy(() -> resolve("""
                vlans:
                  - id: 30
                    absent: true
                """)).isInstanceOf(ConfigException.class).hasMessage(dir.resolve("plan.yaml") + ":2:5: vlans[0]: on"
                + " switch lab-1, port 5 has PVID 30, which this plan deletes; give the port another PVID under"
                + " 'pvids:' or make it untagged in another VLAN");
    }

    @Test
    void explicitPvidOfAVlanTheSwitchWillNotHaveIsRefused() throws Exception {
        assertThatThrownBy(() -> resolve("""
                vlans:
                  - id: 10
                    name: users
                pvids:
                  - switch: lab-2
                    ports: 3
                    vlan: 77
                """)).hasMessage(dir.resolve("plan.yaml") + ":7:11: pvids[0].vlan: on switch lab-2, VLAN 77 will"
                + " not exist; add it to 'vlans:' or choose a VLAN the switch has");
    }

    @Test
    void pruningAPortFromItsPvidVlanIsRefused() throws Exception {
        current.put("lab-1", SwitchState.factoryDefault(24).with(vlan(10, "users", "", "3")).withPvid(3, 10));
        assertThatThrownBy(() -> resolve("""
                vlans:
                  - id: 10
                    name: users
                    ports:
                      - switch: lab-1
                        untagged: 4
                """)).hasMessageContaining("vlans[0]: on switch lab-1, port 3 keeps PVID 10 but no longer carries"
                + " VLAN 10");
    }

    @Test
    void portCountComesFromTheSwitchWhenTheInventoryHasNone() throws Exception {
        current.put("lab-3", SwitchState.factoryDefault(8));
        assertThatThrownBy(() -> resolve("""
                vlans:
                  - id: 10
                    name: users
                    ports:
                      - group: core
                        tagged: 7-9
                """)).hasMessage(dir.resolve("plan.yaml") + ":6:17: vlans[0].ports[0].tagged: port 9 is beyond"
                + " switch lab-3's 8 ports");
    }

    @Test
    void desiredStateIsAFixedPoint() throws Exception {
        String yaml = """
                vlans:
                  - id: 10
                    name: users
                    ports:
                      - group: access
                        untagged: 1-8
                      - group: all
                        tagged: 24
                """;
        ResolvedPlan first = resolve(yaml);
        first.switches().forEach(s -> current.put(s.target().name(), s.desired()));
        assertThat(resolve(yaml).isEmpty()).isTrue();
        assertThat(new TreeSet<>(current.keySet())).containsExactly("lab-1", "lab-2", "lab-3");
    }
}
