package dev.waldo.net;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The node's one key and certificate, handed to TLS as they are. Giving Netty the key itself made it
 * build a PKCS#12 key store to wrap it, encrypting the key with PBKDF2 on the way (about a second
 * of CPU at each node's start, for the client and the server context each, on the operator's path
 * to its first connection); this key never leaves memory, so nothing needs that encryption.
 */
final class HostKeyManager extends X509ExtendedKeyManager {
    private static final String ALIAS = "host";
    private final PrivateKey key;
    private final X509Certificate[] chain;

    HostKeyManager(PrivateKey key, X509Certificate certificate) {
        this.key = key;
        this.chain = new X509Certificate[] {certificate};
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return new String[] {ALIAS};
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return ALIAS;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return ALIAS;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return new String[] {ALIAS};
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return ALIAS;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return ALIAS;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? chain.clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? key : null;
    }
}
