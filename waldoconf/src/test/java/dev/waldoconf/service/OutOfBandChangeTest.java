package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.lab.Lab;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.snmp.SnmpCredentials;
import dev.waldoconf.snmp.SnmpTarget;
import dev.waldoconf.snmp.SnmpVlanDevice;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9's lost update: someone changes a switch between apply's preview and the operator's
 * 'yes'. What the plan does not manage must survive; a change to what it manages must not be
 * silently overwritten. Two lab switches (simulated Q-BRIDGE agents over SNMP), each with its
 * real service, through the engine {@code waldoconf apply} uses.
 */
@Timeout(120)
class OutOfBandChangeTest {
    /** dot1qVlanStaticEntry: .1 name, .5 row status. */
    private static final String STATIC_ENTRY = "1.3.6.1.2.1.17.7.1.4.3.1";
    /** The plan of the p60.yaml: VLAN 60 tagged on port 20 of every switch. */
    private static final String P60 = """
            vlans:
              - id: 60
                name: p60
                ports:
                  - group: all
                    tagged: 20
            """;

    @TempDir
    Path dir;
    private Lab lab;
    private ServedSwitches served;

    @BeforeEach
    void start() throws Exception {
        lab = Lab.start(2, SwitchConfig.named("lab"), null);
        Map<String, java.net.InetSocketAddress> agents = new LinkedHashMap<>();
        lab.switches().forEach(sw -> agents.put(sw.name(), sw.snmpAddress()));
        served = ServedSwitches.overSnmp(dir, agents);
    }

    @AfterEach
    void stop() throws Exception {
        if (served != null) {
            served.close();
        }
        if (lab != null) {
            lab.close();
        }
    }

    private SimulatedSwitch first() {
        return lab.switches().get(0);
    }

    @Test
    void aVlanCreatedWithSnmp4jBetweenPreviewAndCommitSurvivesAndThePlanIsApplied() throws Exception {
        ResolvedPlan preview = served.preview(served.plan(P60));
        createOutOfBand(first(), 50, "oob");

        ApplyResult result = served.apply(preview, true);

        assertThat(result.outcome()).as(result.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        assertSurvivedAndApplied();
    }

    @Test
    void aVlanCreatedWithNetSnmpSnmpsetBetweenPreviewAndCommitSurvivesAndThePlanIsApplied() throws Exception {
        assumeSnmpset();
        ResolvedPlan preview = served.preview(served.plan(P60));
        SimulatedSwitch sw = first();
        // As in the issue: net-snmp's snmpset creates VLAN 50 'oob' (createAndGo, then its name).
        int exit = run("snmpset", "-v2c", "-c", "private", "-t", "3", "-r", "1",
                "127.0.0.1:" + sw.snmpAddress().getPort(),
                STATIC_ENTRY + ".5.50", "i", "4", STATIC_ENTRY + ".1.50", "s", "oob");
        assertThat(exit).as("snmpset's exit code").isZero();
        assertThat(served.read(sw.name()).vlans()).containsKey(50);

        ApplyResult result = served.apply(preview, true);

        assertThat(result.outcome()).as(result.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        assertSurvivedAndApplied();
    }

    /**
     * VLAN 60 made by someone else after the services started, with the plan's own name: the plan
     * only adds its port, so its change sets no name of VLAN 60. The service counts the VLAN at
     * that first change (its counters exist only for the VLANs it found at start).
     */
    @Test
    void aVlanMadeOutsideWaldoConfSinceTheServicesStartedTakesThePlansPorts() throws Exception {
        for (SimulatedSwitch sw : lab.switches()) {
            createOutOfBand(sw, 60, "p60");
        }

        ApplyResult result = served.apply(served.preview(served.plan(P60)), true);

        assertThat(result.outcome()).as(result.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        for (SimulatedSwitch sw : lab.switches()) {
            assertThat(served.read(sw.name()).vlans().get(60)).as("VLAN 60 on %s", sw.name())
                    .isEqualTo(new Vlan(60, "p60", new TreeSet<>(Set.of(20)), new TreeSet<>()));
        }
    }

    private void assertSurvivedAndApplied() throws Exception {
        SwitchState after = served.read(first().name());
        assertThat(after.vlans().get(50)).as("VLAN 50, made outside WaldoConf").isNotNull()
                .extracting(Vlan::name).isEqualTo("oob");
        for (SimulatedSwitch sw : lab.switches()) {
            assertThat(served.read(sw.name()).vlans().get(60)).as("VLAN 60 on %s", sw.name())
                    .isEqualTo(new Vlan(60, "p60", new TreeSet<>(Set.of(20)), new TreeSet<>()));
        }
    }

    @Test
    void aChangeToAManagedVlanSinceThePreviewChangesNothingAndShowsThePlanAsItIsNow() throws Exception {
        ResolvedPlan preview = served.preview(served.plan(P60));
        createOutOfBand(first(), 60, "someone-else");
        Map<String, SwitchState> before = served.readAll();

        ApplyResult stale = served.apply(preview, true);

        assertThat(stale.outcome()).isEqualTo(ApplyResult.Outcome.STALE);
        assertThat(stale.message()).contains(first().name()).contains("changed since the preview");
        assertThat(served.readAll()).as("nothing was changed").isEqualTo(before);
        ResolvedPlan now = stale.plan().orElseThrow();
        assertThat(now.switchNamed(first().name()).orElseThrow().fingerprint())
                .isNotEqualTo(preview.switchNamed(first().name()).orElseThrow().fingerprint());
        assertThat(now.switchNamed(first().name()).orElseThrow().steps()).extracting(Object::toString)
                .anySatisfy(step -> assertThat(step).contains("RenameVlan"));

        ApplyResult applied = served.apply(now, true);

        assertThat(applied.outcome()).as(applied.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        assertThat(served.read(first().name()).vlans().get(60).name()).isEqualTo("p60");
    }

    @Test
    void withoutThePreviewRuleThePlanIsAppliedAsItResolvesAtCommit() throws Exception {
        ResolvedPlan preview = served.preview(served.plan(P60));
        createOutOfBand(first(), 60, "someone-else");

        ApplyResult applied = served.apply(preview, false);

        assertThat(applied.outcome()).as(applied.message()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        assertThat(applied.plan().orElseThrow().fingerprints()).isNotEqualTo(preview.fingerprints());
        assertThat(served.read(first().name()).vlans().get(60).name()).isEqualTo("p60");
    }

    @Test
    void aPlanThatNoLongerFitsAtCommitIsRefusedWithItsFileLineAndColumnAndChangesNothing() throws Exception {
        createOutOfBand(first(), 70, "printers");
        createOutOfBand(lab.switches().get(1), 70, "printers");
        // Port 5's PVID names VLAN 70, which the plan does not manage: fine while the switches have it.
        ResolvedPlan preview = served.preview(served.plan(P60 + """
                pvids:
                  - group: all
                    ports: 5
                    vlan: 70
                """));
        deleteOutOfBand(first(), 70);
        Map<String, SwitchState> before = served.readAll();

        assertThatThrownBy(() -> served.apply(preview, false)).isInstanceOfSatisfying(ConfigException.class, e ->
                assertThat(e.problems()).singleElement().asString()
                        .containsPattern("plan-\\d+\\.yaml:10:\\d+")
                        .contains("on switch " + first().name() + ", VLAN 70 will not exist"));
        assertThat(served.readAll()).as("nothing was changed").isEqualTo(before);
    }

    /** Creates VLAN {@code id} named {@code name} on {@code sw} with SNMP4J, not through WaldoConf. */
    private static void createOutOfBand(SimulatedSwitch sw, int id, String name) throws Exception {
        try (SnmpVlanDevice device = writer(sw)) {
            device.push(device.read().with(Vlan.empty(id, name)));
        }
    }

    private static void deleteOutOfBand(SimulatedSwitch sw, int id) throws Exception {
        try (SnmpVlanDevice device = writer(sw)) {
            device.push(device.read().without(id));
        }
    }

    private static SnmpVlanDevice writer(SimulatedSwitch sw) throws Exception {
        return SnmpVlanDevice.open(sw.name() + "-someone-else",
                new SnmpTarget(sw.snmpAddress(), new SnmpCredentials.Community("private"), 3000, 1));
    }

    private static void assumeSnmpset() {
        boolean found = Files.isExecutable(Path.of("/usr/bin/snmpset")) || List.of(System.getenv()
                .getOrDefault("PATH", "").split(File.pathSeparator)).stream()
                .anyMatch(folder -> Files.isExecutable(Path.of(folder, "snmpset")));
        if (!found && "1".equals(System.getenv("WALDO_EXPECT_SNMP"))) {
            throw new IllegalStateException("WALDO_EXPECT_SNMP=1 but net-snmp's snmpset is not on the PATH");
        }
        Assumptions.assumeTrue(found, "net-snmp's snmpset is not installed (apt-get install snmp)");
    }

    private static int run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("snmpset did not finish within 30 s");
        }
        return process.exitValue();
    }
}
