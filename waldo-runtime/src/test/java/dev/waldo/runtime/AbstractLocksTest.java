package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.testing.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Claret's abstract locks through a real host: commuting updates of
 * concurrent transactions hold a variable together and both count, reads see
 * the transaction's own deltas, and a read of the whole value still waits for
 * concurrent adders.
 */
class AbstractLocksTest {
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final Host host = Host.inMemory(network, "h");
    private final Node node = Node.create(host);
    private final ExecutorService threads = Executors.newFixedThreadPool(8);

    @AfterEach
    void close() {
        threads.shutdownNow();
        network.close();
    }

    /** Runs {@code body} as a transaction on another thread that holds its locks until {@code release} opens. */
    private Future<?> held(String name, Latch holding, Latch release, TxnBody<Object> body) {
        return threads.submit(() -> node.atomically(name, ctx -> {
            body.run(ctx);
            holding.open();
            release.await();
            return null;
        }));
    }

    @Test
    void twoOpenTransactionsAddToOneCounterAndBothCount() {
        Latch holding = new Latch("the first adder holding x");
        Latch release = new Latch("release");
        Future<?> first = held("first", holding, release, ctx -> {
            node.x.add(ctx, 5);
            return null;
        });
        holding.await();
        // The first adder is still open: the second shares the ADD lock and commits before it.
        node.atomically("second", ctx -> {
            node.x.add(ctx, 2);
            node.x.add(ctx, -1);
            return null;
        });
        assertThat(host.waitingLockRequests()).isZero();
        release.open();
        Latch.get(first);
        assertThat(node.x.committed()).isEqualTo(6.0);
    }

    /**
     * By default appends do not share (strict serializability, see Host.useSharedAppends): the
     * second appender waits for the open first one, and the list holds both in commit order.
     */
    @Test
    void aSecondAppenderWaitsForTheOpenFirstByDefault() {
        Latch release = new Latch("release");
        Future<?> first = firstAppenderHoldingTheLog(release);
        Future<?> second = threads.submit(() -> appendSecond());
        Awaiting.until(() -> host.waitingLockRequests() == 1, "the second appender waits for the first");
        release.open();
        Latch.get(first);
        Latch.get(second);
        assertThat(node.log.committed()).containsExactly("first", "second");
    }

    /**
     * With shared appends (see LockMode): a second appender commits while the first is still
     * open, and the list holds both elements in commit order.
     */
    @Test
    void withSharedAppendsASecondAppenderCommitsWhileTheFirstIsOpen() {
        host.useSharedAppends(true);
        Latch release = new Latch("release");
        Future<?> first = firstAppenderHoldingTheLog(release);
        appendSecond();
        assertThat(host.waitingLockRequests()).isZero();
        assertThat(node.log.committed()).containsExactly("second");
        release.open();
        Latch.get(first);
        assertThat(node.log.committed()).containsExactly("second", "first");
    }

    /**
     * With shared appends between hosts whose clocks may be 300 ms apart, a commit waits that long
     * past its stamp before anyone hears of it (Spanner's commit wait), then commits as usual.
     */
    @Test
    void withClockUncertaintyACommitWaitsThatLongBeforeItIsSeen() {
        host.useSharedAppends(java.time.Duration.ofMillis(300));
        long started = System.nanoTime();
        appendSecond();
        assertThat(System.nanoTime() - started).as("nanoseconds until the commit returned")
                .isGreaterThanOrEqualTo(300_000_000L);
        assertThat(node.log.committed()).containsExactly("second");
    }

    /**
     * Two hosts that share appends with clocks up to 30 ms apart: a two-host sequence (it adds to x
     * on both and appends to a's log) waits that long at its commit, and concurrent ones all commit
     * once their waits ended.
     */
    @Test
    void withClockUncertaintyConcurrentTwoHostTransactionsAllCommitAfterTheirWait() {
        Host a = Host.inMemory(network, "a");
        Host b = Host.inMemory(network, "b");
        a.useSharedAppends(java.time.Duration.ofMillis(30));
        b.useSharedAppends(java.time.Duration.ofMillis(30));
        Host.Connection<Node, Node> pair = a.connect(Node::create, b, Node::create);
        long started = System.nanoTime();
        pair.local().bump(1);
        assertThat(System.nanoTime() - started).as("nanoseconds until the commit returned")
                .isGreaterThanOrEqualTo(30_000_000L);
        List<Future<?>> bumpers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            bumpers.add(threads.submit(() -> {
                for (int i = 0; i < 5; i++) {
                    pair.local().bump(1);
                }
            }));
        }
        bumpers.forEach(Latch::get);
        assertThat(pair.local().x.committed()).isEqualTo(21.0);
        assertThat(pair.remote().x.committed()).isEqualTo(21.0);
        assertThat(pair.local().log.committed()).hasSize(21);
    }

    /** Starts a transaction that appends "first" to the log and stays open until {@code release}. */
    private Future<?> firstAppenderHoldingTheLog(Latch release) {
        Latch holding = new Latch("the first appender holding log");
        Future<?> first = held("first", holding, release, ctx -> {
            node.log.append(ctx, "first");
            return null;
        });
        holding.await();
        return first;
    }

    /** Appends "second" to the log in a transaction of its own. */
    private Object appendSecond() {
        return node.atomically("second", ctx -> {
            node.log.append(ctx, "second");
            return null;
        });
    }

    @Test
    void aReadAfterAnAddSeesTheTransactionsOwnDelta() {
        node.atomically("set", ctx -> {
            node.x.set(ctx, 10.0);
            return null;
        });
        double seen = node.atomically("add then read", ctx -> {
            node.x.add(ctx, 3);
            double read = node.x.read(ctx);
            node.x.add(ctx, 1);
            return read;
        });
        assertThat(seen).isEqualTo(13.0);
        assertThat(node.x.committed()).isEqualTo(14.0);
    }

    @Test
    void aReadOfTheWholeValueWaitsForAnOpenAdder() {
        Latch holding = new Latch("the adder holding x");
        Latch release = new Latch("release");
        Future<?> adder = held("adder", holding, release, ctx -> {
            node.x.add(ctx, 1);
            return null;
        });
        holding.await();
        Future<Double> reader = threads.submit(() -> node.atomically("reader", ctx -> node.x.read(ctx)));
        Awaiting.until(() -> host.waitingLockRequests() == 1, "the reader waits for the adder");
        release.open();
        Latch.get(adder);
        assertThat(Latch.get(reader)).isEqualTo(1.0);
    }

    @Test
    void mapKeysTakeAdditionsTogetherAndAnAdditionToAMissingKeyFails() {
        node.atomically("keys", ctx -> {
            node.table.put(ctx, "hot", 1.0);
            return null;
        });
        List<Future<?>> adders = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            adders.add(threads.submit(() -> {
                for (int i = 0; i < 100; i++) {
                    node.atomically("add", ctx -> {
                        node.table.addAt(ctx, "hot", 1);
                        return null;
                    });
                }
            }));
        }
        adders.forEach(Latch::get);
        assertThat(node.table.committed().get("hot")).isEqualTo(801.0);
        assertThatThrownBy(() -> node.atomically("missing", ctx -> {
            node.table.addAt(ctx, "cold", 1);
            return null;
        })).hasMessageContaining("missing map key cold in table");
    }

    @Test
    void aWholeMapReadAfterAKeyAdditionSeesItAndAnotherKeysWriterIsNotHeldUp() {
        node.atomically("keys", ctx -> {
            node.table.put(ctx, "a", 1.0);
            node.table.put(ctx, "b", 1.0);
            return null;
        });
        Latch holding = new Latch("the adder holding key a");
        Latch release = new Latch("release");
        Future<?> adder = held("adder", holding, release, ctx -> {
            node.table.addAt(ctx, "a", 2);
            return null;
        });
        holding.await();
        node.atomically("other key", ctx -> {
            node.table.put(ctx, "b", 5.0);
            return null;
        });
        release.open();
        Latch.get(adder);
        double sum = node.atomically("add then read all", ctx -> {
            node.table.addAt(ctx, "a", 10);
            double total = 0;
            for (double value : node.table.whole(ctx).values()) {
                total += value;
            }
            return total;
        });
        assertThat(sum).isEqualTo(18.0);
        assertThat(node.table.committed()).containsEntry("a", 13.0).containsEntry("b", 5.0);
    }

    @Test
    void withAbstractLocksOffUpdatesStillCountExactly() {
        host.useAbstractLocks(false);
        List<Future<?>> adders = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            adders.add(threads.submit(() -> {
                for (int i = 0; i < 50; i++) {
                    node.atomically("add", ctx -> {
                        node.x.add(ctx, 1);
                        node.log.append(ctx, "a");
                        return null;
                    });
                }
            }));
        }
        adders.forEach(Latch::get);
        assertThat(node.x.committed()).isEqualTo(200.0);
        assertThat(node.log.committed()).hasSize(200);
    }

    @Test
    void readersShareAVariable() {
        Latch holding = new Latch("the first reader holding x");
        Latch release = new Latch("release");
        Future<?> first = held("first", holding, release, ctx -> node.x.read(ctx));
        holding.await();
        double seen = node.atomically("second", ctx -> node.x.read(ctx));
        assertThat(seen).isEqualTo(0.0);
        release.open();
        Latch.get(first);
        assertThat(host.waitingLockRequests()).isZero();
    }
}
