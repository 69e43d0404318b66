package dev.waldo.net;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * Reads and writes keys and certificates as PEM files, the format that Netty's
 * TLS contexts and OpenSSL tools read. Keys are PKCS#8 and written owner-only.
 */
final class Pem {
    private Pem() {
    }

    static void writeCertificate(Path file, X509Certificate certificate) {
        write(file, certificate, false);
    }

    static void writeKey(Path file, PrivateKey key) {
        try {
            write(file, new JcaPKCS8Generator(key, null).generate(), true);
        } catch (org.bouncycastle.util.io.pem.PemGenerationException e) {
            throw new IllegalStateException("cannot encode private key for " + file, e);
        }
    }

    static X509Certificate readCertificate(Path file) {
        try (var in = Files.newInputStream(file)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read certificate " + file, e);
        } catch (CertificateException e) {
            throw new IllegalStateException("not a PEM certificate: " + file, e);
        }
    }

    static PrivateKey readKey(Path file) {
        try (PemReader reader = new PemReader(Files.newBufferedReader(file, StandardCharsets.US_ASCII))) {
            PemObject pem = reader.readPemObject();
            if (pem == null || !pem.getType().equals("PRIVATE KEY")) {
                throw new IllegalStateException("not a PKCS#8 PEM private key: " + file);
            }
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(pem.getContent()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read private key " + file, e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("not an EC private key: " + file, e);
        }
    }

    /** Writes through a temporary file so that a crash never leaves half a key behind. */
    private static void write(Path file, Object object, boolean secret) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(temporary, text.toString(), StandardCharsets.US_ASCII);
            if (secret) {
                restrictToOwner(temporary);
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void restrictToOwner(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system (Windows): its ACLs already default to the owner.
        }
    }
}
