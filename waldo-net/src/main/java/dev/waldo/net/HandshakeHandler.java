package dev.waldo.net;

import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.Hello;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Opens every connection: sends this host's Hello, waits for the peer's, checks
 * the peer's identity, then removes itself and tells the link handler that the
 * link is up. Until then no other frame reaches the rest of the pipeline.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {
    /** Wire protocol version; a peer that speaks another one is refused. */
    static final int PROTOCOL_VERSION = 1;
    /** Fired down the pipeline once the handshake succeeded. */
    static final Object COMPLETED = new Object() {
        @Override
        public String toString() {
            return "HandshakeCompleted";
        }
    };
    private static final int MAX_HOST_ID_CHARS = 255;
    private final String hostId;
    private final long incarnation;
    private final Security security;
    private final PeerPins pins;

    HandshakeHandler(String hostId, long incarnation, Security security, PeerPins pins) {
        this.hostId = hostId;
        this.incarnation = incarnation;
        this.security = security;
        this.pins = pins;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // With TLS, SslHandler holds this write back until its own handshake is done.
        Hello hello = Hello.newBuilder().setVersion(PROTOCOL_VERSION).setHost(hostId)
                .setIncarnation(incarnation).build();
        ctx.writeAndFlush(Frame.newBuilder().setHello(hello).build(), ctx.voidPromise());
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) throws SSLPeerUnverifiedException {
        if (!(message instanceof Frame frame) || !frame.hasHello()) {
            throw new ProtocolViolationException("first frame from peer is not a Hello");
        }
        Hello hello = frame.getHello();
        checkHello(hello);
        checkCertificate(ctx, hello.getHost());
        ctx.channel().attr(PeerLink.KEY).set(new PeerLink(ctx.channel(), hello.getHost(), hello.getIncarnation()));
        ctx.pipeline().remove(this);
        ctx.fireUserEventTriggered(COMPLETED);
    }

    private void checkHello(Hello hello) {
        if (hello.getVersion() != PROTOCOL_VERSION) {
            throw new ProtocolViolationException("peer speaks protocol version " + hello.getVersion()
                    + ", this host speaks " + PROTOCOL_VERSION);
        }
        String peer = hello.getHost();
        if (peer.isEmpty() || peer.length() > MAX_HOST_ID_CHARS) {
            throw new ProtocolViolationException("peer announced an empty or overlong host id");
        }
        if (peer.equals(hostId)) {
            throw new ProtocolViolationException("peer announced this host's own id '" + hostId + "'");
        }
    }

    /** Binds the announced host id to the TLS identity the peer proved. */
    private void checkCertificate(ChannelHandlerContext ctx, String peer) throws SSLPeerUnverifiedException {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls == null) {
            return;
        }
        Certificate[] chain = tls.engine().getSession().getPeerCertificates();
        X509Certificate certificate = (X509Certificate) chain[0];
        if (security == Security.MUTUAL) {
            String name = Certificates.commonName(certificate);
            if (!peer.equals(name)) {
                throw new ProtocolViolationException("peer announced host id '" + peer
                        + "' but its certificate names '" + name + "'");
            }
            return;
        }
        String refusal = pins.check(peer, Certificates.fingerprint(certificate));
        if (refusal != null) {
            throw new ProtocolViolationException(refusal);
        }
    }
}
