package dev.waldoconf.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanLoaderTest {
    private static final String PLAN = """
            vlans:
              - id: 10
                name: users
                ports:
                  - group: access
                    untagged: 1-8
                  - group: all
                    tagged: 24
              - id: 20
                name: voice
                ports:
                  - switch: lab-1
                    tagged: '1-8,23'
              - id: 30
                absent: true
            pvids:
              - switch: lab-3
                ports: 9-10
                vlan: 20
            """;

    @TempDir
    Path dir;
    private Inventory inventory;

    @BeforeEach
    void readInventory() throws Exception {
        inventory = ConfigFixtures.inventory(dir);
    }

    private String problemsOf(String yaml) throws Exception {
        Path file = ConfigFixtures.write(dir, "plan.yaml", yaml);
        try {
            PlanLoader.load(file, inventory);
        } catch (ConfigException e) {
            return e.getMessage().replace(file.toString(), "plan.yaml");
        }
        throw new AssertionError("expected the plan to be rejected");
    }

    @Test
    void readsVlansMembershipsAndPvids() throws Exception {
        Plan plan = PlanLoader.load(ConfigFixtures.write(dir, "plan.yaml", PLAN), inventory);
        assertThat(plan.vlans()).extracting(Plan.PlanVlan::id).containsExactly(10, 20, 30);
        Plan.Membership access = plan.vlans().get(0).memberships().get(0);
        assertThat(access.target()).isEqualTo(new Target(Target.Kind.GROUP, "access"));
        assertThat(access.untagged()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(plan.vlans().get(1).memberships().get(0).tagged()).contains(1, 8, 23).doesNotContain(9);
        assertThat(plan.vlans().get(2).absent()).isTrue();
        assertThat(plan.pvids().get(0).ports()).containsExactly(9, 10);
    }

    @Test
    void badPortListNamesFileLineColumnAndField() throws Exception {
        String message = problemsOf(PLAN.replace("tagged: '1-8,23'", "untagged: '3-x'"));
        assertThat(message).isEqualTo(
                "plan.yaml:13:19: vlans[1].ports[0].untagged: '3-x' is not a port or a port range like 1-4");
    }

    @Test
    void unknownSwitchAndGroupSuggestTheClosestName() throws Exception {
        String message = problemsOf(PLAN.replace("switch: lab-1", "switch: lab-l").replace("group: access",
                "group: acess"));
        assertThat(message.lines()).containsExactly(
                "plan.yaml:5:16: vlans[0].ports[0].group: no group named 'acess' in inventory " + dir.resolve(
                        "inventory.yaml") + "; did you mean 'access'?",
                "plan.yaml:12:17: vlans[1].ports[0].switch: no switch named 'lab-l' in inventory " + dir.resolve(
                        "inventory.yaml") + "; did you mean 'lab-1'?");
    }

    @Test
    void duplicateVlanIdPointsAtBothEntries() throws Exception {
        String message = problemsOf(PLAN.replace("id: 20", "id: 10"));
        assertThat(message).isEqualTo("plan.yaml:9:9: vlans[1].id: VLAN 10 is already listed at 2:5 (vlans[0]);"
                + " list each VLAN once and put all its ports there");
    }

    @Test
    void portBeyondTheSwitchIsRejected() throws Exception {
        String message = problemsOf(PLAN.replace("tagged: '1-8,23'", "tagged: '1-8,48'"));
        assertThat(message).isEqualTo("plan.yaml:13:17: vlans[1].ports[0].tagged: port 48 is beyond switch lab-1's"
                + " 24 ports");
    }

    @Test
    void portUntaggedInTwoVlansIsRejected() throws Exception {
        String message = problemsOf(PLAN.replace("tagged: '1-8,23'", "untagged: '8-9'"));
        assertThat(message).isEqualTo("plan.yaml:13:19: vlans[1].ports[0].untagged: port 8 on switch lab-1 is"
                + " already untagged in another VLAN (vlans[0].ports[0].untagged at 6:19); a port can be untagged"
                + " in one VLAN only: make it tagged in one of them");
    }

    @Test
    void pvidNamingADeletedVlanIsRejected() throws Exception {
        String message = problemsOf(PLAN.replace("vlan: 20", "vlan: 30"));
        assertThat(message).isEqualTo("plan.yaml:19:11: pvids[0].vlan: PVID 30 names a VLAN this plan deletes"
                + " (vlans[2]); choose a VLAN that will exist");
    }

    @Test
    void misspeltFieldGetsASuggestion() throws Exception {
        String message = problemsOf(PLAN.replace("untagged: 1-8", "untaged: 1-8"));
        assertThat(message).isEqualTo("plan.yaml:6:18: vlans[0].ports[0].untaged: unknown field 'untaged'; did you"
                + " mean 'untagged'?");
    }

    @Test
    void schemaLimitsAreExplained() throws Exception {
        String message = problemsOf("""
                vlans:
                  - id: 5000
                    name: big
                """);
        assertThat(message).isEqualTo("plan.yaml:2:9: vlans[0].id: 5000 is above the maximum 4094");
    }

    @Test
    void entriesThatSayTooLittleOrTooMuchAreExplained() throws Exception {
        String message = problemsOf("""
                vlans:
                  - id: 11
                    ports:
                      - tagged: 3
                  - id: 12
                    name: x
                    absent: true
                    ports: []
                """);
        assertThat(message.lines()).containsExactly(
                "plan.yaml:2:5: vlans[0]: VLAN 11 needs a name (or 'absent: true' to delete it)",
                "plan.yaml:4:9: vlans[0].ports[0]: give either 'switch: NAME' or 'group: NAME' (use 'group: all'"
                        + " for every switch)",
                "plan.yaml:8:12: vlans[1].ports: VLAN 12 is marked absent (deleted), so it cannot have ports;"
                        + " remove 'ports' or 'absent'");
    }
}
