package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.lab.model.QuirkProfile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The process main's argument handling, run in this JVM. */
class SwitchMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return SwitchMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void parsesEveryOption() {
        SwitchConfig config = SwitchMain.parse(new String[] {"--name", "edge", "--host", "127.0.0.2", "--port", "0",
                "--control-port", "-1", "--ports", "48", "--quirks", "strict-order", "--state-file", "/tmp/x.state",
                "--read-community", "ro", "--write-community", "rw", "--user", "ops:SHA-512:secret123:AES-256:secret456"});
        assertThat(config.name()).isEqualTo("edge");
        assertThat(config.host()).isEqualTo("127.0.0.2");
        assertThat(config.controlPort()).isEqualTo(-1);
        assertThat(config.spec().portCount()).isEqualTo(48);
        assertThat(config.spec().quirks()).isEqualTo(QuirkProfile.STRICT_ORDER);
        assertThat(config.stateFile()).isEqualTo(Path.of("/tmp/x.state"));
        assertThat(config.readCommunity()).isEqualTo("ro");
        assertThat(config.writeCommunity()).isEqualTo("rw");
        assertThat(config.users()).singleElement().extracting(UsmUserSpec::name).isEqualTo("ops");
    }

    @Test
    void profileAndSeedAreParsedInEitherOrder() {
        assertThat(SwitchMain.parse(new String[] {"--profile-seed", "7", "--profile", "flaky"}).profile())
                .isEqualTo(DeviceProfile.FLAKY.withSeed(7));
        assertThat(SwitchMain.parse(new String[] {}).profile()).isEqualTo(DeviceProfile.FAST);
        assertThatThrownBy(() -> SwitchMain.parse(new String[] {"--profile", "turbo"}))
                .hasMessageContaining("unknown device profile 'turbo'");
    }

    @Test
    void theControlPortDefaultsToTheSnmpPortPlusOne() {
        assertThat(SwitchMain.parse(new String[] {"--port", "2161"}).controlPort()).isEqualTo(2162);
        assertThat(SwitchMain.parse(new String[] {"--port", "0"}).controlPort()).isZero();
    }

    @Test
    void helpPrintsUsageAndExitsZero() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: java -jar lab-switch.jar", "--quirks",
                "refuse <vlans>");
    }

    @Test
    void badArgumentsSayWhatIsWrongAndShowUsage() {
        assertThat(run("--ports", "many")).isEqualTo(SwitchMain.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("error: option --ports needs a number, got 'many'").contains("usage:");
        assertThatThrownBy(() -> SwitchMain.parse(new String[] {"--quirks", "cisco"}))
                .hasMessageContaining("choose one of standard, strict-order, no-create-and-wait");
        assertThatThrownBy(() -> SwitchMain.parse(new String[] {"--name"})).hasMessage("option --name needs a value");
        assertThatThrownBy(() -> SwitchMain.parse(new String[] {"--user", "x:SHA:short:AES:alsoshort"}))
                .hasMessageContaining("at least 8 characters");
        assertThatThrownBy(() -> SwitchMain.parse(new String[] {"extra"})).hasMessageContaining("options start with --");
    }

    @Test
    void aNonLoopbackAddressIsRefused() {
        assertThat(run("--host", "8.8.8.8", "--port", "0")).isEqualTo(SwitchMain.EXIT_START_FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("loopback only", "127.0.0.0/8");
    }

    @Test
    void aPortInUseIsReportedWithWhatToDo() throws Exception {
        try (SimulatedSwitch taken = SimulatedSwitch.start(SwitchConfig.named("taken").withControlPort(-1))) {
            int port = taken.snmpAddress().getPort();
            assertThat(run("--port", String.valueOf(port), "--control-port", "-1"))
                    .isEqualTo(SwitchMain.EXIT_START_FAILED);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot bind SNMP to UDP 127.0.0.1:" + port,
                    "choose another port");
        }
    }
}
