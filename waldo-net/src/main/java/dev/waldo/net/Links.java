package dev.waldo.net;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Closing a connection with a reason that is logged once and reported as the link-down cause. */
final class Links {
    static final AttributeKey<String> CLOSE_REASON = AttributeKey.valueOf("waldo.closeReason");
    private static final Logger log = LoggerFactory.getLogger(Links.class);

    private Links() {
    }

    /**
     * Closes {@code channel} because of {@code reason}; the first reason given
     * wins, because later ones are usually consequences of it.
     */
    static void close(Channel channel, String reason) {
        if (channel.attr(CLOSE_REASON).setIfAbsent(reason) == null) {
            log.warn("closing connection {}: {}", describe(channel), reason);
        }
        channel.close();
    }

    /** Why {@code channel} closed, or a generic reason when the peer closed it. */
    static String reason(Channel channel) {
        String reason = channel.attr(CLOSE_REASON).get();
        return reason != null ? reason : "connection closed by peer";
    }

    static String describe(Channel channel) {
        PeerLink link = channel.attr(PeerLink.KEY).get();
        String peer = link != null ? " (host " + link.hostId() + ")" : "";
        return channel.remoteAddress() + peer;
    }
}
