package dev.waldo.net;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.Set;
import java.util.TreeSet;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Creates EC P-256 keys and X.509 certificates for hosts and the project CA.
 * P-256 because its handshakes are cheap and every TLS stack speaks it.
 */
final class Certificates {
    static final Duration HOST_VALIDITY = Duration.ofDays(825);
    static final Duration CA_VALIDITY = Duration.ofDays(3650);
    private static final SecureRandom RANDOM = new SecureRandom();

    private Certificates() {
    }

    static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot make EC P-256 keys", e);
        }
    }

    /**
     * A certificate for {@code subjectKey} named {@code commonName}, signed by {@code issuerKey}; each
     * of {@code roles} becomes an organizational unit (OU) of the subject, where {@code openssl x509
     * -subject} shows it and {@link #roles} reads it back.
     */
    static X509Certificate sign(String commonName, Set<String> roles, PublicKey subjectKey, X500Name issuer,
                                PrivateKey issuerKey, boolean authority, Duration validity) {
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
                new BigInteger(128, RANDOM), Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(validity)), name(commonName, roles), subjectKey);
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.subjectKeyIdentifier, false,
                    extensions.createSubjectKeyIdentifier(subjectKey));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
            if (authority) {
                builder.addExtension(Extension.keyUsage, true,
                        new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            } else {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                // Hosts are servers and clients at once: each side may open the connection.
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                        new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            }
            var signer = new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey);
            return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
        } catch (CertIOException | OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot create certificate for " + commonName, e);
        }
    }

    /** A self-signed host certificate for {@code hostId}. */
    static X509Certificate selfSigned(String hostId, KeyPair keys) {
        return sign(hostId, Set.of(), keys.getPublic(), name(hostId, Set.of()), keys.getPrivate(), false,
                HOST_VALIDITY);
    }

    /** A subject named {@code commonName}, with one OU per role, in a stable (sorted) order. */
    static X500Name name(String commonName, Set<String> roles) {
        X500NameBuilder builder = new X500NameBuilder(BCStyle.INSTANCE);
        new TreeSet<>(roles).forEach(role -> builder.addRDN(BCStyle.OU, role));
        return builder.addRDN(BCStyle.CN, commonName).build();
    }

    /** The roles a certificate carries: its subject's organizational units. */
    static Set<String> roles(X509Certificate certificate) {
        X500Name subject = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
        Set<String> roles = new TreeSet<>();
        for (var rdn : subject.getRDNs(BCStyle.OU)) {
            roles.add(IETFUtils.valueToString(rdn.getFirst().getValue()));
        }
        return Set.copyOf(roles);
    }

    /** The common name of a certificate's subject, or null when it has none. */
    static String commonName(X509Certificate certificate) {
        X500Name subject = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
        var rdns = subject.getRDNs(BCStyle.CN);
        return rdns.length == 0 ? null : IETFUtils.valueToString(rdns[0].getFirst().getValue());
    }

    /** The SHA-256 fingerprint of a certificate, as lower-case hex. */
    static String fingerprint(X509Certificate certificate) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.of().formatHex(digest);
        } catch (CertificateEncodingException | java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot fingerprint certificate", e);
        }
    }
}
