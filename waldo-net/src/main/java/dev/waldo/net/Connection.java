package dev.waldo.net;

import dev.waldo.net.wire.Close;
import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.Open;
import dev.waldo.net.wire.Opened;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection between this node and a peer node, after the handshake proved who the peer is,
 * and the last stage of its pipeline. It carries streams, each between one host of this node and
 * one host of the peer ({@link PeerLink}): the dialing side opens a stream for a pair ({@code
 * Open}), the accepting side answers ({@code Opened}) once the host asked for is one of its own and
 * the dialing node may speak for the dialing host ({@link HostAuthority}), or refuses ({@code
 * Close}). Either side closes a stream with {@code Close}; the connection and its other streams
 * stay. Heartbeats, TLS and the frame limit are the connection's, shared by its streams: a site
 * agent's thousand switches cost the operator one connection, one handshake and one heartbeat.
 *
 * <p>Everything sent on the connection waits in one queue until the I/O thread drains it: every
 * message queued by then is encoded (each by its stream's codec) and written, and the lot is
 * flushed once, so a burst (a prepare to a thousand switches, many caller threads) costs one
 * wake-up of the I/O thread, one system call and, with TLS, one record instead of one per message.
 * A lone message still leaves at once.
 *
 * <p>Any failure (a protocol violation on any stream, bad bytes, a silent peer) closes the whole
 * connection, and every stream on it goes down: peers are authenticated nodes, and one that sends
 * what no correct node sends is not trusted with its other streams either.
 */
final class Connection extends ChannelInboundHandlerAdapter {
    /** Completed when a connection this node dialed finishes its handshake. */
    static final AttributeKey<CompletableFuture<Connection>> DIALED = AttributeKey.valueOf("waldo.dialed");
    private static final int MAX_HOST_ID_CHARS = 255;
    private final NetNode node;
    private final boolean dialing;
    private Channel channel;
    private PeerIdentity peer;
    private volatile boolean up;
    /** Streams by number; touched only on the I/O thread. */
    private final Map<Integer, PeerLink> streams = new HashMap<>();
    /** Streams that were open and closed: frames still in flight for them are dropped. */
    private final Set<Integer> closed = new HashSet<>();
    /** Streams this side asked to open and the peer has not answered yet. */
    private final Map<Integer, Opening> opening = new HashMap<>();
    private int nextStream;
    private final Queue<Outgoing> outbound = PlatformDependent.newMpscQueue();
    /** True while a drain is queued on the I/O thread: senders then need not queue another. */
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    /** True while a drain for unhurried messages is scheduled (see {@link #sendUnhurried}). */
    private final AtomicBoolean unhurriedDrainScheduled = new AtomicBoolean();
    /**
     * How long an unhurried message may wait for a message to travel with: a commit or an
     * acknowledgement that nothing waits for soon.
     */
    static final long PIGGYBACK_MICROS = 1_000;

    /** A message waiting for the I/O thread: on a stream, or the connection's own (stream null). */
    private record Outgoing(PeerLink stream, Object message, ChannelPromise promise) {
    }

    /**
     * A stream asked for: from which local host, to which peer host (null: the peer node's own), and
     * whether the caller named the node it expected there (which then speaks for that host).
     */
    private record Opening(NetNode.Resident from, String to, boolean expected, InetSocketAddress address,
                           CompletableFuture<PeerLink> opened) {
    }

    /**
     * @param dialing true for connections this node dialed: only the dialing side opens streams
     */
    Connection(NetNode node, boolean dialing) {
        this.node = node;
        this.dialing = dialing;
    }

    /** The peer node, as its handshake proved it. */
    PeerIdentity peer() {
        return peer;
    }

    Channel channel() {
        return channel;
    }

    boolean isActive() {
        return up && channel.isActive();
    }

    /** Whether this node dialed the connection. */
    boolean dialing() {
        return dialing;
    }

    // ---- the pipeline stage --------------------------------------------------------------------

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event != HandshakeHandler.COMPLETED) {
            super.userEventTriggered(ctx, event);
            return;
        }
        channel = ctx.channel();
        peer = channel.attr(HandshakeHandler.PEER).get();
        up = true;
        CompletableFuture<Connection> dialed = channel.attr(DIALED).get();
        if (dialed != null) {
            dialed.complete(this);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        Frame frame = (Frame) message;
        switch (frame.getBodyCase()) {
            case OPEN -> opened(frame.getStream(), frame.getOpen());
            case OPENED -> answered(frame.getStream(), frame.getOpened());
            case CLOSE -> peerClosed(frame.getStream(), frame.getClose().getReason());
            default -> carried(frame);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        String reason = Links.reason(ctx.channel());
        CompletableFuture<Connection> dialed = ctx.channel().attr(DIALED).get();
        if (dialed != null) {
            dialed.completeExceptionally(new IOException("connection to " + ctx.channel().remoteAddress()
                    + " failed: " + reason));
        }
        up = false;
        for (Opening waiting : List.copyOf(opening.values())) {
            waiting.opened().completeExceptionally(new IOException("connection to " + ctx.channel().remoteAddress()
                    + " failed: " + reason));
        }
        opening.clear();
        for (PeerLink link : List.copyOf(streams.values())) {
            down(link, reason);
        }
        failQueued(new IOException("connection closed: " + reason));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Links.close(ctx.channel(), Links.describe(cause));
    }

    // ---- streams -------------------------------------------------------------------------------

    /**
     * Opens a stream from local host {@code from} to the peer's host {@code to} (null: the host the
     * peer node's Hello named). Fails with {@link WrongPeerException} at once, sending nothing, when
     * {@code expected} is given and the peer node is someone else.
     */
    CompletableFuture<PeerLink> open(NetNode.Resident from, String to, String expected, InetSocketAddress address) {
        CompletableFuture<PeerLink> opened = new CompletableFuture<>();
        if (expected != null && !expected.equals(peer.name())) {
            WrongPeerException wrong = new WrongPeerException(address, expected, peer);
            opened.completeExceptionally(wrong);
            onIoThread(() -> {
                if (streams.isEmpty() && opening.isEmpty()) {
                    Links.close(channel, wrong.getMessage()); // nobody else here talks to that node
                }
            });
            return opened;
        }
        onIoThread(() -> {
            if (!isActive()) {
                opened.completeExceptionally(new IOException("connection to " + address + " closed"));
                return;
            }
            int stream = nextStream++;
            opening.put(stream, new Opening(from, to, expected != null, address, opened));
            Open.Builder open = Open.newBuilder().setHost(from.hostId()).setIncarnation(from.incarnation());
            if (to != null) {
                open.setTo(to);
            }
            queue(null, Frame.newBuilder().setStream(stream).setOpen(open).build());
        });
        return opened;
    }

    /** The peer asks for a stream to one of this node's hosts (this node accepted the connection). */
    private void opened(int stream, Open open) {
        if (dialing) {
            throw new ProtocolViolationException("the accepting node tried to open stream " + stream);
        }
        if (streams.containsKey(stream) || closed.contains(stream)) {
            throw new ProtocolViolationException("peer opened stream " + stream + " twice");
        }
        String from = open.getHost();
        checkHostId(from);
        String target = open.getTo().isEmpty() ? node.config().hostId() : open.getTo();
        NetNode.Resident local = node.resident(target);
        String refusal = local == null ? "no host " + target + " at this address"
                : from.equals(target) ? "host " + from + " cannot link to itself"
                : !node.vouches(peer, from) ? "node " + peer.name() + " may not speak for host " + from
                : null;
        PeerLink link = refusal == null ? local.link(this, stream, from, peer, open.getIncarnation()) : null;
        if (link == null) {
            closed.add(stream);
            queue(null, closeFrame(stream, refusal != null ? refusal : "host " + target + " is leaving"));
            return;
        }
        streams.put(stream, link);
        queue(null, Frame.newBuilder().setStream(stream).setOpened(Opened.newBuilder().setHost(target)
                .setIncarnation(local.incarnation())).build());
        local.listener().linkUp(link);
    }

    /** The peer answered a stream this node asked for. */
    private void answered(int stream, Opened answer) {
        Opening waiting = opening.remove(stream);
        if (waiting == null) {
            throw new ProtocolViolationException("peer answered stream " + stream + ", which this node never opened");
        }
        String host = answer.getHost();
        checkHostId(host);
        String refusal = waiting.to() != null && !waiting.to().equals(host)
                ? "asked for host " + waiting.to() + " but " + host + " answered"
                : !waiting.expected() && !node.vouches(peer, host) ? "node " + peer.name()
                + " may not speak for host " + host : null;
        PeerLink link = refusal == null ? waiting.from().link(this, stream, host, peer, answer.getIncarnation()) : null;
        if (link == null) {
            closed.add(stream);
            String why = refusal != null ? refusal : "host " + waiting.from().hostId() + " left";
            queue(null, closeFrame(stream, why));
            waiting.opened().completeExceptionally(refusal != null
                    ? new WrongPeerException(waiting.address(), waiting.to() != null ? waiting.to() : host, peer,
                            refusal)
                    : new IOException(why));
            return;
        }
        streams.put(stream, link);
        link.local().listener().linkUp(link);
        waiting.opened().complete(link);
    }

    /** The peer closed a stream, or refused to open it. */
    private void peerClosed(int stream, String reason) {
        Opening waiting = opening.remove(stream);
        if (waiting != null) {
            closed.add(stream);
            waiting.opened().completeExceptionally(new LinkRefusedException(waiting.address(), peer, reason));
            return;
        }
        PeerLink link = streams.remove(stream);
        if (link != null) {
            closed.add(stream);
            if (link.markClosed()) {
                down(link, "closed by peer: " + reason);
            }
        } else if (!closed.contains(stream)) {
            throw new ProtocolViolationException("peer closed stream " + stream + ", which was never open");
        }
    }

    /** A frame on a stream: handed to the stream's host, decoded. */
    private void carried(Frame frame) {
        PeerLink link = streams.get(frame.getStream());
        if (link == null) {
            if (closed.contains(frame.getStream()) || opening.containsKey(frame.getStream())) {
                return; // sent before the peer heard that the stream closed
            }
            throw new ProtocolViolationException("peer sent " + frame.getBodyCase() + " on stream "
                    + frame.getStream() + ", which was never open");
        }
        link.local().listener().message(link, link.decode(frame));
    }

    /** Closes {@code link}'s stream from this side, telling the peer and the local host. */
    void closeStream(PeerLink link, String reason) {
        onIoThread(() -> {
            if (!link.markClosed()) {
                return;
            }
            streams.remove(link.stream());
            closed.add(link.stream());
            if (channel.isActive()) {
                queue(null, closeFrame(link.stream(), reason));
            }
            link.local().listener().linkDown(link, reason);
            link.local().forget(link);
        });
    }

    private void down(PeerLink link, String reason) {
        streams.remove(link.stream());
        link.markClosed();
        link.local().listener().linkDown(link, reason);
        link.local().forget(link);
    }

    private static Frame closeFrame(int stream, String reason) {
        return Frame.newBuilder().setStream(stream).setClose(Close.newBuilder().setReason(reason)).build();
    }

    private static void checkHostId(String host) {
        if (host.isEmpty() || host.length() > MAX_HOST_ID_CHARS) {
            throw new ProtocolViolationException("peer named an empty or overlong host id");
        }
    }

    // ---- sending -------------------------------------------------------------------------------

    /** Queues {@code message} for {@code link}'s peer host; see {@link PeerLink#send}. */
    ChannelFuture send(PeerLink link, Object message) {
        return link.isActive() ? queue(link, message) : refused(link, message);
    }

    /** Queues {@code message} without waking the I/O thread; see {@link PeerLink#sendUnhurried}. */
    ChannelFuture sendUnhurried(PeerLink link, Object message) {
        if (!link.isActive()) {
            return refused(link, message);
        }
        ChannelPromise promise = channel.newPromise();
        outbound.offer(new Outgoing(link, message, promise));
        if (unhurriedDrainScheduled.compareAndSet(false, true)) {
            try {
                channel.eventLoop().schedule(this::drainUnhurried, PIGGYBACK_MICROS, TimeUnit.MICROSECONDS);
            } catch (RejectedExecutionException stopped) {
                unhurriedDrainScheduled.set(false);
                failQueued(stopped);
            }
        }
        return promise;
    }

    private void drainUnhurried() {
        unhurriedDrainScheduled.set(false); // before draining, as in drainQueuedWork
        drain();
    }

    /** A send on a closed link: the message is dropped, and the future fails. */
    private ChannelFuture refused(PeerLink link, Object message) {
        ReferenceCountUtil.release(message);
        return channel.newFailedFuture(new IOException("link to " + link.hostId() + " is closed"));
    }

    private ChannelFuture queue(PeerLink link, Object message) {
        ChannelPromise promise = channel.newPromise();
        outbound.offer(new Outgoing(link, message, promise));
        if (channel.eventLoop().inEventLoop()) {
            // Drained here, not written directly, so that messages other threads
            // queued before this one still leave before it.
            drain();
        } else if (drainQueued.compareAndSet(false, true)) {
            try {
                channel.eventLoop().execute(this::drainQueuedWork);
            } catch (RejectedExecutionException stopped) {
                drainQueued.set(false);
                failQueued(stopped);
            }
        }
        return promise;
    }

    private void onIoThread(Runnable task) {
        if (channel.eventLoop().inEventLoop()) {
            task.run();
        } else {
            channel.eventLoop().execute(task);
        }
    }

    /** The I/O thread has stopped, or the connection closed: nothing queued will leave. */
    private void failQueued(Throwable cause) {
        for (Outgoing next = outbound.poll(); next != null; next = outbound.poll()) {
            ReferenceCountUtil.release(next.message());
            next.promise().tryFailure(cause);
        }
    }

    private void drainQueuedWork() {
        // Cleared before draining: a message queued after the last poll below
        // finds the flag clear and queues a drain of its own.
        drainQueued.set(false);
        drain();
    }

    /**
     * Encodes and writes every queued message and flushes once. Runs on the I/O thread; inside a
     * read, the flush is held until the read completes ({@code FlushConsolidationHandler}), so
     * replies to a burst of reads share a flush too. A message that cannot be encoded fails its
     * own promise and the others still leave.
     */
    private void drain() {
        boolean wrote = false;
        for (Outgoing next = outbound.poll(); next != null; next = outbound.poll()) {
            Object frame;
            try {
                frame = next.stream() == null ? next.message() : next.stream().encode(next.message());
            } catch (RuntimeException e) {
                next.promise().tryFailure(e);
                continue;
            }
            channel.write(frame, next.promise());
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
    }

    @Override
    public String toString() {
        return "Connection[" + (peer == null ? "?" : peer.name()) + " at "
                + (channel == null ? "?" : channel.remoteAddress()) + "]";
    }
}
