package dev.waldo.net;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;

/**
 * The TLS contexts of one host: one for connections it accepts, one for
 * connections it opens. Both sides always present a certificate, because
 * either side may be the one that opened the connection.
 *
 * @param server context for accepted connections
 * @param client context for opened connections
 */
record TlsContexts(SslContext server, SslContext client) {
    private static final String[] PROTOCOLS = {"TLSv1.3"};

    /** Contexts for {@code credentials}; BoringSSL when its native library loads, else the JDK. */
    static TlsContexts build(HostCredentials credentials) {
        SslProvider provider = OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
        try {
            HostKeyManager key = new HostKeyManager(credentials.key(), credentials.certificate());
            SslContextBuilder server = SslContextBuilder.forServer(key).clientAuth(ClientAuth.REQUIRE);
            // Hosts are named by host id, not DNS name: instead of hostname
            // verification, the handshake handler matches the certificate's
            // common name against the host id the peer announces.
            SslContextBuilder client = SslContextBuilder.forClient().keyManager(key)
                    .endpointIdentificationAlgorithm(null);
            if (credentials.authority() != null) {
                // One validation per distinct chain for the whole process (see VerifiedChains).
                TrustManager authority = VerifiedChains.of(credentials.authority());
                server.trustManager(authority);
                client.trustManager(authority);
            } else {
                // Self-signed peers cannot be checked against a CA; the handshake
                // handler pins their certificate by host id instead.
                server.trustManager(InsecureTrustManagerFactory.INSTANCE);
                client.trustManager(InsecureTrustManagerFactory.INSTANCE);
            }
            return new TlsContexts(configure(server, provider).build(), configure(client, provider).build());
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private static SslContextBuilder configure(SslContextBuilder builder, SslProvider provider) {
        return builder.sslProvider(provider).protocols(PROTOCOLS);
    }
}
