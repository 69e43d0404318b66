package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.model.PortSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** net-snmp's snmpget, snmpset and snmpwalk, a peer nobody here wrote, against an embedded switch. */
class NetSnmpInteropTest {
    private static final String STATIC = "1.3.6.1.2.1.17.7.1.4.3.1";
    private static final String CURRENT = "1.3.6.1.2.1.17.7.1.4.2.1";
    private static final String PVID = "1.3.6.1.2.1.17.7.1.4.5.1.1";

    @TempDir
    Path home;

    private SimulatedSwitch sw;

    @BeforeAll
    static void tools() {
        NetSnmp.requireTools();
    }

    @BeforeEach
    void start() throws IOException {
        sw = SimulatedSwitch.start(SwitchConfig.named("interop"));
    }

    @AfterEach
    void stop() {
        sw.close();
    }

    private NetSnmp session(String version) {
        return version.equals("v2c") ? NetSnmp.v2c(sw.snmpAddress(), "private", home)
                : NetSnmp.v3(sw.snmpAddress(), UsmUserSpec.defaultSha256(), home);
    }

    private static String hex(int... ports) {
        return PortSet.of(ports).toHex(24);
    }

    @ParameterizedTest
    @ValueSource(strings = {"v2c", "v3"})
    void createsModifiesAndDestroysVlansAndSetsPvids(String version) throws IOException {
        NetSnmp snmp = session(version);
        NetSnmp.Result created = snmp.set(STATIC + ".5.10", "i", "4", STATIC + ".1.10", "s", "users",
                STATIC + ".2.10", "x", hex(1, 2, 3), STATIC + ".4.10", "x", hex(3));
        assertThat(created.exitCode()).as(created.output()).isZero();
        assertThat(snmp.walk(STATIC + ".1").output()).contains("." + STATIC + ".1.10 = STRING: \"users\"");
        assertThat(snmp.walk(CURRENT + ".4").output()).contains("." + CURRENT + ".4.0.10 = Hex-STRING: E0 00 00");

        assertThat(snmp.set(STATIC + ".1.10", "s", "staff", STATIC + ".2.10", "x", hex(1, 2, 3, 4)).exitCode())
                .isZero();
        assertThat(snmp.get(STATIC + ".1.10", STATIC + ".2.10").output())
                .contains("STRING: \"staff\"", "Hex-STRING: F0 00 00");

        assertThat(snmp.set(PVID + ".3", "u", "10").exitCode()).isZero();
        assertThat(snmp.get(PVID + ".3").output()).contains("Gauge32: 10");
        assertThat(snmp.set(PVID + ".3", "u", "1", STATIC + ".5.10", "i", "6").exitCode()).isZero();
        assertThat(snmp.walk(STATIC + ".5").output()).doesNotContain(STATIC + ".5.10 ");
        assertThat(sw.state().vlan(10)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"v2c", "v3"})
    void createAndWaitThenActive(String version) throws IOException {
        NetSnmp snmp = session(version);
        assertThat(snmp.set(STATIC + ".5.20", "i", "5").exitCode()).isZero();
        assertThat(snmp.get(STATIC + ".5.20").output()).contains("INTEGER: 2");
        assertThat(snmp.set(STATIC + ".5.20", "i", "1").exitCode()).isZero();
        assertThat(snmp.get(STATIC + ".5.20").output()).contains("INTEGER: 1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"v2c", "v3"})
    void everyRejectionIsReportedWithItsErrorStatus(String version) throws IOException {
        NetSnmp snmp = session(version);
        assertThat(snmp.set(STATIC + ".5.10", "i", "4", STATIC + ".2.10", "x", hex(1, 2), PVID + ".2", "u", "10")
                .exitCode()).isZero();
        assertRejected(snmp.set(STATIC + ".5.1", "i", "4"), "inconsistentValue", STATIC + ".5.1");
        assertRejected(snmp.set(STATIC + ".5.0", "i", "4"), "noCreation", STATIC + ".5.0");
        assertRejected(snmp.set(STATIC + ".5.4095", "i", "4"), "noCreation", STATIC + ".5.4095");
        assertRejected(snmp.set(STATIC + ".5.4100", "i", "4"), "noCreation", STATIC + ".5.4100");
        assertRejected(snmp.set(STATIC + ".2.10", "x", "FFFFFFFF"), "wrongLength", STATIC + ".2.10");
        assertRejected(snmp.set(STATIC + ".4.10", "x", hex(2, 3)), "inconsistentValue", STATIC + ".4.10");
        assertRejected(snmp.set(STATIC + ".3.10", "x", hex(1)), "inconsistentValue", STATIC + ".3.10");
        assertRejected(snmp.set(PVID + ".4", "u", "99"), "inconsistentValue", PVID + ".4");
        assertRejected(snmp.set(STATIC + ".5.10", "i", "6"), "inconsistentValue", STATIC + ".5.10");
        assertRejected(snmp.set(PVID + ".4", "i", "10"), "wrongType", PVID + ".4");
        assertRejected(snmp.set(STATIC + ".1.10", "i", "7"), "wrongType", STATIC + ".1.10");
    }

    @ParameterizedTest
    @ValueSource(strings = {"v2c", "v3"})
    void aMultiVarbindPduWithOneBadVarbindChangesNothing(String version) throws IOException {
        NetSnmp snmp = session(version);
        var before = sw.state();
        NetSnmp.Result refused = snmp.set(STATIC + ".5.30", "i", "4", STATIC + ".1.30", "s", "new",
                STATIC + ".2.30", "x", hex(5, 6), "1.3.6.1.2.1.1.5.0", "s", "renamed", PVID + ".5", "u", "31");
        assertRejected(refused, "inconsistentValue", PVID + ".5");
        assertThat(sw.state()).isEqualTo(before);
        assertThat(snmp.get(STATIC + ".5.30", "1.3.6.1.2.1.1.5.0").output())
                .contains("No Such Instance", "STRING: \"interop\"");
    }

    /** snmpbulkwalk (the lab's own GETBULK answer) sees what snmpwalk (GETNEXT, SNMP4J-Agent's) sees. */
    @ParameterizedTest
    @ValueSource(strings = {"v2c", "v3"})
    void aBulkWalkSeesWhatAWalkSees(String version) throws IOException {
        NetSnmp snmp = session(version);
        for (int vlan = 10; vlan <= 14; vlan++) {
            assertThat(snmp.set(STATIC + ".5." + vlan, "i", "4", STATIC + ".1." + vlan, "s", "v" + vlan,
                    STATIC + ".2." + vlan, "x", hex(1, vlan)).exitCode()).isZero();
        }
        List<String> walked = withoutUpTime(snmp.walk("1.3.6.1.2.1"));
        assertThat(walked).hasSizeGreaterThan(250).contains("." + STATIC + ".1.14 = STRING: \"v14\"");
        for (int repetitions : new int[] {1, 7, 60}) {
            assertThat(withoutUpTime(snmp.bulkWalk("1.3.6.1.2.1", repetitions))).as("-Cr%d", repetitions)
                    .isEqualTo(walked);
        }
    }

    /** The lines a walk printed, sysUpTime's value (which moves between two walks) left out. */
    private static List<String> withoutUpTime(NetSnmp.Result result) {
        assertThat(result.exitCode()).as(result.output()).isZero();
        return result.output().lines().map(line -> line.startsWith(".1.3.6.1.2.1.1.3.0 = ")
                ? ".1.3.6.1.2.1.1.3.0" : line).toList();
    }

    @Test
    void sha1UsersAreAcceptedForOldGear() throws IOException {
        NetSnmp snmp = NetSnmp.v3(sw.snmpAddress(), UsmUserSpec.defaultSha1(), home);
        NetSnmp.Result result = snmp.get("1.3.6.1.2.1.1.5.0");
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("STRING: \"interop\"");
    }

    @Test
    void theReadCommunityGetsNoAccessOnSet() throws IOException {
        NetSnmp reader = NetSnmp.v2c(sw.snmpAddress(), "public", home);
        assertThat(reader.walk("1.3.6.1.2.1.17.1.4.1.2").output().lines()
                .filter(line -> line.startsWith(".1.3.6.1.2.1.17.1.4.1.2."))).hasSize(24);
        assertThat(reader.set(STATIC + ".5.40", "i", "4").reason()).isEqualTo("noAccess");
    }

    private static void assertRejected(NetSnmp.Result result, String reason, String failedObject) {
        assertThat(result.exitCode()).as(result.output()).isNotZero();
        assertThat(result.reason()).as(result.output()).isEqualTo(reason);
        assertThat(result.failedObject()).as(result.output()).isEqualTo(failedObject);
    }
}
