package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.testing.Node;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A binding whose abort takes its time, as a device's undo does: the test
 * holds the abort on a latch and looks at the host while the old value is not
 * back on the device yet.
 */
@Timeout(60)
class SlowBindingTest {
    private static final double OLD = 1.0;
    private static final double REFUSED = 99.0;

    private final InMemoryNetwork network = new InMemoryNetwork();
    private final ExecutorService callers = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        callers.shutdownNow();
        network.close();
    }

    /**
     * A device that holds one number for {@code @test} variables: load reads it,
     * prepare writes the new value (and votes no for {@link #REFUSED}, as a
     * device whose read-back failed after the write), abort writes the old value
     * back once the test lets it.
     */
    static final class SlowUndoDevice implements Binding {
        volatile double held = OLD;
        final List<Double> loads = new CopyOnWriteArrayList<>();
        final Latch abortStarted = new Latch("the binding's abort to start");
        final Latch abortMayFinish = new Latch("the test to let the abort finish");

        @Override
        public Object load(WaldoObject owner, String variable, Annotation annotation) {
            loads.add(held);
            return held;
        }

        @Override
        public Vote prepare(BoundTransaction transaction) {
            double after = (Double) transaction.changes().get(0).after();
            held = after;
            return after == REFUSED ? Vote.no("the device did not read back " + after) : Vote.yes();
        }

        @Override
        public void commit(BoundTransaction transaction) {
        }

        @Override
        public void abort(BoundTransaction transaction) {
            abortStarted.open();
            abortMayFinish.await();
            held = (Double) transaction.changes().get(0).before();
        }
    }

    private Future<Object> setBound(Node node, double value) {
        return callers.submit(() -> node.atomically("set", ctx -> {
            node.bound.set(ctx, value);
            return null;
        }));
    }

    @Test
    void anAttemptWhoseBindingIsStillUndoingItIsALiveTransaction() {
        Host host = Host.inMemory(network, "switch");
        SlowUndoDevice device = new SlowUndoDevice();
        host.bind("test", device);
        Node node = Node.create(host);

        Future<Object> refused = setBound(node, REFUSED);
        device.abortStarted.await();
        // Backed out in the core, but the device still holds the refused value: not idle yet.
        assertThat(host.liveTransactions()).isEqualTo(1);

        device.abortMayFinish.open();
        assertThatThrownBy(() -> Latch.get(refused)).isInstanceOf(TransactionAbortedException.class)
                .hasMessageContaining("did not read back");
        Awaiting.until(() -> host.liveTransactions() == 0, "the backed-out attempt is gone");
        assertThat(device.held).isEqualTo(OLD);
    }
}
