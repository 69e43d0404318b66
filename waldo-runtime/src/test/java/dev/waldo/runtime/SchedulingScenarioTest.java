package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.core.Priority;
import dev.waldo.runtime.core.TxnId;
import dev.waldo.runtime.testing.Node;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Wound-wait, primaries and prepared transactions, set up step by step with latches. */
class SchedulingScenarioTest {
    private InMemoryNetwork network;
    private Host h1;
    private Host h2;
    private Host h3;
    private Node a;
    private Node b;
    private Node c;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        h1 = Host.inMemory(network, "h1");
        h2 = Host.inMemory(network, "h2");
        h3 = Host.inMemory(network, "h3");
        Host.Connection<Node, Node> pair = h1.connect(Node::create, h2, Node::create);
        a = pair.local();
        b = pair.remote();
        c = Node.create(h3);
    }

    @AfterEach
    void close() {
        threads.shutdownNow();
        network.close();
    }

    /** What happened to the younger transaction in {@link #woundYoungerHolderBlockedOnAnotherHost}. */
    private record WoundRun(int olderAttempts, int youngerAttempts, List<TxnId> youngerIds,
                            List<Priority> youngerPriorities, boolean olderCommittedWhileOldestHeld) {
    }

    /**
     * T0 (oldest) holds c.z on h3 until released. T1 (youngest) takes b.x on
     * h2 and then waits for c.z on h3. T2 (between them) asks for b.x: it
     * must wound T1, and the wound must reach T1's wait on h3.
     */
    private WoundRun woundYoungerHolderBlockedOnAnotherHost() {
        Latch t0Holds = new Latch("T0 holds c.z");
        Latch releaseT0 = new Latch("T0 released");
        Latch t2Started = new Latch("T2 started");
        Latch t1HoldsX = new Latch("T1 holds b.x");
        Latch t1Retried = new Latch("T1's second attempt started");
        AtomicInteger t1Attempts = new AtomicInteger();
        AtomicInteger t2Attempts = new AtomicInteger();
        List<TxnId> t1Ids = new CopyOnWriteArrayList<>();
        List<Priority> t1Priorities = new CopyOnWriteArrayList<>();

        Future<?> t0 = threads.submit(() -> a.atomically("t0", ctx -> {
            ctx.call(c.ref(), "add", "z", 1.0);
            t0Holds.open();
            releaseT0.await();
            return null;
        }));
        t0Holds.await();
        Future<?> t2 = threads.submit(() -> a.atomically("t2", ctx -> {
            t2Attempts.incrementAndGet();
            t2Started.open();
            t1HoldsX.await();
            return ctx.call(b.ref(), "add", "x", 1.0);
        }));
        t2Started.await();
        Future<?> t1 = threads.submit(() -> a.atomically("t1", ctx -> {
            int attempt = t1Attempts.incrementAndGet();
            t1Ids.add(Host.attemptOf(ctx));
            t1Priorities.add(h1.priorityOf(ctx));
            // Only now may the test release T0: its commit promotes T1 to primary with a new
            // timestamp, which must not be what the second attempt records as its own.
            if (attempt == 2) {
                t1Retried.open();
            }
            ctx.call(b.ref(), "add", "x", 10.0);
            t1HoldsX.open();
            return ctx.call(c.ref(), "add", "z", 10.0);
        }));
        Latch.get(t2);
        boolean olderCommittedWhileOldestHeld = !releaseT0.isOpen();
        // T0 is the endpoint's primary; while it runs, T1 stays a standard in both attempts.
        t1Retried.await();
        releaseT0.open();
        Latch.get(t0);
        Latch.get(t1);
        assertThat(b.committedValue("x")).isEqualTo(11.0);
        assertThat(c.committedValue("z")).isEqualTo(11.0);
        assertIdle();
        return new WoundRun(t2Attempts.get(), t1Attempts.get(), t1Ids, t1Priorities, olderCommittedWhileOldestHeld);
    }

    @Test
    void olderTransactionWoundsAYoungerHolderEvenWhileItWaitsOnAnotherHost() {
        WoundRun run = woundYoungerHolderBlockedOnAnotherHost();
        assertThat(run.olderCommittedWhileOldestHeld()).isTrue();
        assertThat(run.olderAttempts()).isEqualTo(1);
        assertThat(run.youngerAttempts()).isEqualTo(2);
    }

    @Test
    void retryKeepsTheOriginalTimestampUnderANewAttemptId() {
        WoundRun run = woundYoungerHolderBlockedOnAnotherHost();
        assertThat(run.youngerIds()).hasSize(2).doesNotHaveDuplicates();
        assertThat(run.youngerPriorities()).hasSize(2);
        assertThat(run.youngerPriorities().get(1).timestamp()).isEqualTo(run.youngerPriorities().get(0).timestamp());
    }

    @Test
    void preparedTransactionIsNeverWounded() {
        Latch t1Preparing = new Latch("T1 preparing");
        Latch releasePrepare = new Latch("prepare released");
        RecordingBinding binding = new RecordingBinding() {
            @Override
            public Vote prepare(BoundTransaction transaction) {
                super.prepare(transaction);
                t1Preparing.open();
                releasePrepare.await();
                return Vote.yes();
            }
        };
        h2.bind("test", binding);
        Latch t2Started = new Latch("T2 started");
        AtomicInteger t1Attempts = new AtomicInteger();
        AtomicInteger t2Attempts = new AtomicInteger();
        Future<?> t2 = threads.submit(() -> a.atomically("older", ctx -> {
            t2Attempts.incrementAndGet();
            t2Started.open();
            t1Preparing.await();
            return ctx.call(b.ref(), "add", "bound", 1.0);
        }));
        t2Started.await();
        Future<?> t1 = threads.submit(() -> a.atomically("younger", ctx -> {
            t1Attempts.incrementAndGet();
            return ctx.call(b.ref(), "add", "bound", 10.0);
        }));
        t1Preparing.await();
        Awaiting.until(() -> h2.waitingLockRequests() == 1, "the older transaction waits for b.bound");
        releasePrepare.open();
        Latch.get(t1);
        Latch.get(t2);
        assertThat(t1Attempts).hasValue(1);
        assertThat(t2Attempts).hasValue(1);
        assertThat(b.committedValue("bound")).isEqualTo(11.0);
        assertThat(binding.events()).containsExactly(
                "prepare bound 0->10", "commit bound 0->10",
                "prepare bound 10->11", "commit bound 10->11");
    }

    @Test
    void primaryBeatsAnOlderStandardTransaction() {
        Node p = Node.create(h1);
        Node s = Node.create(h1);
        Latch s0Holds = new Latch("S0 holds c.z");
        Latch releaseS0 = new Latch("S0 released");
        Latch sHoldsX = new Latch("S holds c.x");
        AtomicInteger sAttempts = new AtomicInteger();
        List<Priority> sPriorities = new CopyOnWriteArrayList<>();
        // S0 is s's oldest outstanding transaction, so s's primary; it holds c.z until released.
        Future<?> s0 = threads.submit(() -> s.atomically("s0", ctx -> {
            ctx.call(c.ref(), "add", "z", 1.0);
            s0Holds.open();
            releaseS0.await();
            return null;
        }));
        s0Holds.await();
        // S is a standard: it takes c.x, then waits behind the primary S0 for c.z.
        Future<?> sFuture = threads.submit(() -> s.atomically("s", ctx -> {
            sAttempts.incrementAndGet();
            sPriorities.add(h1.priorityOf(ctx));
            ctx.call(c.ref(), "add", "x", 1.0);
            sHoldsX.open();
            return ctx.call(c.ref(), "add", "z", 1.0);
        }));
        sHoldsX.await();
        // A commit on p after S started makes p's next primary younger than S by timestamp.
        p.add("y", 1);
        List<Priority> pPriority = new CopyOnWriteArrayList<>();
        p.atomically("p", ctx -> {
            pPriority.add(h1.priorityOf(ctx));
            return ctx.call(c.ref(), "add", "x", 100.0);
        });
        assertThat(releaseS0.isOpen()).isFalse();
        releaseS0.open();
        Latch.get(s0);
        Latch.get(sFuture);
        assertThat(pPriority.get(0).primary()).isTrue();
        assertThat(sPriorities.get(0).primary()).isFalse();
        assertThat(pPriority.get(0).timestamp()).isGreaterThan(sPriorities.get(0).timestamp());
        assertThat(sAttempts).hasValue(2);
        assertThat(c.committedValue("x")).isEqualTo(101.0);
        assertIdle();
    }

    @Test
    void perKeyMapLocksDoNotConflictAcrossKeysButTheWholeMapWaits() {
        Latch k1Held = new Latch("k1 held");
        Latch releaseK1 = new Latch("k1 released");
        Future<?> holder = threads.submit(() -> a.atomically("k1", ctx -> {
            a.table.put(ctx, "k1", 1.0);
            k1Held.open();
            releaseK1.await();
            return null;
        }));
        k1Held.await();
        a.atomically("k2", ctx -> {
            a.table.put(ctx, "k2", 2.0);
            return null;
        });
        assertThat(a.table.committed()).containsOnlyKeys("k2");
        Future<Integer> whole = threads.submit(() -> a.atomically("size", ctx -> a.table.size(ctx)));
        Awaiting.until(() -> h1.waitingLockRequests() == 1, "the whole-map reader waits for k1");
        releaseK1.open();
        Latch.get(holder);
        assertThat(Latch.get(whole)).isEqualTo(2);
    }

    @Test
    void backoutReleasesLocksOnEveryHost() {
        c.define("fail", (ctx, args) -> {
            throw new ApplicationException("refused");
        });
        for (int i = 0; i < 3; i++) {
            try {
                a.atomically("touchEverythingThenFail", ctx -> {
                    a.x.set(ctx, 1.0);
                    a.table.put(ctx, "k", 1.0);
                    ctx.call(b.ref(), "add", "x", 1.0);
                    ctx.call(c.ref(), "add", "z", 1.0);
                    return ctx.call(c.ref(), "fail");
                });
            } catch (ApplicationException expected) {
                assertThat(expected).hasMessage("refused");
            }
        }
        assertIdle();
        // The locks really are free: a transaction touching the same state commits.
        a.atomically("afterwards", ctx -> {
            a.x.set(ctx, 5.0);
            ctx.call(b.ref(), "add", "x", 5.0);
            return ctx.call(c.ref(), "add", "z", 5.0);
        });
        assertThat(b.committedValue("x")).isEqualTo(5.0);
        assertThat(c.committedValue("z")).isEqualTo(5.0);
    }

    private void assertIdle() {
        for (Host host : new Host[] {h1, h2, h3}) {
            Awaiting.until(() -> host.liveTransactions() == 0 && host.lockedVariables() == 0,
                    "host " + host.id() + " releases every lock");
        }
    }
}
