package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.Executables;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snmp4j.smi.OID;

/**
 * {@link SnmpScalars} against net-snmp's {@code snmpd} (Debian package {@code snmpd}), so the
 * driver's v2c and v3 (SHA-256 and SHA-1, AES) are checked by an agent nobody here wrote. Skipped
 * when snmpd is not installed (on PATH or in an sbin folder: {@link Executables}), unless
 * WALDO_EXPECT_SNMP=1 says it must be.
 */
class SnmpScalarsNetSnmpTest {
    private static final String AUTH = "waldo-auth-pass";
    private static final String PRIV = "waldo-priv-pass";
    private static final int START_ATTEMPTS = 50;
    private static final long START_PAUSE_MS = 200;

    @TempDir
    static Path home;
    private static Process snmpd;
    private static InetSocketAddress agent;

    @BeforeAll
    static void startSnmpd() throws Exception {
        Path binary = Executables.requireSnmpd();
        agent = new InetSocketAddress(InetAddress.getLoopbackAddress(), freeUdpPort());
        Path config = home.resolve("snmpd.conf");
        Files.writeString(config, String.join("\n",
                "agentAddress udp:127.0.0.1:" + agent.getPort(),
                "rwcommunity private 127.0.0.1",
                "createUser ops SHA-256 \"" + AUTH + "\" AES \"" + PRIV + "\"",
                "createUser oldgear SHA \"" + AUTH + "\" AES \"" + PRIV + "\"",
                "rwuser ops priv",
                "rwuser oldgear priv", ""));
        snmpd = new ProcessBuilder(binary.toString(), "-f", "-Lo", "-C", "-c", config.toString(),
                "--persistentDir=" + home.resolve("persist"))
                .redirectErrorStream(true).redirectOutput(home.resolve("snmpd.log").toFile()).start();
        awaitAnswers();
    }

    @AfterAll
    static void stopSnmpd() throws InterruptedException {
        if (snmpd != null) {
            snmpd.destroy();
            if (!snmpd.waitFor(5, TimeUnit.SECONDS)) {
                snmpd.destroyForcibly();
            }
        }
    }

    /** A UDP port that was free a moment ago; snmpd binds it right after. */
    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void awaitAnswers() throws Exception {
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            if (!snmpd.isAlive()) {
                throw new IllegalStateException("snmpd exited: " + Files.readString(home.resolve("snmpd.log")));
            }
            try (SnmpScalars probe = SnmpScalars.open("snmpd", v2c().withTimeoutMs(200).withRetries(0))) {
                probe.get(SnmpScalars.SYS_NAME);
                return;
            } catch (DeviceException notYet) {
                Thread.sleep(START_PAUSE_MS);
            }
        }
        throw new IllegalStateException("snmpd did not answer on " + agent);
    }

    private static SnmpTarget v2c() {
        return new SnmpTarget(agent, new SnmpCredentials.Community("private"), LabSwitches.TIMEOUT_MS, 1);
    }

    private static SnmpTarget v3(String user, SnmpCredentials.Auth auth) {
        return new SnmpTarget(agent, new SnmpCredentials.Usm(user, auth, AUTH, SnmpCredentials.Priv.AES128, PRIV),
                LabSwitches.TIMEOUT_MS, 1);
    }

    @Test
    void setsAndRestoresSysLocationOverV2c() throws Exception {
        try (SnmpScalars scalars = SnmpScalars.open("snmpd", v2c())) {
            ScalarValue old = scalars.set(SnmpScalars.SYS_LOCATION, new ScalarValue.Text("rack 9, v2c"));

            assertThat(scalars.get(SnmpScalars.SYS_LOCATION)).isEqualTo(new ScalarValue.Text("rack 9, v2c"));
            scalars.restore(SnmpScalars.SYS_LOCATION, old);
            assertThat(scalars.get(SnmpScalars.SYS_LOCATION)).isEqualTo(old);
        }
    }

    @Test
    void setsSysContactOverV3WithSha256AndWithSha1() throws Exception {
        for (var user : List.of(v3("ops", SnmpCredentials.Auth.SHA256), v3("oldgear", SnmpCredentials.Auth.SHA1))) {
            String contact = "noc via " + ((SnmpCredentials.Usm) user.credentials()).user();
            try (SnmpScalars scalars = SnmpScalars.open("snmpd", user)) {
                scalars.set(SnmpScalars.SYS_CONTACT, new ScalarValue.Text(contact));
            }
            try (SnmpScalars check = SnmpScalars.open("snmpd", v2c())) {
                assertThat(check.get(SnmpScalars.SYS_CONTACT)).isEqualTo(new ScalarValue.Text(contact));
            }
        }
    }

    @Test
    void aReadOnlyObjectIsRefusedWithTheAgentsErrorStatus() throws Exception {
        try (SnmpScalars scalars = SnmpScalars.open("snmpd", v2c())) {
            DeviceException failure = catchThrowableOfType(DeviceException.class,
                    () -> scalars.set(new OID("1.3.6.1.2.1.1.1.0"), new ScalarValue.Text("not a router")));

            assertThat(failure.getMessage()).contains("snmpd", "1.3.6.1.2.1.1.1.0", "notWritable");
            assertThat(failure.undone()).isTrue();
        }
    }
}
