package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.testing.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Many threads running conflicting transactions through real hosts; every loop is bounded. */
class ConcurrencyTest {
    private InMemoryNetwork network;
    private Host h1;
    private Host h2;
    private Node a;
    private Node b;
    private ExecutorService threads;

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        h1 = Host.inMemory(network, "h1");
        h2 = Host.inMemory(network, "h2");
        Host.Connection<Node, Node> pair = h1.connect(Node::create, h2, Node::create);
        a = pair.local();
        b = pair.remote();
        threads = Executors.newFixedThreadPool(8);
    }

    @AfterEach
    void close() {
        threads.shutdownNow();
        network.close();
    }

    @Test
    void eightThreadsIncrementOneCounterThroughATwoStepSequenceExactly() throws Exception {
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            workers.add(threads.submit(() -> {
                for (int i = 0; i < 1_000; i++) {
                    a.bump(1);
                }
            }));
        }
        for (Future<?> worker : workers) {
            worker.get();
        }
        assertThat(a.committedValue("x")).isEqualTo(8_000.0);
        assertThat(b.committedValue("x")).isEqualTo(8_000.0);
        assertIdle();
    }

    @Test
    void transactionsLockingTheSameVariablesInOppositeOrdersAllFinish() throws Exception {
        // a.x then b.y, or b.y then a.x: a cycle under plain two-phase locking.
        a.define("addY", (ctx, args) -> ctx.call(b.ref(), "add", "y", 1.0));
        b.define("addX", (ctx, args) -> ctx.call(a.ref(), "add", "x", 1.0));
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            boolean forwards = t % 2 == 0;
            workers.add(threads.submit(() -> {
                for (int i = 0; i < 250; i++) {
                    if (forwards) {
                        a.atomically("forwards", ctx -> {
                            a.add$(ctx, "x", 1);
                            return ctx.call(b.ref(), "add", "y", 1.0);
                        });
                    } else {
                        b.atomically("backwards", ctx -> {
                            b.add$(ctx, "y", 1);
                            return ctx.call(a.ref(), "add", "x", 1.0);
                        });
                    }
                }
            }));
        }
        for (Future<?> worker : workers) {
            worker.get();
        }
        assertThat(a.committedValue("x")).isEqualTo(2_000.0);
        assertThat(b.committedValue("y")).isEqualTo(2_000.0);
        assertIdle();
    }

    @Test
    void oneLongTransactionCommitsAgainstAStreamOfShortConflictingOnes() throws Exception {
        Host h3 = Host.inMemory(network, "h3");
        Node longSide = Node.create(h3);
        Node shortSide = Node.create(h3);
        AtomicBoolean longCommitted = new AtomicBoolean();
        AtomicInteger shortCommits = new AtomicInteger();
        int cap = 200_000;
        List<Future<?>> stream = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            stream.add(threads.submit(() -> {
                for (int i = 0; i < cap && !longCommitted.get(); i++) {
                    shortSide.atomically("short", ctx -> ctx.call(b.ref(), "add", "x", 1.0));
                    shortCommits.incrementAndGet();
                }
            }));
        }
        AtomicInteger longAttempts = new AtomicInteger();
        Future<?> longOne = threads.submit(() -> longSide.atomically("long", ctx -> {
            longAttempts.incrementAndGet();
            // Touches the hot variable early, then works on for many round trips.
            ctx.call(b.ref(), "add", "x", 1_000_000.0);
            for (int i = 0; i < 50; i++) {
                ctx.call(b.ref(), "add", "y", 1.0);
            }
            return null;
        }));
        try {
            longOne.get(120, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException starved) {
            throw new AssertionError("the long transaction did not commit within the cap ("
                    + shortCommits.get() + " short ones did, " + longAttempts.get() + " attempts)");
        } finally {
            longCommitted.set(true);
        }
        for (Future<?> worker : stream) {
            worker.get();
        }
        assertThat(shortCommits.get()).as("the stream stopped because the long one committed").isLessThan(4 * cap);
        assertThat(b.committedValue("y")).isEqualTo(50.0);
        assertThat(b.committedValue("x")).isEqualTo(1_000_000.0 + shortCommits.get());
        assertIdle();
    }

    private void assertIdle() {
        for (Host host : new Host[] {h1, h2}) {
            Awaiting.until(() -> host.liveTransactions() == 0 && host.lockedVariables() == 0,
                    "host " + host.id() + " releases every lock");
        }
    }
}
