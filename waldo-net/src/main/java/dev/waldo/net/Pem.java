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

    /**
     * Writes through a temporary file in the same folder, then renames it into
     * place, so that a crash never leaves half a file behind. A secret's
     * temporary file is created owner-only ({@code rw-------}) by the same call
     * that creates it, so the key is never readable by others, not even
     * between creation and a later chmod.
     */
    private static void write(Path file, Object object, boolean secret) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path folder = file.toAbsolutePath().getParent();
        Path temporary = null;
        try {
            Files.createDirectories(folder);
            temporary = createTemporary(folder, file.getFileName().toString(), secret);
            Files.writeString(temporary, text.toString(), StandardCharsets.US_ASCII);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(temporary);
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** A new, empty, uniquely named file beside the target; owner-only from its creation when secret. */
    private static Path createTemporary(Path folder, String name, boolean secret) throws IOException {
        boolean posix = folder.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (secret && posix) {
            return Files.createTempFile(folder, name + ".", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        // Not a POSIX file system (Windows): its ACLs already default to the owner.
        return Files.createTempFile(folder, name + ".", ".tmp");
    }

    private static void deleteQuietly(Path temporary) {
        if (temporary == null) {
            return;
        }
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException ignored) {
            // The write already failed; that failure is the one worth reporting.
        }
    }
}
