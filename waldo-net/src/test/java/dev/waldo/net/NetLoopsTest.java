package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static java.util.concurrent.TimeUnit.SECONDS;

import dev.waldo.net.testing.PeerEndpoint;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.core.StorageRecord;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.storage.Storage;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several hosts on one shared node and one shared I/O thread, as a site agent runs its switches'
 * hosts: one listening address, one connection per peer node, each host reached by its own id.
 */
class NetLoopsTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    @TempDir
    Path state;

    private NetConfig config(String id) {
        return NetConfig.defaults(id, state.resolve(id)).insecure().withHeartbeat(500, 5_000);
    }

    /** The agent's node: its own identity, speaking for the "switch-" hosts that live on it. */
    private NetNode agent(NetLoops loops) {
        return NetNode.shared(config("agent"), loops);
    }

    private NetHost shared(String id, NetNode node) {
        return NetHost.start(config(id), StructResolver.NONE, new InMemoryStorage(), node);
    }

    /** An operator that lets the agent speak for switches (as WaldoConf's inventory would). */
    private NetHost operator() {
        return NetHost.start(config("operator").withHostAuthority((node, host) ->
                node.name().equals("agent") && host.startsWith("switch-")));
    }

    @Test
    void hostsOfOneSharedNodeAreReachedByIdOverOneConnectionAndStartNoThreadsOfTheirOwn() throws Exception {
        try (NetLoops loops = NetLoops.create(1, "agent-io");
             NetNode node = agent(loops);
             NetHost a = shared("switch-a", node);
             NetHost b = shared("switch-b", node);
             NetHost operator = operator()) {
            InetSocketAddress address = node.listen(LOOPBACK);
            a.listen(address, PeerEndpoint::create, null);
            b.listen(address, PeerEndpoint::create, null);
            PeerEndpoint toA = operator.connect(address, "switch-a", "agent", PeerEndpoint::create);
            PeerEndpoint toB = operator.connect(address, "switch-b", "agent", PeerEndpoint::create);

            assertThat(toA.bump(2)).isEqualTo(4.0);
            assertThat(toB.bump(3)).isEqualTo(6.0);
            assertThat(toA.bump(1)).isEqualTo(3.0 + 3.0);
            PeerLink linkToA = operator.transport().link("switch-a");
            PeerLink linkToB = operator.transport().link("switch-b");
            assertThat(linkToA.connection()).as("one connection carries both hosts' links")
                    .isSameAs(linkToB.connection());
            assertThat(linkToA.identity().name()).isEqualTo("agent");
            assertThat(a.peer(operator.host().id())).get().extracting(PeerIdentity::name).isEqualTo("operator");
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                    .as("the shared hosts run on the agent's thread, not threads named after them")
                    .noneMatch(name -> name.startsWith("waldo-net-switch-"))
                    .anyMatch(name -> name.startsWith("agent-io"));
        }
    }

    @Test
    void connectingAgainToALinkedHostOfASharedNodeReusesItsLink() throws Exception {
        try (NetLoops loops = NetLoops.create(1, "agent-io");
             NetNode node = agent(loops);
             NetHost a = shared("switch-a", node);
             NetHost b = shared("switch-b", node);
             NetHost operator = operator()) {
            InetSocketAddress address = node.listen(LOOPBACK);
            a.listen(address, PeerEndpoint::create, null);
            b.listen(address, PeerEndpoint::create, null);
            operator.connect(address, "switch-a", "agent", PeerEndpoint::create);
            operator.connect(address, "switch-b", "agent", PeerEndpoint::create);
            PeerLink linkToA = operator.transport().link("switch-a");
            PeerLink linkToB = operator.transport().link("switch-b");

            assertThat(operator.transport().connect(address, "switch-b", "agent").get(10, SECONDS))
                    .isEqualTo("switch-b");
            assertThat(operator.transport().connect(address, "switch-a", null).get(10, SECONDS))
                    .isEqualTo("switch-a");

            assertThat(operator.transport().link("switch-a")).as("no second link").isSameAs(linkToA);
            assertThat(operator.transport().link("switch-b")).as("no second link").isSameAs(linkToB);
            assertThat(linkToA.isActive() && linkToB.isActive()).isTrue();
        }
    }

    @Test
    void aHostTheNodeDoesNotServeOrMayNotSpeakForIsRefusedAndTheConnectionStays() throws Exception {
        try (NetLoops loops = NetLoops.create(1, "agent-io");
             NetNode node = agent(loops);
             NetHost a = shared("switch-a", node);
             NetHost other = shared("other-c", node);
             NetHost operator = operator()) {
            InetSocketAddress address = node.listen(LOOPBACK);
            a.listen(address, PeerEndpoint::create, null);
            other.listen(address, PeerEndpoint::create, null);
            PeerEndpoint toA = operator.connect(address, "switch-a", "agent", PeerEndpoint::create);
            assertThatThrownBy(() -> operator.connect(address, "switch-z", "agent", PeerEndpoint::create))
                    .isInstanceOf(NetworkException.class).hasMessageContaining("no host switch-z at this address");
            assertThatThrownBy(() -> operator.connect(address, "switch-a", "someone-else", PeerEndpoint::create))
                    .isInstanceOf(WrongPeerException.class);
            // Named without the identity expected there, a host is linked only if the operator's
            // authority lets the agent speak for it: "other-c" is not a switch.
            assertThatThrownBy(() -> operator.transport().connect(address, "other-c", null).get(10, SECONDS))
                    .hasMessageContaining("node agent may not speak for host other-c");
            assertThat(toA.bump(1)).as("the connection still carries switch-a's link").isEqualTo(2.0);
        }
    }

    @Test
    void closingOneSharedHostEndsItsLinksAndLeavesTheOthersServing() throws Exception {
        try (NetLoops loops = NetLoops.create(1, "agent-io");
             NetNode node = agent(loops);
             NetHost b = shared("switch-b", node);
             NetHost operator = operator()) {
            NetHost a = shared("switch-a", node);
            InetSocketAddress address = node.listen(LOOPBACK);
            a.listen(address, PeerEndpoint::create, null);
            b.listen(address, PeerEndpoint::create, null);
            PeerEndpoint toA = operator.connect(address, "switch-a", "agent", PeerEndpoint::create);
            PeerEndpoint toB = operator.connect(address, "switch-b", "agent", PeerEndpoint::create);
            PeerLink linkToA = operator.transport().link("switch-a");
            assertThat(toA.bump(1)).isEqualTo(2.0);

            a.close();

            // A's link must go down at once (its host left the node), not at the heartbeat timeout,
            // while the connection, which B's link shares, stays up.
            long deadline = System.nanoTime() + SECONDS.toNanos(2);
            while (linkToA.isActive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(linkToA.isActive()).as("A's link is closed").isFalse();
            assertThat(linkToA.connection().isActive()).as("the shared connection stays").isTrue();
            assertThatThrownBy(() -> toA.bump(1)).isInstanceOf(NetworkException.class);
            assertThat(toB.bump(2)).as("B, on the same node, still commits").isEqualTo(4.0);
        }
    }

    /**
     * A host persists its vote before it answers; on a shared I/O thread that write must not stop
     * the other hosts on the thread (their transactions, their heartbeats). Host A's log blocks
     * until released; host B, on the same single thread, must still commit meanwhile.
     */
    @Test
    void aHostBlockedWritingItsLogDoesNotStallTheOtherHostsOnItsThread() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        InMemoryStorage memory = new InMemoryStorage();
        Storage blocking = new Storage() {
            @Override
            public List<StorageRecord> load() {
                return memory.load();
            }

            @Override
            public boolean hasEarlierRuns() {
                return memory.hasEarlierRuns();
            }

            @Override
            public void append(List<StorageRecord> records) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                memory.append(records);
            }

            @Override
            public void close() {
                memory.close();
            }
        };
        try (NetLoops loops = NetLoops.create(1, "agent-io");
             NetNode node = agent(loops);
             NetHost a = NetHost.start(config("switch-a"), StructResolver.NONE, blocking, node);
             NetHost b = shared("switch-b", node);
             NetHost operator = operator()) {
            InetSocketAddress address = node.listen(LOOPBACK);
            a.listen(address, PeerEndpoint::create, null);
            b.listen(address, PeerEndpoint::create, null);
            PeerEndpoint toA = operator.connect(address, "switch-a", "agent", PeerEndpoint::create);
            PeerEndpoint toB = operator.connect(address, "switch-b", "agent", PeerEndpoint::create);
            CompletableFuture<Double> onA = CompletableFuture.supplyAsync(() -> toA.bump(1));

            CompletableFuture<Double> onB = CompletableFuture.supplyAsync(() -> toB.bump(2));

            assertThat(onB).as("B commits while A is blocked in its log").succeedsWithin(Duration.ofSeconds(30))
                    .isEqualTo(4.0);
            assertThat(onA).as("A is still blocked").isNotDone();
            release.countDown();
            assertThat(onA).succeedsWithin(Duration.ofSeconds(30)).isEqualTo(2.0);
        } finally {
            release.countDown();
        }
    }

    /**
     * A host on several I/O threads of its own (an operator linked to many services) spreads its
     * links over them and still commits a transaction on each.
     */
    @Test
    void aHostWithSeveralIoThreadsOfItsOwnSpreadsItsLinksOverThemAndCommitsOnEach() throws Exception {
        try (NetHost a = NetHost.start(config("switch-a"));
             NetHost b = NetHost.start(config("switch-b"));
             NetHost c = NetHost.start(config("switch-c"));
             NetHost d = NetHost.start(config("switch-d"));
             NetHost operator = NetHost.start(config("operator").withIoThreads(2))) {
            List<NetHost> services = List.of(a, b, c, d);
            for (int i = 0; i < services.size(); i++) {
                PeerEndpoint desk = operator.connect(services.get(i).listen(LOOPBACK, PeerEndpoint::create, null),
                        PeerEndpoint::create);
                assertThat(desk.bump(i + 1)).as("a transaction on switch %d", i).isEqualTo(2.0 * (i + 1));
            }
            Set<Object> threads = new HashSet<>();
            for (String id : List.of("switch-a", "switch-b", "switch-c", "switch-d")) {
                threads.add(operator.transport().link(id).connection().channel().eventLoop());
            }
            assertThat(threads).as("I/O threads carrying the operator's four links").hasSize(2);
        }
    }

    /**
     * A shared host is in the loops' batch of ticks while its core may have timed work: it leaves
     * once a tick finds nothing timed, joins again when it wants ticks (its host says so when its
     * core is reached: QuietHostTest in waldo-runtime) and leaves when it no longer does, and
     * leaves for good when it closes.
     */
    @Test
    void aSharedHostIsTickedByTheLoopsBatchOnlyWhileItWantsTicks() throws Exception {
        try (NetLoops loops = NetLoops.create(1, "agent-io"); NetNode node = agent(loops)) {
            NetHost a = shared("switch-a", node);
            NetHost b = shared("switch-b", node);
            awaitTickers(loops, 0); // new hosts have nothing timed: their first tick takes them out
            a.transport().wantTicks(true);
            assertThat(loops.tickers()).as("a host that wants ticks again is back in the batch").isEqualTo(1);
            a.transport().wantTicks(false);
            assertThat(loops.tickers()).isZero();
            a.transport().wantTicks(true);
            a.close();
            assertThat(loops.tickers()).as("a closed host leaves the batch").isZero();
            b.transport().wantTicks(true);
            b.close();
            assertThat(loops.tickers()).isZero();
        }
    }

    private static void awaitTickers(NetLoops loops, int count) throws InterruptedException {
        long deadline = System.nanoTime() + SECONDS.toNanos(10);
        while (loops.tickers() != count) {
            assertThat(System.nanoTime()).as("the batch reached %d hosts within 10 s", count).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /**
     * The batch ticks every host on one thread: a tick that fails must not stop the others, and a
     * batch stuck in one tick must not let further batches start and pile up behind it.
     */
    @Test
    void aFailingTickStopsNoOtherAndAStuckBatchIsNotJoinedByMore() throws Exception {
        try (NetLoops loops = NetLoops.create(1, "agent-io")) {
            AtomicInteger counted = new AtomicInteger();
            loops.tickEvery(() -> {
                throw new IllegalStateException("a broken host's tick");
            });
            loops.tickEvery(counted::incrementAndGet);
            awaitAtLeast(counted, 3);

            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger stuckRuns = new AtomicInteger();
            loops.tickEvery(() -> {
                stuckRuns.incrementAndGet();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            awaitAtLeast(stuckRuns, 1);
            int whileStuck = counted.get();
            Thread.sleep(10 * NetTransport.TICK_MS);
            assertThat(stuckRuns.get()).as("batches started while one was stuck").isEqualTo(1);
            assertThat(counted.get()).as("ticks run while the batch was stuck").isLessThanOrEqualTo(whileStuck + 1);

            release.countDown();
            awaitAtLeast(stuckRuns, 2);
            awaitAtLeast(counted, whileStuck + 2);
        }
    }

    /** Waits, at most a minute, until {@code counter} reaches {@code least}. */
    private static void awaitAtLeast(AtomicInteger counter, int least) throws InterruptedException {
        for (int i = 0; i < 600 && counter.get() < least; i++) {
            Thread.sleep(100);
        }
        assertThat(counter.get()).isGreaterThanOrEqualTo(least);
    }

    @Test
    void refusesNoThreads() {
        assertThatThrownBy(() -> NetLoops.create(0, "none")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one I/O thread");
    }
}
