package dev.waldo.net;

import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.Hello;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Opens every connection between two nodes: the side that dialed sends its Hello first; with TLS
 * on, the side that accepted checks the dialer's Hello and identity and only
 * then answers with its own, so a peer it refuses sees the connection close
 * before any stream is open. Without TLS there is no identity to check, and the
 * acceptor greets at once, so that a TLS client reaching it learns right away
 * that it does not speak TLS. Each side checks the other's identity, keeps it on the channel
 * ({@link #PEER}), removes this handler and tells the {@link Connection} that it is
 * up. Until then no other frame reaches the rest of the pipeline.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {
    /**
     * Wire protocol version; a peer that speaks another one is refused. 4: streams, and call,
     * reply and frame ids relative to the previous ones (after 1). 5: the READ_ONLY vote, which a
     * version-4 peer would refuse as an unknown verdict. Never 2 or 3: the version is
     * the fifth byte of a plain Hello on the wire, where a TLS peer probing for an SSLv2 record
     * reads a major version, and would wait for a record instead of failing at once with "not an
     * SSL/TLS record" (the CLI's hint that the service runs with TLS off).
     */
    static final int PROTOCOL_VERSION = 5;
    /** The peer node's identity, set once its Hello was checked. */
    static final AttributeKey<PeerIdentity> PEER = AttributeKey.valueOf("waldo.peer");
    /** Fired down the pipeline once the handshake succeeded. */
    static final Object COMPLETED = new Object() {
        @Override
        public String toString() {
            return "HandshakeCompleted";
        }
    };
    private static final int MAX_HOST_ID_CHARS = 255;
    private final NetConfig config;
    private final PeerPins pins;
    private final boolean answering;

    /**
     * @param config the node's configuration: its id is what this side announces
     * @param pins pinned peer certificates, for {@link Security#SELF_SIGNED}
     * @param accepting true on connections this node accepted: it answers the peer's Hello instead of opening
     */
    HandshakeHandler(NetConfig config, PeerPins pins, boolean accepting) {
        this.config = config;
        this.pins = pins;
        this.answering = accepting && config.security() != Security.INSECURE;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!answering) {
            // With TLS, SslHandler holds this write back until its own handshake is done.
            sendHello(ctx);
        }
        ctx.fireChannelActive();
    }

    private void sendHello(ChannelHandlerContext ctx) {
        Hello hello = Hello.newBuilder().setVersion(PROTOCOL_VERSION).setHost(config.hostId()).build();
        ctx.writeAndFlush(Frame.newBuilder().setHello(hello).build(), ctx.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) throws SSLPeerUnverifiedException {
        if (!(message instanceof Frame frame) || !frame.hasHello()) {
            throw new ProtocolViolationException("first frame from peer is not a Hello");
        }
        Hello hello = frame.getHello();
        checkHello(hello);
        PeerIdentity identity = identify(ctx, hello.getHost());
        if (answering) {
            sendHello(ctx);
        }
        ctx.channel().attr(PEER).set(identity);
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
        if (peer.equals(config.hostId())) {
            throw new ProtocolViolationException("peer announced this host's own id '" + peer + "'");
        }
    }

    /** Binds the announced host id to the TLS identity the peer proved, and checks its roles. */
    private PeerIdentity identify(ChannelHandlerContext ctx, String peer) throws SSLPeerUnverifiedException {
        String name = PeerIdentity.nameOf(peer);
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls == null) {
            return new PeerIdentity(peer, name, Set.of(), false);
        }
        Certificate[] chain = tls.engine().getSession().getPeerCertificates();
        X509Certificate certificate = (X509Certificate) chain[0];
        if (config.security() != Security.MUTUAL) {
            String refusal = pins.check(name, Certificates.fingerprint(certificate));
            if (refusal != null) {
                throw new ProtocolViolationException(refusal);
            }
            return new PeerIdentity(peer, name, Set.of(), false);
        }
        String certified = Certificates.commonName(certificate);
        if (!name.equals(certified)) {
            throw new ProtocolViolationException("peer announced host id '" + peer + "' but its certificate names '"
                    + certified + "'");
        }
        Set<String> roles = Certificates.roles(certificate);
        if (!config.acceptedRoles().isEmpty() && Collections.disjoint(roles, config.acceptedRoles())) {
            throw new ProtocolViolationException("peer " + name + " has a certificate from the project CA with roles "
                    + roles + ", but host " + config.hostId() + " accepts only peers with one of "
                    + new TreeSet<>(config.acceptedRoles()));
        }
        return new PeerIdentity(peer, name, roles, true);
    }
}
