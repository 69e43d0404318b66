package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.testing.Node;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A served call that is its attempt's first work on a host, of code that waits only through the
 * runtime, runs on the thread that received it (the host's mailbox here); at its first wait it is
 * unwound and run again from the start on a thread of its own, with nothing of the unwound run
 * left behind: not its working state, not its changes to the call's arguments.
 */
class ReceivingThreadTest {
    private InMemoryNetwork network;
    private Host callerHost;
    private Host serverHost;
    private Node caller;
    private Probe probe;

    /**
     * An endpoint whose Public function {@code touch(List marks)} counts its runs and the threads
     * they ran on, appends to its argument, then increments x (or reads the bound variable, or
     * calls back to the caller, as the test sets).
     */
    static final class Probe extends WaldoEndpoint {
        final TVar<Double> x;
        final TVar<Double> bound;
        final AtomicInteger runs = new AtomicInteger();
        final List<String> threads = new CopyOnWriteArrayList<>();
        volatile String then = "increment";
        volatile EndpointRef callBack;

        Probe(Host host) {
            super(host, "Probe");
            x = var("x", () -> 0.0);
            bound = var("bound", () -> 0.0, new Annotation("probe", Map.of()));
        }

        @Override
        protected Object dispatch(Ctx ctx, String function, Object[] args) {
            runs.incrementAndGet();
            threads.add(Thread.currentThread().getName());
            @SuppressWarnings("unchecked")
            WList<Object> marks = (WList<Object>) args[0];
            marks.add("seen");
            switch (then) {
                case "increment" -> x.set(ctx, x.get(ctx) + 1);
                case "load" -> bound.get(ctx);
                case "call" -> ctx.call(callBack, "read", "x");
                default -> throw new IllegalStateException(then);
            }
            return (double) marks.size();
        }

        @Override
        protected void runStep(Ctx ctx, SequenceFrame frame, int step) {
            throw new ApplicationException("Probe has no sequences");
        }

        @Override
        protected boolean servesOnReceivingThread(String functionOrSequence) {
            return true; // it waits only through the runtime, as generated code does
        }
    }

    @BeforeEach
    void start() {
        network = new InMemoryNetwork();
        callerHost = Host.inMemory(network, "a");
        serverHost = Host.inMemory(network, "b");
        caller = Node.create(callerHost);
        probe = new Probe(serverHost);
    }

    @AfterEach
    void stop() {
        network.close();
    }

    private double touch() {
        return caller.atomically("touch", ctx -> (Double) ctx.call(probe.ref(), "touch", new WList<>()));
    }

    @Test
    void aCallThatNeedsNoWaitRunsOnceOnTheReceivingThread() {
        assertThat(touch()).isEqualTo(1.0);

        assertThat(probe.runs).hasValue(1);
        assertThat(probe.threads).containsExactly("waldo-mailbox-b");
        assertThat(probe.x.committed()).isEqualTo(1.0);
    }

    @Test
    void aCallThatMeetsAHeldLockRunsAgainAfreshOnAThreadOfItsOwn() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // Threads of their own: the common pool may have a single worker on a small machine.
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> probe.transact("hold", ctx -> {
            probe.x.set(ctx, 10.0);
            holding.countDown();
            await(release);
            return null;
        }), ReceivingThreadTest::onThreadOfItsOwn);
        await(holding);
        CompletableFuture<Double> touched = CompletableFuture.supplyAsync(this::touch, ReceivingThreadTest::onThreadOfItsOwn);
        Awaiting.until(() -> serverHost.waitingLockRequests() == 1, "the rerun waiting for x");
        release.countDown();
        holder.get(10, TimeUnit.SECONDS);

        // The rerun saw the argument as sent (one mark, not the unwound run's two) and x once.
        assertThat(touched.get(10, TimeUnit.SECONDS)).isEqualTo(1.0);
        assertThat(probe.runs).hasValue(2);
        assertThat(probe.threads).containsExactly("waldo-mailbox-b", "waldo-call-b");
        assertThat(probe.x.committed()).isEqualTo(11.0);
    }

    @Test
    void aCallThatLoadsABoundVariableOrCallsAnotherHostRunsOnAThreadOfItsOwn() {
        serverHost.bind("probe", new RecordingBinding());
        probe.then = "load";
        assertThat(touch()).isEqualTo(1.0);
        assertThat(probe.threads).containsExactly("waldo-mailbox-b", "waldo-call-b");

        probe.threads.clear();
        probe.then = "call";
        probe.callBack = caller.ref();
        assertThat(touch()).isEqualTo(1.0);
        assertThat(probe.threads).containsExactly("waldo-mailbox-b", "waldo-call-b");
    }

    private static void onThreadOfItsOwn(Runnable work) {
        Thread.ofVirtual().start(work);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new AssertionError(interrupted);
        }
    }
}
