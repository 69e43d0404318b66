package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.CodedOutputStream;
import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.NameDefinition;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nodes on loopback with real sockets: TLS modes, pinning, mutual TLS, and hostile raw sockets. */
class NetNodeTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    @TempDir
    Path state;

    private NetConfig config(String host, Security security) {
        return NetConfig.defaults(host, state.resolve(host)).withSecurity(security).withHeartbeat(500, 5_000);
    }

    private static Frame named(String name) {
        return Frame.newBuilder().addNames(NameDefinition.newBuilder().setAlias(1).setName(name)).build();
    }

    /** Links b to a, sends one message each way, and returns b's link. */
    private static void exchange(NetNode a, RecordingListener aEvents, NetNode b, RecordingListener bEvents)
            throws Exception {
        InetSocketAddress address = a.listen(LOOPBACK);
        PeerLink fromB = b.connect(address).get(10, TimeUnit.SECONDS);
        PeerLink fromA = aEvents.nextUp();
        assertThat(fromB.hostId()).isEqualTo(a.config().hostId());
        assertThat(fromA.hostId()).isEqualTo(b.config().hostId());
        fromB.send(named("to a"));
        fromA.send(named("to b"));
        assertThat(aEvents.nextMessage()).isEqualTo(named("to a"));
        assertThat(bEvents.nextMessage()).isEqualTo(named("to b"));
    }

    @Test
    void insecureLinkCarriesMessagesBothWays() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        RecordingListener bEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.INSECURE), aEvents, 1);
             NetNode b = NetNode.start(config("b", Security.INSECURE), bEvents, 1)) {
            exchange(a, aEvents, b, bEvents);
        }
    }

    /** A node with TLS dialing one without learns at once what is wrong, as the CLI tells the user. */
    @Test
    void aTlsNodeDialingAPlainNodeFailsSayingItIsNoTlsRecord() throws Exception {
        try (NetNode plain = NetNode.start(config("a", Security.INSECURE), new RecordingListener(), 1);
             NetNode tls = NetNode.start(config("b", Security.SELF_SIGNED), new RecordingListener(), 1)) {
            assertThatThrownBy(() -> tls.connect(plain.listen(LOOPBACK)).get(10, TimeUnit.SECONDS))
                    .hasMessageContaining("not an SSL/TLS record");
        }
    }

    @Test
    void selfSignedCertificateIsCreatedOnFirstStartAndKept() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        RecordingListener bEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.SELF_SIGNED), aEvents, 1);
             NetNode b = NetNode.start(config("b", Security.SELF_SIGNED), bEvents, 1)) {
            exchange(a, aEvents, b, bEvents);
        }
        Path certificate = state.resolve("a").resolve(HostCredentials.SELF_SIGNED_CERTIFICATE_FILE);
        assertThat(Files.readString(certificate)).startsWith("-----BEGIN CERTIFICATE-----");
        String before = Files.readString(certificate);
        NetNode.start(config("a", Security.SELF_SIGNED), new RecordingListener(), 1).close();
        assertThat(Files.readString(certificate)).isEqualTo(before);
        assertThat(Files.readString(state.resolve("b").resolve(PeerPins.FILE))).startsWith("a ");
    }

    @Test
    void selfSignedPeerThatChangesItsCertificateIsRefused() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.SELF_SIGNED), aEvents, 1)) {
            InetSocketAddress address = a.listen(LOOPBACK);
            try (NetNode b = NetNode.start(config("b", Security.SELF_SIGNED), new RecordingListener(), 1)) {
                b.connect(address).get(10, TimeUnit.SECONDS);
                aEvents.nextUp();
            }
            // An impostor: same host id, its own fresh certificate.
            NetConfig impostor = NetConfig.defaults("b", state.resolve("impostor")).withHeartbeat(500, 5_000);
            try (NetNode b = NetNode.start(impostor, new RecordingListener(), 1)) {
                b.connect(address).handle((link, failure) -> null).get(10, TimeUnit.SECONDS);
                assertThat(aEvents.ups.poll(500, TimeUnit.MILLISECONDS)).isNull();
            }
        }
    }

    @Test
    void mutualTlsAcceptsHostsTheCaSignedAndRefusesOthers() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(state.resolve("ca"), "test CA");
        ca.issueHost("a", Set.of(), state.resolve("a"));
        ca.issueHost("b", Set.of(), state.resolve("b"));
        CertificateAuthority.create(state.resolve("rogue-ca"), "rogue CA").issueHost("c", Set.of(), state.resolve("c"));
        RecordingListener aEvents = new RecordingListener();
        RecordingListener bEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.MUTUAL), aEvents, 1);
             NetNode b = NetNode.start(config("b", Security.MUTUAL), bEvents, 1);
             NetNode c = NetNode.start(config("c", Security.MUTUAL), new RecordingListener(), 1)) {
            exchange(a, aEvents, b, bEvents);
            InetSocketAddress address = a.listen(LOOPBACK);
            assertThatThrownBy(() -> c.connect(address).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
            assertThat(aEvents.ups.poll(500, TimeUnit.MILLISECONDS)).isNull();
        }
    }

    /**
     * An operator connecting to many hosts of one process (a site agent's switches) presents the
     * same chain to each: it is validated once for the process, not once per host, and a chain
     * from another CA is still refused.
     */
    @Test
    void mutualTlsValidatesEachDistinctChainOnceForTheProcessAndStillRefusesStrangers() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(state.resolve("ca"), "test CA");
        for (String host : List.of("operator", "s1", "s2", "s3")) {
            ca.issueHost(host, Set.of(), state.resolve(host));
        }
        CertificateAuthority.create(state.resolve("rogue-ca"), "rogue CA")
                .issueHost("mallory", Set.of(), state.resolve("mallory"));
        int before = VerifiedChains.remembered();
        try (NetNode operator = NetNode.start(config("operator", Security.MUTUAL), new RecordingListener(), 1);
             NetNode s1 = NetNode.start(config("s1", Security.MUTUAL), new RecordingListener(), 1);
             NetNode s2 = NetNode.start(config("s2", Security.MUTUAL), new RecordingListener(), 1);
             NetNode s3 = NetNode.start(config("s3", Security.MUTUAL), new RecordingListener(), 1);
             NetNode mallory = NetNode.start(config("mallory", Security.MUTUAL), new RecordingListener(), 1)) {
            for (NetNode service : List.of(s1, s2, s3)) {
                assertThat(operator.connect(service.listen(LOOPBACK)).get(10, TimeUnit.SECONDS).hostId())
                        .isEqualTo(service.config().hostId());
            }
            assertThat(VerifiedChains.remembered() - before)
                    .as("the three services' chains, and the operator's chain once for all three").isEqualTo(4);

            InetSocketAddress s1Again = s1.listen(LOOPBACK);
            assertThatThrownBy(() -> mallory.connect(s1Again).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
            assertThat(VerifiedChains.remembered() - before).as("nothing remembered of a refused chain").isEqualTo(4);
        }
    }

    @Test
    void mutualTlsRefusesAHostIdOtherThanTheCertificateNames() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(state.resolve("ca"), "test CA");
        ca.issueHost("a", Set.of(), state.resolve("a"));
        ca.issueHost("b", Set.of(), state.resolve("b"));
        RecordingListener aEvents = new RecordingListener();
        // Host "mallory" presents b's valid certificate.
        NetConfig mallory = NetConfig.defaults("mallory", state.resolve("b")).withSecurity(Security.MUTUAL);
        try (NetNode a = NetNode.start(config("a", Security.MUTUAL), aEvents, 1);
             NetNode m = NetNode.start(mallory, new RecordingListener(), 1)) {
            InetSocketAddress address = a.listen(LOOPBACK);
            assertThatThrownBy(() -> m.connect(address).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
            assertThat(aEvents.ups).isEmpty();
        }
    }

    @Test
    void mutualTlsRefusesAPeerWhoseCertificateLacksAnAcceptedRole() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(state.resolve("ca"), "test CA");
        ca.issueHost("a", Set.of("service"), state.resolve("a"));
        ca.issueHost("reader", Set.of("read"), state.resolve("reader"));
        ca.issueHost("changer", Set.of("change"), state.resolve("changer"));
        RecordingListener aEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.MUTUAL).withAcceptedRoles(Set.of("change")), aEvents, 1);
             NetNode reader = NetNode.start(config("reader", Security.MUTUAL), new RecordingListener(), 1);
             NetNode changer = NetNode.start(config("changer", Security.MUTUAL), new RecordingListener(), 1)) {
            InetSocketAddress address = a.listen(LOOPBACK);
            // The acceptor answers only a peer it accepts, so the refused dialer never sees a link come up.
            assertThatThrownBy(() -> reader.connect(address).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
            assertThat(aEvents.ups.poll(500, TimeUnit.MILLISECONDS)).isNull();
            PeerLink link = changer.connect(address).get(10, TimeUnit.SECONDS);
            assertThat(link.identity()).isEqualTo(new PeerIdentity("a", "a", Set.of("service"), true));
            assertThat(aEvents.nextUp().identity()).isEqualTo(
                    new PeerIdentity("changer", "changer", Set.of("change"), true));
        }
    }

    @Test
    void oneCertifiedIdentityRunsAsSeveralHostsAtOnce() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(state.resolve("ca"), "test CA");
        ca.issueHost("a", Set.of(), state.resolve("a"));
        ca.issueHost("op", Set.of("change"), state.resolve("op"));
        RecordingListener aEvents = new RecordingListener();
        NetConfig run1 = NetConfig.defaults("op~1", state.resolve("op")).withSecurity(Security.MUTUAL);
        NetConfig run2 = NetConfig.defaults("op~2", state.resolve("op")).withSecurity(Security.MUTUAL);
        try (NetNode a = NetNode.start(config("a", Security.MUTUAL), aEvents, 1);
             NetNode first = NetNode.start(run1, new RecordingListener(), 1);
             NetNode second = NetNode.start(run2, new RecordingListener(), 1)) {
            InetSocketAddress address = a.listen(LOOPBACK);
            first.connect(address).get(10, TimeUnit.SECONDS);
            second.connect(address).get(10, TimeUnit.SECONDS);
            assertThat(aEvents.nextUp().identity()).isEqualTo(new PeerIdentity("op~1", "op", Set.of("change"), true));
            assertThat(aEvents.nextUp().identity()).isEqualTo(new PeerIdentity("op~2", "op", Set.of("change"), true));
        }
    }

    @Test
    void trustOnFirstUsePinsAnIdentityOnceForAllItsRuns() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.SELF_SIGNED), aEvents, 1)) {
            InetSocketAddress address = a.listen(LOOPBACK);
            for (String run : new String[] {"op~1", "op~2"}) {
                NetConfig config = NetConfig.defaults(run, state.resolve("op")).withHeartbeat(500, 5_000);
                try (NetNode op = NetNode.start(config, new RecordingListener(), 1)) {
                    op.connect(address).get(10, TimeUnit.SECONDS);
                    assertThat(aEvents.nextUp().identity().certified()).isFalse();
                }
            }
        }
        assertThat(Files.readAllLines(state.resolve("a").resolve(PeerPins.FILE))).singleElement()
                .satisfies(line -> assertThat(line).startsWith("op "));
    }

    @Test
    void mutualTlsWithoutIssuedCertificateSaysWhatToDo() {
        assertThatThrownBy(() -> NetNode.start(config("a", Security.MUTUAL), new RecordingListener(), 1))
                .hasMessageContaining("CertificateAuthorityCommand issue");
    }

    @Test
    void rawSocketGarbageCostsOnlyItsOwnConnection() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        RecordingListener bEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.INSECURE), aEvents, 1);
             NetNode b = NetNode.start(config("b", Security.INSECURE), bEvents, 1)) {
            InetSocketAddress address = a.listen(LOOPBACK);
            PeerLink good = b.connect(address).get(10, TimeUnit.SECONDS);
            aEvents.nextUp();
            assertThat(sendRawAndAwaitClose(address, Frames.frames(Frames.hello("raw"), Frames.open(0, "raw")),
                    new byte[] {5, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}))
                    .isEqualTo(-1);
            assertThat(aEvents.nextDown()).startsWith("raw: undecodable frame");
            assertThat(sendRawAndAwaitClose(address, Frames.frames(Frames.hello("raw2"), Frames.open(0, "raw2")),
                    Frames.lengthOnly(NetConfig.DEFAULT_MAX_FRAME_BYTES + 1))).isEqualTo(-1);
            assertThat(aEvents.nextDown()).startsWith("raw2: oversize frame");
            assertThat(sendRawAndAwaitClose(address, "GET / HTTP/1.1\r\n\r\n".getBytes())).isEqualTo(-1);
            good.send(named("still here"));
            assertThat(aEvents.nextMessage()).isEqualTo(named("still here"));
            assertThat(good.isActive()).isTrue();
        }
    }

    @Test
    void rawSocketThatFallsSilentIsDroppedByHeartbeatTimeout() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        NetConfig quick = config("a", Security.INSECURE).withHeartbeat(200, 1_000);
        try (NetNode a = NetNode.start(quick, aEvents, 1)) {
            InetSocketAddress address = a.listen(LOOPBACK);
            try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
                socket.getOutputStream().write(Frames.frames(Frames.hello("mute"), Frames.open(0, "mute")));
                assertThat(aEvents.nextDown()).isEqualTo("mute: no frame from peer for 1000 ms (heartbeat timeout)");
            }
        }
    }

    @Test
    void closingALinkReportsItDownOnBothSidesAndTheConnectionCarriesTheNextOne() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        RecordingListener bEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.SELF_SIGNED), aEvents, 1);
             NetNode b = NetNode.start(config("b", Security.SELF_SIGNED), bEvents, 1)) {
            InetSocketAddress address = a.listen(LOOPBACK);
            PeerLink link = b.connect(address).get(10, TimeUnit.SECONDS);
            aEvents.nextUp();
            link.close("test closes the idle link");
            assertThat(bEvents.nextDown()).isEqualTo("a: test closes the idle link");
            assertThat(aEvents.nextDown()).isEqualTo("b: closed by peer: test closes the idle link");
            PeerLink again = b.connect(address).get(10, TimeUnit.SECONDS);
            assertThat(again.connection()).as("the same connection, no second handshake").isSameAs(link.connection());
            again.send(named("over the new link"));
            assertThat(aEvents.nextMessage()).isEqualTo(named("over the new link"));
        }
    }

    @Test
    void closingAConnectionReportsEveryLinkOnItDownOnBothSides() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        RecordingListener bEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.SELF_SIGNED), aEvents, 1);
             NetNode b = NetNode.start(config("b", Security.SELF_SIGNED), bEvents, 1)) {
            PeerLink link = b.connect(a.listen(LOOPBACK)).get(10, TimeUnit.SECONDS);
            aEvents.nextUp();
            Links.close(link.connection().channel(), "test closes the idle connection");
            assertThat(bEvents.nextDown()).isEqualTo("a: test closes the idle connection");
            assertThat(aEvents.nextDown()).isEqualTo("b: connection closed by peer");
        }
    }

    /** Writes {@code chunks} to a fresh socket and returns what read() gives once the node reacts. */
    private static int sendRawAndAwaitClose(InetSocketAddress address, byte[]... chunks) throws Exception {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            for (byte[] chunk : chunks) {
                out.write(chunk);
            }
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[256];
            int read;
            do {
                read = in.read(buffer);
            } while (read > 0);
            return read;
        }
    }

    @Test
    void messagesSentFromAnotherThreadAndFromTheIoThreadArriveInSendingOrder() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.INSECURE), aEvents, 1);
             NetNode b = NetNode.start(config("b", Security.INSECURE), new RecordingListener(), 1)) {
            PeerLink fromB = b.connect(a.listen(LOOPBACK)).get(10, TimeUnit.SECONDS);
            CountDownLatch firstSent = new CountDownLatch(1);
            // The I/O thread sends its message only after this thread sent the first:
            // the order the host's lock gives sends, which the wire must keep.
            fromB.connection().channel().eventLoop().execute(() -> {
                awaitQuietly(firstSent);
                fromB.send(named("second, from the I/O thread"));
            });
            fromB.send(named("first, from another thread"));
            firstSent.countDown();
            assertThat(aEvents.nextMessage()).isEqualTo(named("first, from another thread"));
            assertThat(aEvents.nextMessage()).isEqualTo(named("second, from the I/O thread"));
        }
    }

    @Test
    void burstOfMessagesLeavesInOneTlsRecord() throws Exception {
        RecordingListener aEvents = new RecordingListener();
        try (NetNode a = NetNode.start(config("a", Security.SELF_SIGNED), aEvents, 1);
             NetNode b = NetNode.start(config("b", Security.SELF_SIGNED), new RecordingListener(), 1)) {
            PeerLink fromB = b.connect(a.listen(LOOPBACK)).get(10, TimeUnit.SECONDS);
            aEvents.nextUp();
            CountDownLatch burstQueued = new CountDownLatch(1);
            fromB.connection().channel().eventLoop().execute(() -> awaitQuietly(burstQueued));
            long before = b.traffic().bytesWritten();
            int plaintextBytes = 0;
            for (int i = 0; i < BURST; i++) {
                Frame frame = named("message " + i);
                plaintextBytes += CodedOutputStream.computeUInt32SizeNoTag(frame.getSerializedSize())
                        + frame.getSerializedSize();
                fromB.send(frame);
            }
            burstQueued.countDown();
            for (int i = 0; i < BURST; i++) {
                assertThat(aEvents.nextMessage()).isEqualTo(named("message " + i));
            }
            // One record costs 22 bytes (header, content type, tag); a record per message
            // would add BURST of them. A margin of two more allows for a heartbeat.
            assertThat(b.traffic().bytesWritten() - before).isLessThanOrEqualTo(plaintextBytes + 3 * TLS_RECORD_BYTES);
        }
    }

    private static final int BURST = 20;
    private static final int TLS_RECORD_BYTES = 22;

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the test thread did not send within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
