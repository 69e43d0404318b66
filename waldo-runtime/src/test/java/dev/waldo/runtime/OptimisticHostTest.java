package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.testing.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Optimistic concurrency control ({@link Host#useOptimisticConcurrency}) through real hosts:
 * a transaction whose read was overwritten while it ran is refused at its vote and retried
 * until it commits, one refused three times locks on its fourth run (the pessimistic fallback),
 * concurrent read-modify-writes lose no update on one host or across two, and an optimistic
 * host and a locking one serve one transaction together.
 */
class OptimisticHostTest {
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final ExecutorService threads = Executors.newFixedThreadPool(8);

    @AfterEach
    void close() {
        threads.shutdownNow();
        network.close();
    }

    private Host optimisticHost(String name) {
        Host host = Host.inMemory(network, name);
        host.useOptimisticConcurrency();
        return host;
    }

    @Test
    void aTransactionWhoseReadWasOverwrittenIsRetriedAndCommits() {
        Node node = Node.create(optimisticHost("h"));
        AtomicInteger runs = new AtomicInteger();
        Latch read = new Latch("the slow transaction read x");
        Latch go = new Latch("the other transaction committed");
        Future<Double> slow = threads.submit(() -> node.atomically("slow", ctx -> {
            double seen = node.x.get(ctx);
            if (runs.incrementAndGet() == 1) {
                read.open();
                go.await();
            }
            node.x.set(ctx, seen + 10);
            return seen;
        }));
        read.await();
        // It takes no lock: under wound-wait this add would wait for (or wound) the open transaction.
        assertThat(node.add("x", 1)).isEqualTo(1.0);
        go.open();
        assertThat(Latch.get(slow)).as("what the committed attempt read").isEqualTo(1.0);
        assertThat(runs.get()).as("attempts of the slow transaction").isEqualTo(2);
        assertThat(node.x.committed()).isEqualTo(11.0);
    }

    /**
     * The fallback through a real host: a transaction whose read is overwritten by a short one
     * before each of its first three votes is refused three times; its fourth run locks x as it
     * reads it, so the next short writer waits for it instead of committing first, and it
     * commits what it read.
     */
    @Test
    void aTransactionRefusedThreeTimesLocksAndCommitsBeforeTheNextWriter() {
        Node node = Node.create(optimisticHost("h"));
        AtomicInteger runs = new AtomicInteger();
        List<Latch> read = new ArrayList<>();
        List<Latch> go = new ArrayList<>();
        for (int run = 1; run <= 4; run++) {
            read.add(new Latch("run " + run + " of the long transaction read x"));
            go.add(new Latch("run " + run + " of the long transaction may go on"));
        }
        Future<Double> slow = threads.submit(() -> node.atomically("slow", ctx -> {
            int run = runs.incrementAndGet();
            double seen = node.x.get(ctx);
            if (run <= 4) {
                read.get(run - 1).open();
                go.get(run - 1).await();
            }
            node.x.set(ctx, seen + 10);
            return seen;
        }));
        for (int run = 1; run <= 3; run++) {
            read.get(run - 1).await();
            assertThat(node.add("x", 1)).as("a short writer commits while run %d is open", run).isEqualTo(run);
            go.get(run - 1).open();
        }
        read.get(3).await();
        Future<Double> writer = threads.submit(() -> node.add("x", 1));
        Awaiting.until(() -> node.host().waitingLockRequests() == 1, "the short writer waits for the locked run");
        go.get(3).open();
        assertThat(Latch.get(slow)).as("what the committed fourth run read").isEqualTo(3.0);
        assertThat(Latch.get(writer)).as("the writer committed after it").isEqualTo(14.0);
        assertThat(runs.get()).as("runs of the long transaction").isEqualTo(4);
        assertThat(node.host().lockedVariables()).isZero();
    }

    @Test
    void concurrentIncrementsOnOneHostLoseNoUpdate() throws Exception {
        Node node = Node.create(optimisticHost("h"));
        List<Future<?>> adders = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            adders.add(threads.submit(() -> {
                for (int i = 0; i < 25; i++) {
                    node.add("x", 1);
                }
            }));
        }
        for (Future<?> adder : adders) {
            Latch.get(adder);
        }
        assertThat(node.x.committed()).isEqualTo(200.0);
        assertThat(node.host().lockedVariables()).isZero();
    }

    @Test
    void concurrentSequencesAcrossTwoOptimisticHostsLoseNoUpdate() {
        runBumps(optimisticHost("a"), optimisticHost("b"));
    }

    @Test
    void anOptimisticHostAndALockingHostServeOneTransactionTogether() {
        runBumps(optimisticHost("a"), Host.inMemory(network, "b"));
    }

    /** 4 threads × 10 bumps by 1 from a: each adds 1 to x on both sides. */
    private void runBumps(Host ha, Host hb) {
        Host.Connection<Node, Node> pair = ha.connect(Node::create, hb, Node::create);
        Node a = pair.local();
        Node b = pair.remote();
        List<Future<?>> bumpers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            bumpers.add(threads.submit(() -> {
                for (int i = 0; i < 10; i++) {
                    a.bump(1);
                }
            }));
        }
        for (Future<?> bumper : bumpers) {
            Latch.get(bumper);
        }
        assertThat(a.x.committed()).isEqualTo(40.0);
        assertThat(b.x.committed()).isEqualTo(40.0);
        assertThat(a.log.committed()).hasSize(40);
    }
}
