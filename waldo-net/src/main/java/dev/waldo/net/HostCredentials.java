package dev.waldo.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A host's own TLS key and certificate, and for mutual TLS the CA it trusts,
 * as found in (or, for a self-signed host, first created in) its state directory.
 *
 * @param key the host's private key
 * @param certificate the host's certificate
 * @param authority the CA certificate peers must be signed by, or null in self-signed mode
 */
record HostCredentials(PrivateKey key, X509Certificate certificate, X509Certificate authority) {
    static final String SELF_SIGNED_KEY_FILE = "self-signed.key";
    static final String SELF_SIGNED_CERTIFICATE_FILE = "self-signed.crt";
    static final String MUTUAL_KEY_FILE = "host.key";
    static final String MUTUAL_CERTIFICATE_FILE = "host.crt";
    private static final Logger log = LoggerFactory.getLogger(HostCredentials.class);

    /** The credentials {@code config} asks for, or null when TLS is off. */
    static HostCredentials load(NetConfig config) {
        return switch (config.security()) {
            case INSECURE -> null;
            case SELF_SIGNED -> selfSigned(config.hostId(), config.stateDir());
            case MUTUAL -> mutual(config.hostId(), config.stateDir());
        };
    }

    /** Loads the host's self-signed certificate, creating it on first start. */
    static HostCredentials selfSigned(String hostId, Path stateDir) {
        Path keyFile = stateDir.resolve(SELF_SIGNED_KEY_FILE);
        Path certificateFile = stateDir.resolve(SELF_SIGNED_CERTIFICATE_FILE);
        if (!Files.exists(keyFile) || !Files.exists(certificateFile)) {
            KeyPair keys = Certificates.newKeyPair();
            X509Certificate certificate = Certificates.selfSigned(hostId, keys);
            Pem.writeKey(keyFile, keys.getPrivate());
            Pem.writeCertificate(certificateFile, certificate);
            log.info("created self-signed certificate for host {} in {} (SHA-256 {})", hostId, stateDir,
                    Certificates.fingerprint(certificate));
        }
        return new HostCredentials(Pem.readKey(keyFile), Pem.readCertificate(certificateFile), null);
    }

    /** The key and certificate a project CA issued into {@code stateDir} for the identity {@code hostId} runs as. */
    private static HostCredentials mutual(String hostId, Path stateDir) {
        String identity = PeerIdentity.nameOf(hostId);
        for (String file : new String[] {MUTUAL_KEY_FILE, MUTUAL_CERTIFICATE_FILE,
                CertificateAuthority.CERTIFICATE_FILE}) {
            if (!Files.exists(stateDir.resolve(file))) {
                throw new IllegalStateException("mutual TLS needs " + stateDir.resolve(file)
                        + "; issue one with CertificateAuthorityCommand issue <ca-dir> " + identity + " " + stateDir);
            }
        }
        return new HostCredentials(Pem.readKey(stateDir.resolve(MUTUAL_KEY_FILE)),
                Pem.readCertificate(stateDir.resolve(MUTUAL_CERTIFICATE_FILE)),
                Pem.readCertificate(stateDir.resolve(CertificateAuthority.CERTIFICATE_FILE)));
    }
}
