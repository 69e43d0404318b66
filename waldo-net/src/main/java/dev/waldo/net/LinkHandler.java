package dev.waldo.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.AttributeKey;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLException;

/**
 * The last stage: reports link up, messages and link down to the node's
 * {@link LinkListener}, and turns any failure on this connection into a
 * logged close of this connection alone.
 */
final class LinkHandler extends ChannelInboundHandlerAdapter {
    /** Completed when a connection this host opened finishes its handshake. */
    static final AttributeKey<CompletableFuture<PeerLink>> CONNECTED = AttributeKey.valueOf("waldo.connected");
    private final LinkListener listener;
    private PeerLink link;

    LinkHandler(LinkListener listener) {
        this.listener = listener;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event != HandshakeHandler.COMPLETED) {
            super.userEventTriggered(ctx, event);
            return;
        }
        link = ctx.channel().attr(PeerLink.KEY).get();
        listener.linkUp(link);
        CompletableFuture<PeerLink> connected = ctx.channel().attr(CONNECTED).get();
        if (connected != null) {
            connected.complete(link);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        listener.message(link, message);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        String reason = Links.reason(ctx.channel());
        CompletableFuture<PeerLink> connected = ctx.channel().attr(CONNECTED).get();
        if (connected != null) {
            connected.completeExceptionally(new java.io.IOException("connection to "
                    + ctx.channel().remoteAddress() + " failed: " + reason));
        }
        if (link != null) {
            listener.linkDown(link, reason);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Links.close(ctx.channel(), describe(cause));
    }

    /** The failure in words: decoder wrappers stripped, the kind of failure named. */
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
