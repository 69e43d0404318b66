package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.testing.PeerEndpoint;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.core.StorageRecord;
import dev.waldo.runtime.storage.FileStorage;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two networked hosts in one JVM, over loopback: transactions, the endpoint callback and link loss. */
class NetHostTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    @TempDir
    Path state;

    private NetHost start(String id, Security security) {
        return NetHost.start(NetConfig.defaults(id, state.resolve(id)).withSecurity(security)
                .withHeartbeat(500, 5_000));
    }

    @Test
    void sequenceRunsAcrossHostsAsOneTransaction() throws Exception {
        BlockingQueue<PeerEndpoint> accepted = new LinkedBlockingQueue<>();
        try (NetHost server = start("server", Security.SELF_SIGNED);
             NetHost client = start("client", Security.SELF_SIGNED)) {
            InetSocketAddress address = server.listen(LOOPBACK, PeerEndpoint::create, accepted::add);
            PeerEndpoint local = client.connect(address, PeerEndpoint::create);
            PeerEndpoint remote = accepted.poll(10, TimeUnit.SECONDS);
            assertThat(remote).isNotNull();
            assertThat(local.partner()).isEqualTo(remote.ref());
            assertThat(remote.partner()).isEqualTo(local.ref());

            assertThat(local.bump(2)).isEqualTo(4.0);
            assertThat(local.bump(1)).isEqualTo(3.0 + 3.0);
            local.ping();
            assertThat(local.count.committed()).isEqualTo(3.0);
            assertThat(remote.count.committed()).isEqualTo(3.0);
            assertThat(remote.bound.committed()).isEqualTo(3.0);
        }
    }

    @Test
    void aHostGivenAFileStorageLogsItsPartInACommitThere() throws Exception {
        BlockingQueue<PeerEndpoint> accepted = new LinkedBlockingQueue<>();
        Path log = state.resolve("server-transactions");
        NetConfig serverConfig = NetConfig.defaults("server", state.resolve("server")).withSecurity(Security.INSECURE)
                .withHeartbeat(500, 5_000);
        try (NetHost server = NetHost.start(serverConfig, StructResolver.NONE, FileStorage.open(log));
             NetHost client = start("client", Security.INSECURE)) {
            InetSocketAddress address = server.listen(LOOPBACK, PeerEndpoint::create, accepted::add);
            PeerEndpoint local = client.connect(address, PeerEndpoint::create);
            assertThat(local.bump(2)).isEqualTo(4.0);
            // Stop gracefully: the Commit (unhurried, after the caller returned) and its Ack must arrive first.
            assertThat(client.host().awaitDecisionsDelivered(java.time.Duration.ofSeconds(10))).isZero();
        }
        try (FileStorage reopened = FileStorage.open(log)) {
            List<StorageRecord> records = reopened.load();
            assertThat(records).as("the server voted yes, committed and was acknowledged").isNotEmpty()
                    .first().isInstanceOf(StorageRecord.Prepared.class);
            assertThat(records).last().isInstanceOf(StorageRecord.Forgotten.class);
        }
    }

    @Test
    void secondEndpointToTheSameHostSharesTheLinkAndLeavesTheFirstWorking() throws Exception {
        try (NetHost server = start("server", Security.INSECURE);
             NetHost client = start("client", Security.INSECURE)) {
            InetSocketAddress address = server.listen(LOOPBACK, PeerEndpoint::create, null);
            PeerEndpoint first = client.connect(address, PeerEndpoint::create);
            PeerLink link = client.transport().link("server");
            PeerEndpoint second = client.connect(address, PeerEndpoint::create);
            assertThat(client.transport().link("server")).isSameAs(link);
            assertThat(second.partner()).isNotEqualTo(first.partner());
            assertThat(first.bump(1)).isEqualTo(2.0);
            assertThat(second.bump(2)).isEqualTo(4.0);
        }
    }

    @Test
    void connectRefusesAHostOtherThanTheOneExpectedAndDropsItsLink() throws Exception {
        try (NetHost server = start("switch-b", Security.SELF_SIGNED);
             NetHost client = start("operator~1", Security.SELF_SIGNED)) {
            InetSocketAddress address = server.listen(LOOPBACK, PeerEndpoint::create, null);
            assertThatThrownBy(() -> client.connect(address, "switch-a", PeerEndpoint::create))
                    .isInstanceOf(WrongPeerException.class)
                    .hasMessage("expected host switch-a at 127.0.0.1:" + address.getPort()
                            + ", but switch-b (as it announced) answered there");
            PeerLink refused = client.transport().link("switch-b");
            assertThat(refused == null || !refused.isActive()).as("the wrong host's link is closed").isTrue();
            PeerEndpoint right = client.connect(address, "switch-b", PeerEndpoint::create);
            assertThat(right.bump(1)).isEqualTo(2.0);
            assertThat(server.peer("operator~1")).hasValueSatisfying(peer -> assertThat(peer.name())
                    .isEqualTo("operator"));
        }
    }

    @Test
    void connectToAPortWithoutFactoryIsRefused() throws Exception {
        try (NetHost server = start("server", Security.INSECURE);
             NetHost client = start("client", Security.INSECURE)) {
            InetSocketAddress address = server.transport().listen(LOOPBACK);
            assertThatThrownBy(() -> client.connect(address, PeerEndpoint::create))
                    .isInstanceOf(NetworkException.class)
                    .hasMessageContaining("no endpoint factory listens on port " + address.getPort());
        }
    }

    @Test
    void connectToNothingRaisesNetworkException() throws Exception {
        InetSocketAddress nobody;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, LOOPBACK.getAddress())) {
            nobody = new InetSocketAddress("127.0.0.1", socket.getLocalPort());
        }
        try (NetHost client = start("client", Security.INSECURE)) {
            InetSocketAddress target = nobody;
            assertThatThrownBy(() -> client.connect(target, PeerEndpoint::create))
                    .isInstanceOf(NetworkException.class).hasMessageContaining("cannot connect");
        }
    }

    @Test
    void partnerThatLeavesRaisesNetworkExceptionAndNothingCommits() throws Exception {
        BlockingQueue<PeerEndpoint> accepted = new LinkedBlockingQueue<>();
        try (NetHost client = start("client", Security.INSECURE)) {
            PeerEndpoint local;
            try (NetHost server = start("server", Security.INSECURE)) {
                InetSocketAddress address = server.listen(LOOPBACK, PeerEndpoint::create, accepted::add);
                local = client.connect(address, PeerEndpoint::create);
                local.bump(1);
            }
            assertThatThrownBy(() -> local.bump(5)).isInstanceOf(NetworkException.class);
            assertThat(local.count.committed()).isEqualTo(1.0);
            assertThat(client.host().liveTransactions()).isZero();
        }
    }
}
