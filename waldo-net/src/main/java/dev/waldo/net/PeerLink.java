package dev.waldo.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.PlatformDependent;
import java.net.SocketAddress;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An established connection to one peer host, after the handshake: the peer
 * announced its host id and, with TLS, proved it with its certificate.
 * Messages are sent in the order {@link #send} is called, from whichever threads.
 *
 * <p>Messages wait in a queue of this link's own until its I/O thread drains
 * it: every message queued by then is written and the lot is flushed once, so
 * a burst (many caller threads, or a host sending several messages at once)
 * costs one wake-up of the I/O thread, one system call and, with TLS, one
 * record instead of one per message. A lone message still leaves at once.
 */
public final class PeerLink {
    static final AttributeKey<PeerLink> KEY = AttributeKey.valueOf("waldo.peerLink");
    private final Channel channel;
    private final PeerIdentity identity;
    private final long incarnation;
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

    /** A message waiting for the I/O thread, with the promise its sender holds. */
    private record Outgoing(Object message, ChannelPromise promise) {
    }

    PeerLink(Channel channel, PeerIdentity identity, long incarnation) {
        this.channel = channel;
        this.identity = identity;
        this.incarnation = incarnation;
    }

    /** The peer's host id, as it announced in its Hello. */
    public String hostId() {
        return identity.hostId();
    }

    /** Who the peer is, as far as the handshake checked it. */
    public PeerIdentity identity() {
        return identity;
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
     * Queues {@code message} for the peer; it leaves with whatever else is
     * queued when the I/O thread next drains, in the order queued. Safe from
     * any thread; a message that cannot be encoded fails the returned future
     * and leaves the link up.
     */
    public ChannelFuture send(Object message) {
        ChannelPromise promise = channel.newPromise();
        outbound.offer(new Outgoing(message, promise));
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

    /**
     * Queues {@code message}, which nothing waits for soon, without waking the I/O thread: it
     * leaves with the next message {@link #send} queues after it (in its flush, and with TLS in
     * its record), or on its own once {@link #PIGGYBACK_MICROS} passed, whichever comes first.
     * Order is kept: it leaves before anything queued after it.
     */
    public ChannelFuture sendUnhurried(Object message) {
        ChannelPromise promise = channel.newPromise();
        outbound.offer(new Outgoing(message, promise));
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

    /** The I/O thread has stopped (the node is closing): nothing queued will leave. */
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
     * Writes every queued message and flushes once. Runs on the I/O thread;
     * inside a read, the flush is held until the read completes
     * ({@code FlushConsolidationHandler}), so replies to a burst of reads share a flush too.
     */
    private void drain() {
        boolean wrote = false;
        for (Outgoing next = outbound.poll(); next != null; next = outbound.poll()) {
            channel.write(next.message(), next.promise());
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
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
        return "PeerLink[" + identity.hostId() + " at " + channel.remoteAddress() + "]";
    }
}
