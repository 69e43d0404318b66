package dev.waldo.net;

import io.netty.channel.EventLoopGroup;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * I/O threads that many hosts of one process share: a site agent serving a thousand switches runs
 * a few of these threads instead of one per switch. The agent's node ({@link NetNode#shared}) runs
 * its connections on them, and each host on that node hears its events, in order, on a serial
 * executor of its own, as the runtime's transport contract requires.
 *
 * <p>The hosts' clock ticks are batched: one timer for all of them, whose batch runs every
 * host's tick on one virtual thread. A tick per host each {@code NetTransport.TICK_MS} handed to
 * the host's own event thread would cost a thread hand-off each (20,000 a second for 1,000 idle
 * hosts, more than half a core of a 2-core machine in the site agent's lab), and under load the
 * ticks would queue up behind the work that matters. A batch still running when the next is due
 * makes that one skip: ticks only say that time passed, so a late one loses nothing. A host whose
 * core has nothing timed leaves the batch until something reaches its core
 * ({@code Transport.wantTicks}), so an idle agent's batch visits none of its hosts.
 *
 * <p>Closing a host leaves the threads running for the others; close the loops after the node and
 * every host on them.
 *
 * <pre>{@code
 * try (NetLoops loops = NetLoops.create(4, "agent"); NetNode node = NetNode.shared(agentConfig, loops)) {
 *     node.listen(address);
 *     NetHost a = NetHost.start(configA, structs, storageA, node);
 *     NetHost b = NetHost.start(configB, structs, storageB, node);
 *     ...
 * }
 * }</pre>
 */
public final class NetLoops implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetLoops.class);
    private final IoTransport io;
    private final EventLoopGroup group;
    private final int threads;
    private final String name;
    private final Set<Runnable> ticks = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean ticking = new AtomicBoolean();
    private final ScheduledFuture<?> ticker;

    private NetLoops(int threads, String name) {
        this.io = IoTransport.best();
        this.threads = threads;
        this.name = name;
        this.group = io.newGroup(threads, name);
        this.ticker = group.next().scheduleAtFixedRate(this::tickAll, NetTransport.TICK_MS, NetTransport.TICK_MS,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Starts {@code threads} I/O threads named after {@code name}.
     *
     * @throws IllegalArgumentException if {@code threads} is not positive
     */
    public static NetLoops create(int threads, String name) {
        if (threads < 1) {
            throw new IllegalArgumentException("need at least one I/O thread, got " + threads);
        }
        return new NetLoops(threads, name);
    }

    /** How many I/O threads the hosts share. */
    public int threads() {
        return threads;
    }

    /** The threads, for a node's connections: Netty spreads them over the threads round robin. */
    EventLoopGroup group() {
        return group;
    }

    /** Runs {@code tick} in every batch of ticks until {@link #stopTicking} (a host's clock). */
    void tickEvery(Runnable tick) {
        ticks.add(tick);
    }

    /** Leaves {@code tick} out of the batches from now on. */
    void stopTicking(Runnable tick) {
        ticks.remove(tick);
    }

    /** How many ticks each batch runs (for tests). */
    int tickers() {
        return ticks.size();
    }

    /** Starts a batch of every host's tick, unless the last batch is still running. */
    private void tickAll() {
        if (ticks.isEmpty() || !ticking.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name(name + "-ticks").start(() -> {
            try {
                for (Runnable tick : ticks) {
                    runQuietly(tick);
                }
            } finally {
                ticking.set(false);
            }
        });
    }

    private static void runQuietly(Runnable tick) {
        try {
            tick.run();
        } catch (RuntimeException e) {
            LOG.error("a host's tick failed", e);
        }
    }

    /** The socket implementation the threads were made for (channels must match it). */
    IoTransport io() {
        return io;
    }

    /** Stops the threads; hosts still on them lose their connections. */
    @Override
    public void close() {
        ticker.cancel(false);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
