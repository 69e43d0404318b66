package dev.waldoconf.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * A TCP forwarder on loopback between the operator and one service, which can hold back every byte
 * from the operator to the service for a set time (the other direction is never delayed), and can
 * cut every connection at once. The delay is off until {@link #delay} turns it on, so the TLS
 * handshake and the hosts' hello are not slowed into a heartbeat timeout. TLS passes through untouched. With it, a message the operator has
 * sent (the commit) is provably still on its way when the test acts, so "after the decision, before
 * this service heard it" is a moment a test can hit every time rather than by luck.
 */
public final class DelayingProxy implements AutoCloseable {
    private static final int BUFFER_BYTES = 16 * 1024;

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private volatile long delayMs;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean cut;

    private DelayingProxy(ServerSocket listener, InetSocketAddress target) {
        this.listener = listener;
        this.target = target;
    }

    /**
     * Listens on {@code 127.0.0.2} at {@code target}'s port and forwards to {@code target}, with no
     * delay yet. The same port, because a Waldo host asks for the endpoint by the port it dialed;
     * another loopback address, because the service holds that port on 127.0.0.1.
     */
    public static DelayingProxy start(InetSocketAddress target) throws IOException {
        ServerSocket listener = new ServerSocket(target.getPort(), 50, InetAddress.getByName("127.0.0.2"));
        DelayingProxy proxy = new DelayingProxy(listener, target);
        daemon("proxy-accept", proxy::acceptLoop);
        return proxy;
    }

    /**
     * From now on, holds back each chunk from the operator {@code ms} milliseconds. Turned on once,
     * the delay keeps the bytes' order and their gaps, so heartbeats still arrive evenly.
     */
    public void delay(long ms) {
        delayMs = ms;
    }

    /** Where the operator connects instead of the service. */
    public InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    /** Closes every connection and accepts no more: whatever was held back never arrives. */
    public void cut() {
        cut = true;
        close();
    }

    private void acceptLoop() {
        while (!cut) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(target.getAddress(), target.getPort());
                sockets.add(client);
                sockets.add(server);
                daemon("proxy-up", () -> pump(client, server, true));
                daemon("proxy-down", () -> pump(server, client, false));
            } catch (IOException e) {
                return;  // closed by cut() or close()
            }
        }
    }

    /** A chunk of bytes and when it may go on. */
    private record Chunk(byte[] bytes, long dueAtNanos) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueAtNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(dueAtNanos, ((Chunk) other).dueAtNanos);
        }
    }

    /** Copies {@code from} to {@code to} in order, each chunk held back by the delay if {@code delayed}. */
    private void pump(Socket from, Socket to, boolean delayed) {
        DelayQueue<Chunk> queue = new DelayQueue<>();
        Thread writer = daemon("proxy-write", () -> drain(queue, to));
        try (InputStream in = from.getInputStream()) {
            byte[] buffer = new byte[BUFFER_BYTES];
            for (int n = in.read(buffer); n >= 0 && !cut; n = in.read(buffer)) {
                queue.put(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + (delayed ? delayMs : 0) * 1_000_000));
            }
        } catch (IOException e) {
            // The connection ended; so does this direction.
        }
        queue.put(new Chunk(new byte[0], System.nanoTime() + (delayed ? delayMs : 0) * 1_000_000));  // end of stream
        try {
            writer.join(delayMs + 5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(to);
    }

    private void drain(DelayQueue<Chunk> queue, Socket to) {
        try {
            OutputStream out = to.getOutputStream();
            while (!cut) {
                Chunk chunk = queue.poll(1, TimeUnit.SECONDS);
                if (chunk == null) {
                    continue;
                }
                if (chunk.bytes().length == 0) {
                    return;
                }
                out.write(chunk.bytes());
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // The other side went away, or the proxy was cut.
        }
    }

    private static Thread daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public void close() {
        cut = true;
        try {
            listener.close();
        } catch (IOException e) {
            // Already closed.
        }
        sockets.forEach(DelayingProxy::closeQuietly);
    }
}
