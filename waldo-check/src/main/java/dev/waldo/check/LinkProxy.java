package dev.waldo.check;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy in front of one link, that a test controls: it forwards bytes
 * both ways, optionally each after a delay, and can cut the link (close every
 * connection and refuse new ones, as a peer that vanished) or black-hole it
 * (accept nothing new and silently drop every byte on the open connections, as
 * a network that loses packets; the hosts notice by their heartbeat timeout).
 * {@link #heal()} lets connections through again.
 *
 * <p>A Waldo host names the listener it attaches to by port, so the proxy
 * listens on the same port as its target but on another loopback address
 * (127.0.0.2 in front of 127.0.0.1): the host on the other side still finds
 * its listener.
 */
public final class LinkProxy implements AutoCloseable {
    private enum Mode { OPEN, CUT, BLACK_HOLE }

    private static final byte[] END = new byte[0];
    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile Mode mode = Mode.OPEN;
    private volatile long delayNanos;
    private volatile boolean closed;

    private LinkProxy(InetSocketAddress target, ServerSocket server) {
        this.target = target;
        this.server = server;
        Thread.ofPlatform().daemon().name("proxy-accept-" + target.getPort()).start(this::acceptLoop);
    }

    /** Starts a proxy at {@code listenHost}, on the target's port, forwarding to {@code target}. */
    public static LinkProxy start(String listenHost, InetSocketAddress target) throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(listenHost, target.getPort()));
        return new LinkProxy(target, server);
    }

    /** Where peers connect to reach the target through this proxy. */
    public InetSocketAddress address() {
        return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    /** Delays every chunk of bytes, each way, by {@code delayMs} from now on (0: none). */
    public void delay(long delayMs) {
        delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMs);
    }

    /** Closes every open connection and refuses new ones until {@link #heal()}. */
    public void cut() {
        mode = Mode.CUT;
        sockets.forEach(this::closeQuietly);
    }

    /** Drops every byte on open connections and refuses new ones until {@link #heal()}. */
    public void blackHole() {
        mode = Mode.BLACK_HOLE;
    }

    /** Lets new connections through again (connections that lost bytes are not repaired: their hosts close them). */
    public void heal() {
        mode = Mode.OPEN;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                if (mode != Mode.OPEN) {
                    closeQuietly(client);
                    continue;
                }
                Socket upstream = new Socket();
                try {
                    upstream.connect(target, 5_000);
                } catch (IOException unreachable) {
                    closeQuietly(client);
                    continue;
                }
                // Forward each write at once: Nagle's algorithm would hold small frames back
                // for tens of milliseconds, a delay that no test asked for.
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // A failed accept or dial costs that one connection; the proxy goes on until closed.
            }
        }
    }

    /** Forwards {@code from} to {@code to}: a reader that stamps chunks, a writer that sends each once due. */
    private void pump(Socket from, Socket to) {
        BlockingQueue<Object[]> chunks = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> read(from, chunks));
        Thread.ofVirtual().start(() -> write(chunks, from, to));
    }

    private void read(Socket from, BlockingQueue<Object[]> chunks) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (mode != Mode.BLACK_HOLE) {
                    chunks.add(new Object[] {System.nanoTime() + delayNanos, Arrays.copyOf(buffer, n)});
                }
            }
        } catch (IOException e) {
            // The connection ended; the writer closes both sides.
        }
        chunks.add(new Object[] {0L, END});
    }

    private void write(BlockingQueue<Object[]> chunks, Socket from, Socket to) {
        try (OutputStream out = to.getOutputStream()) {
            while (true) {
                Object[] chunk = chunks.take();
                if (chunk[1] == END) {
                    break;
                }
                long waitNanos = (Long) chunk[0] - System.nanoTime();
                if (waitNanos > 0) {
                    TimeUnit.NANOSECONDS.sleep(waitNanos);
                }
                if (mode != Mode.BLACK_HOLE) {
                    out.write((byte[]) chunk[1]);
                }
            }
        } catch (IOException | InterruptedException e) {
            // The other side is gone; close both below.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // Closing a socket that is already broken: nothing left to do.
        }
    }

    /** Stops accepting and closes every connection. */
    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        sockets.forEach(this::closeQuietly);
    }
}
