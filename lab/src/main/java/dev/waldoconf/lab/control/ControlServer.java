package dev.waldoconf.lab.control;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The control interface of one switch: a line-based TCP service on a loopback address. Each
 * line a client sends is run by {@link ControlCommands} and answered with one line. Clients can
 * be tests, the future CLI, or a person with {@code nc 127.0.0.1 <port>}.
 */
public final class ControlServer implements AutoCloseable {
    private static final int MAX_LINE_CHARS = 1024;

    private final ServerSocket socket;
    private final ControlCommands commands;
    private final Thread acceptor;

    private ControlServer(ServerSocket socket, ControlCommands commands, String switchName) {
        this.socket = socket;
        this.commands = commands;
        this.acceptor = Thread.ofVirtual().name("control-" + switchName).unstarted(this::acceptLoop);
    }

    /**
     * Binds {@code host:port} (0 = any free port) and starts serving.
     *
     * @throws IOException saying which address could not be bound
     */
    public static ControlServer start(String host, int port, ControlCommands commands, String switchName)
            throws IOException {
        ServerSocket socket = new ServerSocket();
        try {
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (IOException e) {
            socket.close();
            throw new IOException("cannot bind the control interface to TCP " + host + ":" + port + ": "
                    + e.getMessage() + "; choose another control port", e);
        }
        ControlServer server = new ControlServer(socket, commands, switchName);
        server.acceptor.start();
        return server;
    }

    /** The bound address. */
    public InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Thread.ofVirtual().start(() -> serve(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client;
             BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(),
                     StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(client.getOutputStream(), true, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("quit")) {
                    return;
                }
                out.println(line.length() > MAX_LINE_CHARS ? "error line too long" : commands.execute(line));
            }
        } catch (IOException e) {
            // The client went away; nothing to clean up beyond the socket.
        }
    }

    /** Stops accepting; open sessions end when their clients disconnect. */
    @Override
    public void close() throws IOException {
        socket.close();
    }
}
