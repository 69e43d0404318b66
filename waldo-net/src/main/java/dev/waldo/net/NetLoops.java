package dev.waldo.net;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.util.concurrent.TimeUnit;

/**
 * I/O threads that many hosts of one process share: a site agent serving a thousand switches runs
 * a few of these threads instead of one per switch. Each host started on them ({@link
 * NetHost#start(NetConfig, StructResolver, dev.waldo.runtime.storage.Storage, NetLoops)}) is pinned
 * to one thread of the group, so everything it hears still arrives on one thread, in order, as the
 * runtime's transport contract requires; hosts on the same thread take turns.
 *
 * <p>Closing a host leaves the threads running for the others; close the loops after every host
 * on them.
 *
 * <pre>{@code
 * try (NetLoops loops = NetLoops.create(4, "agent")) {
 *     NetHost a = NetHost.start(configA, structs, storageA, loops);
 *     NetHost b = NetHost.start(configB, structs, storageB, loops);
 *     ...
 * }
 * }</pre>
 */
public final class NetLoops implements AutoCloseable {
    private final IoTransport io;
    private final EventLoopGroup group;
    private final int threads;

    private NetLoops(int threads, String name) {
        this.io = IoTransport.best();
        this.threads = threads;
        this.group = io.newGroup(threads, name);
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

    /** The thread for the next host, round robin, so hosts spread evenly over the threads. */
    EventLoop next() {
        return group.next();
    }

    /** The socket implementation the threads were made for (channels must match it). */
    IoTransport io() {
        return io;
    }

    /** Stops the threads; hosts still on them lose their connections. */
    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
