package dev.waldoconf.lab;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * TCP ports on one loopback address, each held by a bound socket until {@link #close()}, for
 * servers that are named in a file (an inventory) before they start.
 *
 * <p>Asking the system for a free port and closing the socket at once (the usual "find a free
 * port") hands the same port out again: two servers of one lab then get one port, and a 256-switch
 * lab's inventory named a port twice in most runs. A reservation keeps its socket bound, so while
 * it is held no other bind to port 0 and no outgoing connection is given that port, in this
 * process or any other.
 *
 * <p>The socket is bound with {@code SO_REUSEADDR} and never listens. On Linux that lets the
 * server the port was reserved for bind and listen on it while the reservation is still held
 * (Java's and Netty's server sockets set {@code SO_REUSEADDR}), so there is no moment in which
 * the port is free for someone else; release the reservation once the server listens. Where the
 * system refuses that bind, release the port just before the server binds instead.
 */
public final class ReservedPorts implements AutoCloseable {
    private final InetAddress host;
    private final List<Socket> sockets;

    private ReservedPorts(InetAddress host, List<Socket> sockets) {
        this.host = host;
        this.sockets = sockets;
    }

    /**
     * Reserves {@code count} distinct TCP ports on {@code host}, a loopback address.
     *
     * @throws IOException when the system has no more free ports (or sockets); none stays reserved
     */
    public static ReservedPorts reserve(InetAddress host, int count) throws IOException {
        if (!host.isLoopbackAddress()) {
            throw new IllegalArgumentException("lab ports are reserved on loopback only, not " + host);
        }
        if (count < 0) {
            throw new IllegalArgumentException("cannot reserve " + count + " ports");
        }
        List<Socket> sockets = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                sockets.add(bound(host));
            }
        } catch (IOException e) {
            closeAll(sockets);
            throw new IOException("could reserve only " + sockets.size() + " of " + count + " TCP ports on " + host
                    + ": " + e.getMessage() + "; too many sockets are open (see 'ulimit -n')", e);
        }
        return new ReservedPorts(host, sockets);
    }

    /** A socket bound to a port the system picks, not listening, so a server may share it (see the class doc). */
    private static Socket bound(InetAddress host) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(host, 0));
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** The reserved ports, in the order they were reserved; distinct. */
    public List<Integer> ports() {
        return sockets.stream().map(Socket::getLocalPort).toList();
    }

    /** The address the ports are reserved on. */
    public InetAddress host() {
        return host;
    }

    /** Releases every port: from now on the system may hand them out again. */
    @Override
    public void close() {
        closeAll(sockets);
    }

    private static void closeAll(List<Socket> sockets) {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                // A socket that never connected has nothing to flush; closing it cannot lose anything.
            }
        }
    }
}
