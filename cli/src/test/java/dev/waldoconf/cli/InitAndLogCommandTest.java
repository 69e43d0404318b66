package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.CertificateAuthority;
import dev.waldoconf.service.AuditJournal;
import dev.waldoconf.service.Identities;
import dev.waldoconf.service.SiteAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code waldoconf init} issues certificates from the project CA; {@code waldoconf log} reads the audit journals. */
class InitAndLogCommandTest {
    @TempDir
    Path dir;

    private CliHarness.Result run(String... args) {
        try (CliHarness cli = new CliHarness(dir)) {
            return cli.run(args);
        }
    }

    @Test
    void initCreatesTheCaOnceAndIssuesNamedOperatorsWithTheirRole() throws Exception {
        Path ca = dir.resolve("ca");
        CliHarness.Result alice = run("init", "--ca-dir", ca.toString(), "--operator", "alice", "--operator-dir",
                dir.resolve("alice").toString());
        CliHarness.Result bob = run("init", "--ca-dir", ca.toString(), "--operator", "bob", "--read-only",
                "--operator-dir", dir.resolve("bob").toString());

        assertThat(alice.exitCode()).as(alice.err()).isZero();
        assertThat(alice.out()).contains("Created the project CA in " + ca)
                .contains("Issued operator-alice (role operator-change) into " + dir.resolve("alice"));
        assertThat(bob.out()).contains("Using the project CA in " + ca)
                .contains("Issued operator-bob (role operator-read)");
        assertThat(Identities.operatorIn(dir.resolve("alice"))).hasValueSatisfying(operator -> {
            assertThat(operator.name()).isEqualTo("operator-alice");
            assertThat(operator.roles()).isEqualTo(Set.of(Identities.CHANGE_ROLE));
        });
        assertThat(Identities.operatorIn(dir.resolve("bob")).orElseThrow().roles())
                .isEqualTo(Set.of(Identities.READ_ROLE));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(ca.resolve(CertificateAuthority.KEY_FILE))))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("alice").resolve("host.key"))))
                .isEqualTo("rw-------");
    }

    @Test
    void initAgainRotatesTheOperatorsCertificate() throws Exception {
        String[] args = {"init", "--ca-dir", dir.resolve("ca").toString(), "--operator", "alice", "--operator-dir",
                dir.resolve("alice").toString()};
        run(args);
        String before = Files.readString(dir.resolve("alice").resolve("host.crt"));

        CliHarness.Result again = run(args);

        assertThat(again.out()).contains("Rotated operator-alice");
        assertThat(Files.readString(dir.resolve("alice").resolve("host.crt"))).isNotEqualTo(before);
    }

    @Test
    void initIssuesAServiceCertificateWhereServeLooksForIt() {
        CliHarness.Result result = run("init", "--ca-dir", dir.resolve("ca").toString(), "--service", "lab-2",
                "--state-dir", dir.resolve("services").toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        Path net = dir.resolve("services").resolve("lab-2").resolve("net");
        assertThat(result.out()).contains("Issued switch-lab-2 (role service) into " + net);
        assertThat(CertificateAuthority.issuedIn(net).orElseThrow().roles()).containsExactly(Identities.SERVICE_ROLE);
    }

    @Test
    void initIssuesASiteAgentsCertificateWhereServeSiteLooksForIt() {
        CliHarness.Result result = run("init", "--ca-dir", dir.resolve("ca").toString(), "--site", "north",
                "--state-dir", dir.resolve("services").toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        Path net = SiteAgent.agentDir(dir.resolve("services"), "north");
        assertThat(result.out()).contains("Issued site-north (role service) into " + net);
        assertThat(CertificateAuthority.issuedIn(net).orElseThrow().name()).isEqualTo("site-north");
    }

    @Test
    void initIssuesForOneSwitchOrOneSiteNotBoth() {
        CliHarness.Result result = run("init", "--service", "lab-2", "--site", "north");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("--service=NAME, --site=SITE are mutually exclusive");
    }

    @Test
    void initRefusesANameThatCannotNameAnIdentity() {
        CliHarness.Result result = run("init", "--ca-dir", dir.resolve("ca").toString(), "--operator", "al ice",
                "--operator-dir", dir.resolve("x").toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("'operator-al ice' cannot name a host");
    }

    @Test
    void logShowsEveryRecordedChangeOldestFirstAcrossSwitches() throws Exception {
        Path inventory = Files.writeString(dir.resolve("inv.yaml"), CliHarness.INVENTORY);
        Path services = dir.resolve("services");
        new AuditJournal(services.resolve("lab-2").resolve("net")).append(new AuditJournal.Entry(
                Instant.parse("2026-11-25T10:00:02Z"), "lab-2", "operator-bob", "refused: operator-bob may only read",
                "7.2", "vlans 1 entry -> 2 entries"));
        new AuditJournal(services.resolve("lab-1").resolve("net")).append(new AuditJournal.Entry(
                Instant.parse("2026-11-25T10:00:01Z"), "lab-1", "operator-alice", "committed", "7.1",
                "vlans 1 entry -> 2 entries"));

        CliHarness.Result log = run("log", "-i", inventory.toString(), "--state-dir", services.toString());
        CliHarness.Result one = run("log", "-i", inventory.toString(), "--state-dir", services.toString(),
                "--switch", "lab-2");

        assertThat(log.exitCode()).as(log.err()).isZero();
        assertThat(log.out().lines()).containsExactly(
                "2026-11-25T10:00:01Z  lab-1  operator-alice  committed  7.1  vlans 1 entry -> 2 entries",
                "2026-11-25T10:00:02Z  lab-2  operator-bob  refused: operator-bob may only read  7.2  vlans 1 entry"
                        + " -> 2 entries");
        assertThat(one.out().lines()).singleElement().satisfies(line -> assertThat(line).contains("lab-2"));
    }

    @Test
    void logWithNothingRecordedSaysSo() throws Exception {
        Path inventory = Files.writeString(dir.resolve("inv.yaml"), CliHarness.INVENTORY);

        CliHarness.Result log = run("log", "-i", inventory.toString(), "--state-dir", dir.resolve("none").toString());

        assertThat(log.exitCode()).isZero();
        assertThat(log.out()).contains("No change recorded yet in " + dir.resolve("none"));
    }
}
