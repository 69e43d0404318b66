package dev.waldo.net;

import io.netty.channel.Channel;
import io.netty.handler.codec.DecoderException;
import io.netty.util.AttributeKey;
import javax.net.ssl.SSLException;
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
        PeerIdentity peer = channel.attr(HandshakeHandler.PEER).get();
        return channel.remoteAddress() + (peer != null ? " (node " + peer.hostId() + ")" : "");
    }

    /** A failure on a connection in words: decoder wrappers stripped, the kind of failure named. */
    static String describe(Throwable cause) {
        Throwable root = cause;
        while (root instanceof DecoderException && root.getCause() != null) {
            root = root.getCause();
        }
        String kind = switch (root) {
            case ProtocolViolationException ignored -> "protocol violation";
            case SSLException ignored -> "TLS failure";
            case com.google.protobuf.InvalidProtocolBufferException ignored -> "undecodable frame";
            case io.netty.handler.codec.TooLongFrameException ignored -> "oversize frame";
            case io.netty.handler.codec.CorruptedFrameException ignored -> "corrupt frame";
            case java.io.IOException ignored -> "I/O error";
            default -> "internal error (" + root.getClass().getSimpleName() + ")";
        };
        return kind + ": " + root.getMessage() + underlying(root);
    }

    /** The innermost cause's message, which for TLS failures says which check failed. */
    private static String underlying(Throwable failure) {
        Throwable inner = failure;
        while (inner.getCause() != null && inner.getCause() != inner) {
            inner = inner.getCause();
        }
        return inner == failure ? "" : " (" + inner.getMessage() + ")";
    }
}
