package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The lab's port allocator: a port it hands out is never handed out again while it is held, by
 * it or by the system, and the server it was reserved for can still listen on it.
 */
class ReservedPortsTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void neverHandsOutAPortTwiceNorLetsTheSystemHandItOut() throws IOException {
        // More ports than a 1,000-switch lab needs, so a repeat would show if the allocator could give one.
        try (ReservedPorts reserved = ReservedPorts.reserve(LOOPBACK, 1200)) {
            assertThat(reserved.ports()).hasSize(1200).doesNotHaveDuplicates();
            Set<Integer> taken = new HashSet<>(reserved.ports());
            // The old "bind port 0 and close" picker, run many times while the reservations are held.
            List<ServerSocket> others = new ArrayList<>();
            try {
                for (int i = 0; i < 300; i++) {
                    ServerSocket other = new ServerSocket(0, 1, LOOPBACK);
                    others.add(other);
                    assertThat(taken).as("port handed out by the system while reserved").doesNotContain(
                            other.getLocalPort());
                }
            } finally {
                for (ServerSocket other : others) {
                    other.close();
                }
            }
        }
    }

    @Test
    void twoReservationsHeldAtOnceNeverShareAPort() throws IOException {
        try (ReservedPorts first = ReservedPorts.reserve(LOOPBACK, 500);
             ReservedPorts second = ReservedPorts.reserve(LOOPBACK, 500)) {
            assertThat(first.ports()).doesNotContainAnyElementsOf(second.ports());
        }
    }

    @Test
    void theServerItWasReservedForListensOnItWhileItIsHeld() throws IOException {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"),
                "binding a reserved port while it is held relies on Linux's SO_REUSEADDR rules");
        try (ReservedPorts reserved = ReservedPorts.reserve(LOOPBACK, 1);
             ServerSocketChannel server = ServerSocketChannel.open()) {
            int port = reserved.ports().get(0);
            // NIO server sockets (and Netty's) set SO_REUSEADDR, as the services' do.
            server.bind(new InetSocketAddress(LOOPBACK, port));
            try (Socket client = new Socket(LOOPBACK, port)) {
                assertThat(client.isConnected()).isTrue();
            }
        }
    }

    @Test
    void aBindWithoutReuseCannotTakeAReservedPort() throws IOException {
        try (ReservedPorts reserved = ReservedPorts.reserve(LOOPBACK, 1); ServerSocket intruder = new ServerSocket()) {
            intruder.setReuseAddress(false);
            assertThatThrownBy(() -> intruder.bind(new InetSocketAddress(LOOPBACK, reserved.ports().get(0))))
                    .isInstanceOf(BindException.class);
        }
    }

    @Test
    void reservesOnLoopbackOnly() {
        assertThatThrownBy(() -> ReservedPorts.reserve(InetAddress.getByAddress(new byte[] {10, 0, 0, 1}), 1))
                .hasMessageContaining("loopback only");
    }
}
