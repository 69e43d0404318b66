package dev.waldo.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.util.AttributeKey;
import java.net.SocketAddress;

/**
 * An established connection to one peer host, after the handshake: the peer
 * announced its host id and, with TLS, proved it with its certificate.
 * Messages are sent in the order {@link #send} is called.
 */
public final class PeerLink {
    static final AttributeKey<PeerLink> KEY = AttributeKey.valueOf("waldo.peerLink");
    private final Channel channel;
    private final String hostId;
    private final long incarnation;

    PeerLink(Channel channel, String hostId, long incarnation) {
        this.channel = channel;
        this.hostId = hostId;
        this.incarnation = incarnation;
    }

    /** The peer's host id, as it announced in its Hello. */
    public String hostId() {
        return hostId;
    }

    /** Which run of the peer this link leads to: it changes when the peer restarts (0 if unknown). */
    long incarnation() {
        return incarnation;
    }

    /** The peer's socket address. */
    public SocketAddress remoteAddress() {
        return channel.remoteAddress();
    }

    /** True until the link goes down. */
    public boolean isActive() {
        return channel.isActive();
    }

    /**
     * Queues {@code message} for the peer and flushes it. Safe from any
     * thread; a message that cannot be encoded fails the returned future and
     * leaves the link up.
     */
    public ChannelFuture send(Object message) {
        return channel.writeAndFlush(message);
    }

    /** Closes the link; the listener sees it go down with {@code reason}. */
    public void close(String reason) {
        Links.close(channel, reason);
    }

    Channel channel() {
        return channel;
    }

    @Override
    public String toString() {
        return "PeerLink[" + hostId + " at " + channel.remoteAddress() + "]";
    }
}
