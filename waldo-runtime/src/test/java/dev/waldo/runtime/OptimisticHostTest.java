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
 * until it commits, concurrent read-modify-writes lose no update on one host or across two,
 * and an optimistic host and a locking one serve one transaction together.
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
