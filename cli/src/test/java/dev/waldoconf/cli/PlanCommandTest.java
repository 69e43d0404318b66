package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.model.VlanChange;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCommandTest {
    static final String PLAN = """
            vlans:
              - id: 10
                name: users
                ports:
                  - group: access
                    untagged: 1-2
              - id: 30
                absent: true
            """;

    @TempDir
    Path dir;
    CliHarness cli;
    String inventory;
    String plan;

    @BeforeEach
    void files() throws Exception {
        cli = new CliHarness(dir);
        inventory = cli.write("inventory.yaml", CliHarness.INVENTORY).toString();
        plan = cli.write("plan.yaml", PLAN).toString();
    }

    @AfterEach
    void stopLabs() {
        cli.close();
    }

    @Test
    void printsEachSwitchsStepsWithSymbolsAndASummary() throws Exception {
        cli.states.put("lab-3", SwitchState.factoryDefault(24).with(Vlan.empty(30, "guest")));
        CliHarness.Result result = cli.run("plan", plan, "--inventory", inventory);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(result.err()).isEmpty();
        assertThat(result.out().replaceAll("fingerprint [0-9a-f]{12}", "fingerprint F")).isEqualTo("""
                Plan %s for inventory %s:
                  lab-1 (snmp 127.0.0.1:16101, fingerprint F)
                      + create VLAN 10 'users'
                      + add untagged ports 1-2 to VLAN 10
                      ~ set PVID of ports 1-2 1 -> 10
                      - remove ports 1-2 from VLAN 1
                  lab-2 (snmp 127.0.0.1:16102, fingerprint F)
                      + create VLAN 10 'users'
                      + add untagged ports 1-2 to VLAN 10
                      ~ set PVID of ports 1-2 1 -> 10
                      - remove ports 1-2 from VLAN 1
                  lab-3 (snmp 127.0.0.1:16103, fingerprint F)
                      + create VLAN 10 'users'
                      - delete VLAN 30 'guest'

                Plan: 5 to add, 2 to change, 3 to remove, on 3 of 3 switches.
                """.formatted(plan, inventory));
    }

    @Test
    void eachSwitchsFingerprintChangesWithWhatThePlanManagesThereAndWithNothingElse() throws Exception {
        String before = fingerprintOf(cli.run("plan", plan, "--inventory", inventory).out(), "lab-3");
        cli.states.put("lab-3", SwitchState.factoryDefault(24).with(Vlan.empty(50, "oob")));
        String unmanagedChanged = fingerprintOf(cli.run("plan", plan, "--inventory", inventory).out(), "lab-3");
        cli.states.put("lab-3", SwitchState.factoryDefault(24).with(Vlan.empty(10, "someone-else")));
        String managedChanged = fingerprintOf(cli.run("plan", plan, "--inventory", inventory).out(), "lab-3");
        assertThat(unmanagedChanged).isEqualTo(before);
        assertThat(managedChanged).isNotEqualTo(before);
    }

    private static String fingerprintOf(String planOutput, String switchName) {
        java.util.regex.Matcher found = java.util.regex.Pattern.compile(switchName + "\\b.*fingerprint ([0-9a-f]{12})")
                .matcher(planOutput);
        assertThat(found.find()).as("a fingerprint for %s in %s", switchName, planOutput).isTrue();
        return found.group(1);
    }

    @Test
    void pvidChangesAreGroupedOnlyWhenTheyAgree() {
        List<VlanChange> steps = List.of(new VlanChange.SetPvid(1, 1, 10), new VlanChange.SetPvid(2, 1, 10),
                new VlanChange.SetPvid(3, 1, 10), new VlanChange.SetPvid(5, 1, 10), new VlanChange.SetPvid(6, 7, 10),
                new VlanChange.SetPvid(7, 1, 20));
        assertThat(PlanPrinter.lines(steps)).extracting(line -> line.kind().symbol + " " + line.text())
                .containsExactly("~ set PVID of ports 1-3,5 1 -> 10", "~ set PVID of port 6 7 -> 10",
                        "~ set PVID of port 7 1 -> 20");
    }

    @Test
    void coloursOnlyWhenAsked() {
        String plain = cli.run("plan", plan, "-i", inventory).out();
        String coloured = cli.run("plan", plan, "-i", inventory, "--color", "always").out();
        assertThat(plain).doesNotContain("\u001B[");
        assertThat(coloured).contains("\u001B[32m+ create VLAN 10 'users'").contains("\u001B[33m~ set PVID")
                .contains("\u001B[31m- remove ports 1-2 from VLAN 1");
    }

    @Test
    void saysSoWhenNothingChanges() {
        TreeSet<Integer> untagged = new TreeSet<>(java.util.List.of(1, 2));
        SwitchState done = SwitchState.factoryDefault(24);
        Vlan defaultVlan = done.vlans().get(1);
        TreeSet<Integer> rest = new TreeSet<>(defaultVlan.untagged());
        rest.removeAll(untagged);
        done = done.with(defaultVlan.withPorts(new TreeSet<>(), rest))
                .with(new Vlan(10, "users", new TreeSet<>(), untagged)).withPvid(1, 10).withPvid(2, 10);
        cli.states.put("lab-1", done);
        cli.states.put("lab-2", done);
        cli.states.put("lab-3", SwitchState.factoryDefault(24).with(Vlan.empty(10, "users")));
        CliHarness.Result result = cli.run("plan", plan, "-i", inventory);
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("lab-1: no changes")
                .endsWith("No changes: every switch already matches the plan.\n");
    }

    @Test
    void invalidPlanIsReportedWithFileLineColumnAndExitCode2() throws Exception {
        String bad = cli.write("bad.yaml", PLAN.replace("untagged: 1-2", "untagged: '3-x'")
                .replace("group: access", "group: acces")).toString();
        CliHarness.Result result = cli.run("plan", bad, "-i", inventory);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).isEqualTo(bad + ":6:19: vlans[0].ports[0].untagged: '3-x' is not a port or a port"
                + " range like 1-4\n1 problem; nothing was changed. Fix it and run the command again.\n");
    }

    @Test
    void semanticErrorsNameTheInventory() throws Exception {
        String bad = cli.write("bad.yaml", PLAN.replace("group: access", "group: acces")).toString();
        CliHarness.Result result = cli.run("plan", bad, "-i", inventory);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).startsWith(bad + ":5:16: vlans[0].ports[0].group: no group named 'acces' in"
                + " inventory " + inventory + "; did you mean 'access'?\n");
    }

    @Test
    void unreachableSwitchesAreNamedWithExitCode3() {
        cli.unreachable.add("lab-2");
        CliHarness.Result result = cli.run("plan", plan, "-i", inventory);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(result.err()).contains("error: cannot read 1 of 3 switches; nothing was changed:\n"
                + "  lab-2: no answer from 127.0.0.1:16102 within 2000 ms\n");
    }

    @Test
    void missingPlanFileIsAProblemNotACrash() {
        CliHarness.Result result = cli.run("plan", dir.resolve("nope.yaml").toString(), "-i", inventory);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).startsWith(dir.resolve("nope.yaml") + ":1:1: no such file");
    }

    @Test
    void planReadsTheSwitchesSoItWorksWhateverTlsTheLabsServicesRun() {
        Path labDir = dir.resolve("lab");
        assertThat(cli.run("lab", "up", "--insecure", "--switches", "2", "--dir", labDir.toString()).exitCode())
                .isZero();
        CliHarness.Result result = cli.run("plan", plan, "--lab-dir", labDir.toString());
        assertThat(result.exitCode()).as(result.err()).isZero();
        CliHarness.Result status = cli.run("status", "--lab-dir", labDir.toString());
        assertThat(status.exitCode()).as("status reaches the services").isEqualTo(ExitCodes.USAGE);
        assertThat(status.err()).contains("runs its services with TLS off (lab up --insecure); pass --insecure too");
    }

    @Test
    void withoutInventoryTheLocalLabIsStartedAndUsed() {
        Path labDir = dir.resolve("lab");
        CliHarness.Result result = cli.run("plan", plan, "--lab-dir", labDir.toString(), "--lab-switches", "2");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(cli.labs).hasSize(1);
        assertThat(result.err()).contains("starting a lab of 2 simulated switches in " + labDir);
        assertThat(result.out()).contains("for inventory " + labDir.resolve("inventory.yaml"))
                .contains("on 2 of 2 switches");
        CliHarness.Result again = cli.run("plan", plan, "--lab-dir", labDir.toString());
        assertThat(again.err()).as("the running lab is reused").isEmpty();
        assertThat(cli.labs).hasSize(1);
    }
}
