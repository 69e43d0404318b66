package dev.waldo.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy forwards, delays, cuts and black-holes a link to an echo server, and heals it. */
class LinkProxyTest {
    private ServerSocket echo;
    private LinkProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket();
        echo.bind(new InetSocketAddress("127.0.0.1", 0));
        Thread.ofVirtual().start(this::serveEcho);
        proxy = LinkProxy.start("127.0.0.2", new InetSocketAddress("127.0.0.1", echo.getLocalPort()));
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private void serveEcho() {
        while (!echo.isClosed()) {
            try {
                Socket socket = echo.accept();
                Thread.ofVirtual().start(() -> {
                    try (socket) {
                        socket.getInputStream().transferTo(socket.getOutputStream());
                    } catch (IOException e) {
                        // The proxy closed the connection: this echo is done.
                    }
                });
            } catch (IOException e) {
                return;
            }
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(proxy.address(), 2_000);
        socket.setSoTimeout(5_000);
        return socket;
    }

    private static int roundTrip(Socket socket, int value) throws IOException {
        socket.getOutputStream().write(value);
        return socket.getInputStream().read();
    }

    @Test
    void listensOnTheTargetsPortOnAnotherLoopbackAddress() throws IOException {
        assertThat(proxy.address().getPort()).isEqualTo(echo.getLocalPort());
        assertThat(proxy.address().getAddress().getHostAddress()).isEqualTo("127.0.0.2");
        try (Socket socket = connect()) {
            assertThat(roundTrip(socket, 42)).isEqualTo(42);
        }
    }

    @Test
    void delayHoldsEveryChunkBackEachWay() throws IOException {
        proxy.delay(150);
        try (Socket socket = connect()) {
            long startedAt = System.nanoTime();
            assertThat(roundTrip(socket, 7)).isEqualTo(7);
            // At least the delay each way; an upper bound would depend on the machine's load.
            assertThat((System.nanoTime() - startedAt) / 1_000_000).isGreaterThanOrEqualTo(300);
        }
    }

    @Test
    void cutClosesOpenConnectionsAndRefusesNewOnesUntilHealed() throws IOException {
        try (Socket open = connect()) {
            assertThat(roundTrip(open, 1)).isEqualTo(1);
            proxy.cut();
            assertThat(readOrEnd(open)).isEqualTo(-1);
        }
        try (Socket refused = connect()) {
            assertThat(readOrEnd(refused)).isEqualTo(-1);
        }
        proxy.heal();
        try (Socket healed = connect()) {
            assertThat(roundTrip(healed, 2)).isEqualTo(2);
        }
    }

    @Test
    void blackHoleDropsBytesSilently() throws IOException {
        try (Socket open = connect()) {
            assertThat(roundTrip(open, 1)).isEqualTo(1);
            proxy.blackHole();
            open.setSoTimeout(500);
            open.getOutputStream().write(3);
            assertThatThrownBy(() -> open.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
        }
        proxy.heal();
        try (Socket healed = connect()) {
            assertThat(roundTrip(healed, 4)).isEqualTo(4);
        }
    }

    /** The next byte, or -1 once the proxy closed the connection (a reset counts as closed). */
    private static int readOrEnd(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            return in.read();
        } catch (IOException reset) {
            return -1;
        }
    }
}
