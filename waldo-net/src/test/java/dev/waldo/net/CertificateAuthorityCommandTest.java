package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateAuthorityCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private int run(String... args) {
        return CertificateAuthorityCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void initThenIssueWritesWhatAMutualTlsHostNeeds() throws Exception {
        Path ca = dir.resolve("ca");
        Path host = dir.resolve("switch-1");
        assertThat(run("init", ca.toString(), "Lab CA")).isZero();
        assertThat(run("issue", ca.toString(), "switch-1", host.toString(), "service")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("created CA 'Lab CA'")
                .contains("issued certificate for host switch-1 with roles [service]");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(ca.resolve("ca.key"))))
                .isEqualTo("rw-------");
        X509Certificate issued = Pem.readCertificate(host.resolve("host.crt"));
        X509Certificate authority = Pem.readCertificate(host.resolve("ca.crt"));
        issued.verify(authority.getPublicKey());
        assertThat(Certificates.commonName(issued)).isEqualTo("switch-1");
        assertThat(Certificates.roles(issued)).containsExactly("service");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(host.resolve("host.key"))))
                .isEqualTo("rw-------");
        // Written through a uniquely named temporary file, renamed into place: nothing else is left.
        try (var files = Files.list(host)) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .containsExactlyInAnyOrder("host.key", "host.crt", "ca.crt");
        }
        assertThat(HostCredentials.load(NetConfig.defaults("switch-1", host).withSecurity(Security.MUTUAL)).key())
                .isNotNull();
    }

    @Test
    void initRefusesToOverwriteACa() {
        Path ca = dir.resolve("ca");
        assertThat(run("init", ca.toString())).isZero();
        assertThat(run("init", ca.toString())).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("a CA already exists in " + ca);
    }

    @Test
    void wrongArgumentsPrintUsage() {
        assertThat(run("issue", "only-one")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: waldo-ca init <ca-dir> [name]");
    }
}
