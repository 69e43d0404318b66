package dev.waldo.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;

/**
 * A project certificate authority for mutual TLS between Waldo hosts.
 *
 * <p>Create it once, keep its directory private, and issue one certificate per
 * host into that host's state directory. A host started with
 * {@link Security#MUTUAL} then accepts only peers whose certificate this CA
 * signed, whose certificate names the host id they announce (see
 * {@link PeerIdentity}) and, if the host asks for roles
 * ({@link NetConfig#withAcceptedRoles}), that carry one of them:
 *
 * <pre>{@code
 * CertificateAuthority ca = CertificateAuthority.create(Path.of("ca"), "waldo lab CA");
 * ca.issueHost("switch-1", Set.of("service"), Path.of("state/switch-1"));
 * ca.issueHost("operator-alice", Set.of("operator"), Path.of("state/alice"));
 * }</pre>
 *
 * To rotate a host's certificate, issue it again (the old one stays valid until
 * it expires, so also rotate the CA when a key leaked: create a new CA and
 * issue every host again).
 *
 * The same is available as a command: {@code java -cp ... dev.waldo.net.CertificateAuthorityCommand}.
 */
public final class CertificateAuthority {
    /** The CA's private key in its directory. */
    public static final String KEY_FILE = "ca.key";
    /** The CA's certificate in its directory, and its copy in each host's state directory. */
    public static final String CERTIFICATE_FILE = "ca.crt";

    private final X509Certificate certificate;
    private final PrivateKey key;

    private CertificateAuthority(X509Certificate certificate, PrivateKey key) {
        this.certificate = certificate;
        this.key = key;
    }

    /**
     * Creates a new CA in {@code directory}: a key ({@code ca.key}, owner-only)
     * and a self-signed CA certificate ({@code ca.crt}) named {@code name}.
     *
     * @throws IllegalStateException if the directory already holds a CA, which
     *     this call never overwrites (its hosts would all stop trusting each other)
     */
    public static CertificateAuthority create(Path directory, String name) {
        Objects.requireNonNull(name, "name");
        if (Files.exists(directory.resolve(KEY_FILE))) {
            throw new IllegalStateException("a CA already exists in " + directory
                    + "; load it with CertificateAuthority.load, or choose another directory");
        }
        KeyPair keys = Certificates.newKeyPair();
        X509Certificate certificate = Certificates.sign(name, Set.of(), keys.getPublic(),
                Certificates.name(name, Set.of()), keys.getPrivate(), true, Certificates.CA_VALIDITY);
        Pem.writeKey(directory.resolve(KEY_FILE), keys.getPrivate());
        Pem.writeCertificate(directory.resolve(CERTIFICATE_FILE), certificate);
        return new CertificateAuthority(certificate, keys.getPrivate());
    }

    /** Whether {@code directory} holds a CA that {@link #create} wrote. */
    public static boolean existsIn(Path directory) {
        return Files.exists(directory.resolve(KEY_FILE)) && Files.exists(directory.resolve(CERTIFICATE_FILE));
    }

    /** Loads the CA that {@link #create} wrote to {@code directory}. */
    public static CertificateAuthority load(Path directory) {
        return new CertificateAuthority(Pem.readCertificate(directory.resolve(CERTIFICATE_FILE)),
                Pem.readKey(directory.resolve(KEY_FILE)));
    }

    /**
     * The identity and roles of the certificate {@link #issueHost} wrote into {@code hostStateDir},
     * or empty when there is none (what a host with that state directory runs as under mutual TLS).
     */
    public static Optional<PeerIdentity> issuedIn(Path hostStateDir) {
        Path file = hostStateDir.resolve(HostCredentials.MUTUAL_CERTIFICATE_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        X509Certificate issued = Pem.readCertificate(file);
        String name = Certificates.commonName(issued);
        return Optional.of(new PeerIdentity(name, name, Certificates.roles(issued), true));
    }

    /** The CA's certificate, which every host trusts. */
    public X509Certificate certificate() {
        return certificate;
    }

    /**
     * Issues a certificate for host {@code hostId} and writes everything the
     * host needs for {@link Security#MUTUAL} into its state directory:
     * {@code host.key} (owner-only from its creation), {@code host.crt} and
     * {@code ca.crt}. Issuing again replaces the host's key and certificate
     * (that is how a host's certificate is rotated).
     *
     * @param hostId the identity the certificate names (its common name); hosts that run as
     *     several processes under it announce {@code hostId~run} (see {@link PeerIdentity})
     * @param roles what the host may do, as its peers check it (each an OU of the subject); may be empty
     * @return the issued certificate
     */
    public X509Certificate issueHost(String hostId, Set<String> roles, Path hostStateDir) {
        PeerIdentity.checkName(hostId);
        KeyPair keys = Certificates.newKeyPair();
        X500Name issuer = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
        X509Certificate issued = Certificates.sign(hostId, roles, keys.getPublic(), issuer, key, false,
                Certificates.HOST_VALIDITY);
        Pem.writeKey(hostStateDir.resolve(HostCredentials.MUTUAL_KEY_FILE), keys.getPrivate());
        Pem.writeCertificate(hostStateDir.resolve(HostCredentials.MUTUAL_CERTIFICATE_FILE), issued);
        Pem.writeCertificate(hostStateDir.resolve(CERTIFICATE_FILE), certificate);
        return issued;
    }
}
