package dev.waldo.net;

import dev.waldo.net.wire.Frame;
import dev.waldo.runtime.core.Envelope;
import io.netty.channel.ChannelFuture;
import java.net.SocketAddress;

/**
 * A link from one host of this node to one peer host: a stream of a {@link Connection}, opened by
 * the dialing side and answered by the other (see {@link Connection}). The peer node proved its
 * identity in the connection's handshake; the peer host is one it may speak for. Many links share
 * one connection when either node serves many hosts (a site agent's switches). Messages are sent
 * in the order {@link #send} is called, from whichever threads.
 */
public final class PeerLink {
    private final Connection connection;
    private final int stream;
    private final PeerIdentity identity;
    private final long incarnation;
    private final NetNode.Resident local;
    /** Turns core messages into frames and back; null on a node that hands frames on as they are. */
    private final ProtocolCodec codec;
    private volatile boolean open = true;

    PeerLink(Connection connection, int stream, PeerIdentity identity, long incarnation, NetNode.Resident local,
             ProtocolCodec codec) {
        this.connection = connection;
        this.stream = stream;
        this.identity = identity;
        this.incarnation = incarnation;
        this.local = local;
        this.codec = codec;
    }

    /** The peer's host id, as the stream's opening named it. */
    public String hostId() {
        return identity.hostId();
    }

    /** Who the peer is: its host id, and the identity of its node as the handshake checked it. */
    public PeerIdentity identity() {
        return identity;
    }

    /** Which run of the peer host this link leads to: it changes when the peer restarts. */
    long incarnation() {
        return incarnation;
    }

    /** The peer node's socket address. */
    public SocketAddress remoteAddress() {
        return connection.channel().remoteAddress();
    }

    /** True until the link goes down: its stream or its whole connection closed. */
    public boolean isActive() {
        return open && connection.isActive();
    }

    /**
     * Queues {@code message} (a core {@link Envelope}, or a {@link Frame} of host wiring) for the
     * peer; it leaves with whatever else is queued on the connection when its I/O thread next
     * drains, in the order queued. Safe from any thread; a message that cannot be encoded fails the
     * returned future and leaves the link up.
     */
    public ChannelFuture send(Object message) {
        return connection.send(this, message);
    }

    /**
     * Queues {@code message}, which nothing waits for soon (a commit, an acknowledgement), without
     * waking the I/O thread: it leaves with the next message any stream of the connection sends
     * after it (in its flush, and with TLS in its record), or on its own once {@link
     * Connection#PIGGYBACK_MICROS} passed, whichever comes first. Order is kept: it leaves before
     * anything queued after it.
     */
    public ChannelFuture sendUnhurried(Object message) {
        return connection.sendUnhurried(this, message);
    }

    /** Closes this link alone (its stream); both hosts see it go down with {@code reason}. */
    public void close(String reason) {
        connection.closeStream(this, reason);
    }

    int stream() {
        return stream;
    }

    NetNode.Resident local() {
        return local;
    }

    Connection connection() {
        return connection;
    }

    /** Marks the stream closed; false if it was closed already. Runs on the I/O thread. */
    boolean markClosed() {
        boolean wasOpen = open;
        open = false;
        return wasOpen;
    }

    /** The frame that carries {@code message} on this stream. Runs on the I/O thread, in send order. */
    Frame encode(Object message) {
        Frame.Builder frame = switch (message) {
            case Envelope envelope when codec != null -> codec.encode(envelope);
            case Frame wiring -> wiring.toBuilder();
            default -> throw new IllegalArgumentException("link to " + hostId() + " cannot send a "
                    + message.getClass().getSimpleName());
        };
        return frame.setStream(stream).build();
    }

    /**
     * What {@code frame} from the peer carries for the local host: a checked core message, or the
     * frame itself when it is host wiring (endpoint creation) or this node hands frames on as they
     * are (without the stream number: the link is the stream).
     */
    Object decode(Frame frame) {
        if (codec == null || frame.hasAttach() || frame.hasAttached()) {
            return frame.getStream() == 0 ? frame : frame.toBuilder().clearStream().build();
        }
        return codec.decode(frame);
    }

    @Override
    public String toString() {
        return "PeerLink[" + identity.hostId() + " at " + remoteAddress() + ", stream " + stream + "]";
    }
}
