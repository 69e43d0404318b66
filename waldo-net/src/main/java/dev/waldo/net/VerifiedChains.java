package dev.waldo.net;

import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trust in a project CA that remembers the certificate chains it validated, for every host of the
 * process. A site agent runs a host per switch, and an operator connecting to a thousand switches
 * presents the same certificate to each of them: without this, each of the agent's hosts validates
 * that same chain again (a PKIX validation with an ECDSA verify in Java, a few milliseconds of an
 * I/O thread per handshake, which the agent's few shared I/O threads pay a thousand times while
 * they also carry every switch's heartbeats).
 *
 * <p>A chain is remembered only after the JDK's validation accepted it, for the same CA, the same
 * side (client or server) and the same key exchange; a remembered chain is still checked for its
 * validity dates at every use, and validated afresh once it has expired. Checks that are not PKIX
 * (roles, the host id a peer announces) happen after the handshake, as they do for a chain seen for
 * the first time.
 */
final class VerifiedChains extends X509ExtendedTrustManager {
    /** More distinct chains than one process meets: past it the memory starts over. */
    static final int MOST_REMEMBERED = 16_384;
    private static final Map<Validation, Boolean> VALIDATED = new ConcurrentHashMap<>();

    private final X509ExtendedTrustManager jdk;
    private final ByteBuffer authority;

    /** What one validation accepted. */
    private record Validation(ByteBuffer authority, List<ByteBuffer> chain, String authType, boolean client) {
    }

    private VerifiedChains(X509ExtendedTrustManager jdk, ByteBuffer authority) {
        this.jdk = jdk;
        this.authority = authority;
    }

    /** Trust in {@code authority} alone, as the JDK's PKIX trust manager checks it, remembering what it accepts. */
    static TrustManager of(X509Certificate authority) {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            store.setCertificateEntry("authority", authority);
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager jdk) {
                    return new VerifiedChains(jdk, ByteBuffer.wrap(authority.getEncoded()));
                }
            }
            throw new IllegalStateException("the JDK offers no X.509 trust manager");
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot set up trust in the project CA: " + e.getMessage(), e);
        }
    }

    /** How many chains the process remembers now (for tests). */
    static int remembered() {
        return VALIDATED.size();
    }

    /** The JDK's check, unless this very chain passed it before and has not expired. */
    private void check(X509Certificate[] chain, String authType, boolean client, Validator validator)
            throws CertificateException {
        Validation validation = new Validation(authority, encoded(chain), authType, client);
        if (VALIDATED.containsKey(validation) && stillValid(chain)) {
            return;
        }
        validator.validate();
        if (VALIDATED.size() >= MOST_REMEMBERED) {
            VALIDATED.clear();
        }
        VALIDATED.put(validation, Boolean.TRUE);
    }

    /** The JDK's own check of a chain. */
    @FunctionalInterface
    private interface Validator {
        void validate() throws CertificateException;
    }

    private static List<ByteBuffer> encoded(X509Certificate[] chain) throws CertificateEncodingException {
        List<ByteBuffer> encoded = new ArrayList<>(chain.length);
        for (X509Certificate certificate : chain) {
            encoded.add(ByteBuffer.wrap(certificate.getEncoded()));
        }
        return encoded;
    }

    private static boolean stillValid(X509Certificate[] chain) {
        try {
            for (X509Certificate certificate : chain) {
                certificate.checkValidity();
            }
            return true;
        } catch (CertificateException expiredOrNotYet) {
            return false;
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain, authType, true, () -> jdk.checkClientTrusted(chain, authType, engine));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain, authType, false, () -> jdk.checkServerTrusted(chain, authType, engine));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain, authType, true, () -> jdk.checkClientTrusted(chain, authType, socket));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain, authType, false, () -> jdk.checkServerTrusted(chain, authType, socket));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, authType, true, () -> jdk.checkClientTrusted(chain, authType));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, authType, false, () -> jdk.checkServerTrusted(chain, authType));
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return jdk.getAcceptedIssuers();
    }
}
