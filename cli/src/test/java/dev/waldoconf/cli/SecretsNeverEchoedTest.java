package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An inventory with inline secrets (a v2c community and SNMPv3 passphrases) is refused by every
 * command that reads one, and none of them repeats a secret: not on their own writers, not on the
 * process's stdout or stderr (where logs go), not in their help.
 */
class SecretsNeverEchoedTest {
    private static final String COMMUNITY = "c0mmunity-SECRET-1";
    private static final String AUTH = "auth-SECRET-2";
    private static final String PRIV = "priv-SECRET-3";
    private static final List<String> SECRETS = List.of(COMMUNITY, AUTH, PRIV);
    private static final String PLAN = Path.of("..", "configs", "vlan.yaml").toString();

    @TempDir
    Path dir;

    private Path inventoryWithInlineSecrets() throws Exception {
        return Files.writeString(dir.resolve("inv.yaml"), """
                switches:
                  - {name: lab-1, service: 127.0.0.1:17101, snmp: 127.0.0.1:16101, version: '2c', credentials: v2}
                  - {name: lab-2, service: 127.0.0.1:17102, snmp: 127.0.0.1:16102, version: '3', credentials: v3}
                credentials:
                  v2:
                    community: %s
                  v3:
                    user: admin
                    auth: {protocol: SHA, passphrase: '%s'}
                    priv: {protocol: AES, passphrase: "%s"}
                """.formatted(COMMUNITY, AUTH, PRIV));
    }

    @Test
    void everyCommandThatReadsAnInventoryRefusesInlineSecretsWithoutRepeatingThem() throws Exception {
        String inventory = inventoryWithInlineSecrets().toString();
        List<List<String>> commands = List.of(
                List.of("plan", PLAN, "-i", inventory),
                List.of("apply", PLAN, "-i", inventory, "--yes"),
                List.of("apply", PLAN, "-i", inventory, "--yes", "--trial", "300s"),
                List.of("status", "-i", inventory),
                List.of("confirm", "-i", inventory),
                List.of("rollback", "-i", inventory),
                List.of("serve", "--switch", "lab-1", "-i", inventory, "--state-dir", dir.resolve("s").toString(),
                        "--ca-dir", dir.resolve("ca").toString()),
                List.of("call", "system-group", "SystemGroupChange.set_all", "a", "b", "-i", inventory,
                        "--operator-dir", dir.resolve("op").toString()),
                List.of("log", "-i", inventory, "--state-dir", dir.resolve("s").toString()));
        for (List<String> command : commands) {
            String output = runCapturingTheProcessStreams(command);
            assertThat(output).as(String.join(" ", command)).contains("is an inline secret");
            for (String secret : SECRETS) {
                assertThat(output).as(String.join(" ", command) + " must not repeat a secret").doesNotContain(secret);
            }
        }
    }

    @Test
    void noHelpShowsASecretFromTheEnvironment() {
        CliHarness cli = new CliHarness(dir);
        cli.environment.put("TEST_COMMUNITY", COMMUNITY);
        cli.environment.put("SNMP_AUTH", AUTH);
        for (String command : List.of("plan", "apply", "status", "confirm", "rollback", "serve", "call", "log", "init",
                "lab")) {
            CliHarness.Result help = cli.run(command, "--help");
            assertThat(help.exitCode()).isZero();
            assertThat(help.out()).as(command).doesNotContain(COMMUNITY).doesNotContain(AUTH);
        }
    }

    /** Runs {@code command} in a real context and returns all it wrote, on its writers and on System.out/err. */
    private String runCapturingTheProcessStreams(List<String> command) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream process = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(process, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        try {
            CliHarness.Result result = CliHarness.run(CliContext.system(), command.toArray(String[]::new));
            assertThat(result.exitCode()).as(String.join(" ", command)).isEqualTo(ExitCodes.USAGE);
            return result.out() + result.err() + process.toString(StandardCharsets.UTF_8);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
    }
}
