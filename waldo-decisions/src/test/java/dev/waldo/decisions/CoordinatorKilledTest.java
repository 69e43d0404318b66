package dev.waldo.decisions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.DecisionRegister;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.testing.Node;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12's test: the coordinator is killed after every participant voted yes, and every
 * participant reaches the decision from the replicated register, within a bound, although
 * the coordinator never comes back and the register's leader replica is stopped meanwhile.
 * Plain two-phase commit leaves them prepared, holding their locks, until the coordinator
 * returns (runtime's InDoubtTest).
 */
@Timeout(120)
class CoordinatorKilledTest {
    /** How long participants may take to learn the outcome: a few of the hosts' ticks and a Raft election. */
    private static final long BOUND_MS = 30_000;

    @TempDir
    Path dir;
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final List<AutoCloseable> open = new ArrayList<>();

    /** A binding that votes yes and records the outcome it is told. */
    private static final class OutcomeBinding implements Binding {
        final List<String> outcomes = new CopyOnWriteArrayList<>();

        @Override
        public Vote prepare(BoundTransaction transaction) {
            return Vote.yes();
        }

        @Override
        public void commit(BoundTransaction transaction) {
            outcomes.add("commit");
        }

        @Override
        public void abort(BoundTransaction transaction) {
            outcomes.add("abort");
        }
    }

    @AfterEach
    void close() throws Exception {
        network.close();
        for (AutoCloseable each : open.reversed()) {
            each.close();
        }
    }

    @Test
    void participantsLearnTheCommitFromTheRegisterWhenTheCoordinatorDiedAfterItSettled() throws Exception {
        LoopbackReplicas replicas = LoopbackReplicas.start(3, dir);
        open.add(replicas);
        Host[] coordinatorHost = new Host[1];
        java.util.concurrent.atomic.AtomicLong diedAt = new java.util.concurrent.atomic.AtomicLong();
        // The coordinator's register answer never reaches it: once the register settled the commit, the
        // replica that led it stops, and the coordinator's host dies, before it could tell anyone.
        DecisionRegister dying = new DecisionRegister() {
            final RatisDecisionRegister inner = register(replicas);

            @Override
            public CompletableFuture<Long> settle(String attempt, long commitStamp) {
                // Off Ratis's own threads: stopping a replica from one of them would wait for itself.
                return inner.settle(attempt, commitStamp).thenApplyAsync(outcome -> {
                    if (commitStamp != 0) {
                        stopLeader(replicas);
                        coordinatorHost[0].close();
                        diedAt.set(System.nanoTime());
                    }
                    return outcome;
                }, work -> Thread.ofVirtual().start(work));
            }
        };
        coordinatorHost[0] = Host.inMemory(network, "coordinator", new InMemoryStorage(), dying);
        Host first = Host.inMemory(network, "first", new InMemoryStorage(), register(replicas));
        Host second = Host.inMemory(network, "second", new InMemoryStorage(), register(replicas));
        OutcomeBinding firstBinding = new OutcomeBinding();
        OutcomeBinding secondBinding = new OutcomeBinding();
        first.bind("test", firstBinding);
        second.bind("test", secondBinding);
        Host.Connection<Node, Node> pair = coordinatorHost[0].connect(Node::create, first, Node::create);
        Node coordinator = pair.local();
        Node one = pair.remote();
        Node two = Node.create(second);

        Thread.ofVirtual().start(() -> {
            try {
                coordinator.atomically("both", ctx -> {
                    ctx.call(one.ref(), "add", "bound", 7.0);
                    return ctx.call(two.ref(), "add", "bound", 7.0);
                });
            } catch (RuntimeException expected) {
                // The coordinator's host died under it.
            }
        });
        awaitWithin(() -> diedAt.get() != 0 && first.liveTransactions() == 0 && second.liveTransactions() == 0,
                "both participants learned the outcome from the register");
        System.out.printf("both participants learned the commit from the register %d ms after the coordinator died%n",
                (System.nanoTime() - diedAt.get()) / 1_000_000);
        assertThat(one.committedValue("bound")).isEqualTo(7.0);
        assertThat(two.committedValue("bound")).isEqualTo(7.0);
        awaitWithin(() -> firstBinding.outcomes.size() == 1 && secondBinding.outcomes.size() == 1,
                "both bindings heard the outcome");
        assertThat(firstBinding.outcomes).containsExactly("commit");
        assertThat(secondBinding.outcomes).containsExactly("commit");
        assertThat(first.lockedVariables() + second.lockedVariables()).isZero();
    }

    private static void stopLeader(LoopbackReplicas replicas) {
        try {
            replicas.stopReplica(replicas.leader());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private RatisDecisionRegister register(LoopbackReplicas replicas) {
        RatisDecisionRegister register = RatisDecisionRegister.connect(replicas.group);
        open.add(register);
        return register;
    }

    private static void awaitWithin(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + BOUND_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not within " + BOUND_MS + " ms: " + what);
            }
            Thread.sleep(20);
        }
    }
}
