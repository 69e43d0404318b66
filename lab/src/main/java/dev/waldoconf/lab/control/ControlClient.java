package dev.waldoconf.lab.control;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A client of a switch's control interface, for tests and tools. */
public final class ControlClient implements AutoCloseable {
    private static final int TIMEOUT_MS = 5000;

    private final Socket socket;
    private final BufferedReader in;
    private final PrintWriter out;

    private ControlClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /** Connects to a switch's control address. */
    public static ControlClient connect(InetSocketAddress address) throws IOException {
        Socket socket = new Socket();
        socket.connect(address, TIMEOUT_MS);
        socket.setSoTimeout(TIMEOUT_MS);
        return new ControlClient(socket);
    }

    /** Sends one command and returns the answer line (starting {@code ok} or {@code error}). */
    public String send(String command) throws IOException {
        out.println(command);
        String answer = in.readLine();
        if (answer == null) {
            throw new IOException("control interface at " + socket.getRemoteSocketAddress() + " closed the connection");
        }
        return answer;
    }

    /**
     * Sends one command and returns the answer without its {@code ok } prefix.
     *
     * @throws IOException with the switch's message when it answers {@code error}
     */
    public String command(String command) throws IOException {
        String answer = send(command);
        if (!answer.startsWith("ok")) {
            throw new IOException("control command '" + command + "' failed: " + answer);
        }
        return answer.substring(Math.min(3, answer.length()));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
