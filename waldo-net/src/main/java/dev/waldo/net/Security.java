package dev.waldo.net;

/** How a host protects its connections. */
public enum Security {
    /**
     * TLS with a self-signed certificate that the host creates on first start
     * in its state directory. Traffic is encrypted; a peer's certificate is
     * pinned by host id on first contact (trust on first use, like SSH), and a
     * later connection that presents another certificate for that host id is
     * refused. The default.
     */
    SELF_SIGNED,
    /**
     * Mutual TLS under a project certificate authority: both sides present a
     * certificate that the CA signed (see {@link CertificateAuthority}), and the
     * certificate's common name must equal the host id the peer announces.
     */
    MUTUAL,
    /** No TLS: plain TCP, for benchmarks and debugging only. */
    INSECURE
}
