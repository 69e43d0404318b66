package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.testing.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Several calls of one attempt in flight at once, from a Java body that makes them on threads of
 * its own (as WaldoConf's apply reads and stages its switches): each reply reaches its own call,
 * a wound or a backout of the attempt unwinds every call still waiting, and calls of one attempt
 * served side by side on one host each get their own lock. Real hosts on the in-memory network;
 * every wait is capped, so a hang fails the test instead of stalling it.
 */
class ParallelCallsTest {
    private static final int SWITCHES = 4;

    private InMemoryNetwork network;
    private Node origin;
    private final List<Host> hosts = new ArrayList<>();
    private final List<Node> remotes = new ArrayList<>();
    /** How many calls the root sent with the prepare (its last call, made when nothing else was in flight). */
    private final AtomicInteger callsCarryingThePrepare = new AtomicInteger();
    /** The threads a body makes its calls from; a test may leave them running past the body. */
    private ExecutorService callers;

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        Host root = Host.create("root", new ForwardingTransport(network.attach("root")) {
            @Override
            public void send(Envelope envelope) {
                if (envelope.message() instanceof Message.Call call && call.prepareWith() != null) {
                    callsCarryingThePrepare.incrementAndGet();
                }
                super.send(envelope);
            }
        });
        hosts.add(root);
        origin = Node.create(root);
        for (int i = 0; i < SWITCHES; i++) {
            Host host = Host.inMemory(network, "s" + i);
            hosts.add(host);
            remotes.add(Node.create(host));
        }
        callers = Executors.newVirtualThreadPerTaskExecutor();
    }

    @AfterEach
    void close() {
        callers.shutdownNow();
        network.close();
    }

    /** Every call returns its own callee's answer, and the attempt commits on every host. */
    @Test
    void concurrentCallsOfOneAttemptAllReturnTheirOwnReplyAndCommit() {
        CountDownLatch allStarted = new CountDownLatch(SWITCHES);
        for (int i = 0; i < SWITCHES; i++) {
            int index = i;
            remotes.get(i).define("addAfterAll", (ctx, args) -> {
                double value = remotes.get(index).add$(ctx, "x", index + 1.0);
                allStarted.countDown();
                awaitCapped(allStarted, "every call of the attempt to be served at once");
                return value;
            });
        }
        List<Object> answers = origin.atomically("fanOut", ctx -> {
            List<Object> replies = inParallel(ctx, "addAfterAll");
            ctx.lastCall(remotes.getFirst().ref(), "add", "y", 1.0); // after all others returned
            return replies;
        });

        assertThat(answers).containsExactly(1.0, 2.0, 3.0, 4.0);
        for (int i = 0; i < SWITCHES; i++) {
            assertThat(remotes.get(i).committedValue("x")).isEqualTo(i + 1.0);
        }
        assertThat(remotes.getFirst().committedValue("y")).isEqualTo(1.0);
        assertThat(callsCarryingThePrepare.get()).as("the last call, made alone, carried the prepare").isEqualTo(1);
        assertIdle();
    }

    /** Defines "holdX" on every remote: adds 1 to x, counts itself in {@code served}, and answers once {@code release} opens. */
    private void defineHoldX(AtomicInteger served, Latch release) {
        for (Node remote : remotes) {
            remote.define("holdX", (ctx, args) -> {
                double value = remote.add$(ctx, "x", 1.0);
                served.incrementAndGet();
                release.await();
                return value;
            });
        }
    }

    /**
     * An older transaction wounds the attempt while all four of its calls are served (each holds
     * its callee's x and then blocks): the wound reaches the root and every one of the four
     * waiting calls unwinds at once, before any callee answers; the attempt is then retried and
     * both transactions commit.
     */
    @Test
    void aWoundWhileCallsAreOutstandingUnwindsEveryOne() {
        Latch release = new Latch("the callees to be let go");
        Latch olderGo = new Latch("the older transaction to go on");
        AtomicInteger served = new AtomicInteger();
        defineHoldX(served, release);
        Latch olderStarted = new Latch("the older transaction to start");
        Future<Object> older = callers.submit(() -> origin.atomically("older", ctx -> {
            olderStarted.open();
            olderGo.await();
            return ctx.call(remotes.getFirst().ref(), "add", "x", 100.0);
        }));
        olderStarted.await();

        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger unwoundInFirst = new AtomicInteger();
        Future<Object> younger = callers.submit(() -> origin.atomically("younger", ctx -> {
            int attempt = attempts.incrementAndGet();
            return inParallel(ctx, "holdX", () -> {
                if (attempt == 1) {
                    unwoundInFirst.incrementAndGet();
                }
            });
        }));
        Awaiting.until(() -> served.get() == SWITCHES, "all four calls of the younger attempt are served");
        olderGo.open();

        Awaiting.until(() -> unwoundInFirst.get() == SWITCHES, "every outstanding call of the wounded attempt unwound");
        assertThat(release.isOpen()).as("no callee had answered").isFalse();
        release.open();

        assertThat(Latch.get(older)).isEqualTo(100.0);
        Latch.get(younger);
        assertThat(attempts.get()).isGreaterThanOrEqualTo(2);
        assertThat(remotes.getFirst().committedValue("x")).isEqualTo(101.0);
        for (int i = 1; i < SWITCHES; i++) {
            assertThat(remotes.get(i).committedValue("x")).isEqualTo(1.0);
        }
        assertIdle();
    }

    /**
     * The body fails while its calls are in flight and does not wait for them: the attempt backs
     * out, every call still waiting unwinds before its callee answers, the replies that come later
     * are dropped, and no host keeps anything of the attempt. (The root's caller learns of the
     * backout once every callee acknowledged it, so only after they were let go.)
     */
    @Test
    void aBackoutWhileCallsAreInFlightLeavesNoThreadWaiting() {
        Latch release = new Latch("the callees to be let go");
        AtomicInteger served = new AtomicInteger();
        defineHoldX(served, release);
        List<Future<Object>> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
        Future<Object> failing = callers.submit(() -> origin.atomically("failFast", ctx -> {
            for (Node remote : remotes) {
                calls.add(callers.submit(() -> ctx.call(remote.ref(), "holdX")));
            }
            Awaiting.until(() -> served.get() == SWITCHES, "all four calls are served");
            throw new ApplicationException("the body gives up with its calls in flight");
        }));

        Awaiting.until(() -> calls.size() == SWITCHES && calls.stream().allMatch(Future::isDone),
                "every call of the backed-out attempt unwound");
        assertThat(release.isOpen()).as("no callee had answered").isFalse();
        for (Future<Object> call : calls) {
            assertThatThrownBy(call::get).hasCauseInstanceOf(BackoutSignal.class);
        }
        release.open(); // the callees answer now; their replies find the attempt gone here
        assertThatThrownBy(() -> Latch.get(failing)).isInstanceOf(ApplicationException.class)
                .hasMessageContaining("gives up");

        assertIdle();
        for (Node remote : remotes) {
            assertThat(remote.committedValue("x")).isEqualTo(0.0);
        }
    }

    /**
     * Two calls of one attempt served side by side on one host, each waiting for a different
     * lock an older transaction holds: each is woken by its own grant (one wait per attempt
     * would have let the first grant wake the wrong call, and left the other waiting for good).
     */
    @Test
    void callsOfOneAttemptWaitingForDifferentLocksOnOneHostAreEachGranted() {
        Node shared = remotes.getFirst();
        Latch olderGo = new Latch("the older transaction to commit");
        Future<Object> older = callers.submit(() -> origin.atomically("older", ctx -> {
            ctx.call(shared.ref(), "add", "x", 1.0);
            ctx.call(shared.ref(), "add", "y", 2.0);
            olderGo.await();
            return null;
        }));
        Awaiting.until(() -> shared.host().lockedVariables() == 2, "the older transaction holds x and y");

        Future<Object> younger = callers.submit(() -> origin.atomically("younger", ctx -> {
            Future<Object> readX = callers.submit(() -> ctx.call(shared.ref(), "read", "x"));
            Future<Object> readY = callers.submit(() -> ctx.call(shared.ref(), "read", "y"));
            return List.of(Latch.get(readX), Latch.get(readY));
        }));
        Awaiting.until(() -> shared.host().waitingLockRequests() == 2, "both reads wait for their lock");
        olderGo.open();

        Latch.get(older);
        assertThat(Latch.get(younger)).isEqualTo(List.of(1.0, 2.0));
        assertIdle();
    }

    /**
     * A call marked last while another call of the attempt is still in flight goes without the
     * prepare (the hosts the call in flight reveals would not be named in it); the attempt
     * prepares after its body, and commits everywhere.
     */
    @Test
    void aLastCallMadeWhileAnotherIsInFlightStillCommitsEverywhere() {
        Latch release = new Latch("the first callee to answer");
        Node first = remotes.get(0);
        Node last = remotes.get(1);
        first.define("slowAdd", (ctx, args) -> {
            double value = first.add$(ctx, "x", 1.0);
            release.await();
            return value;
        });
        origin.atomically("overlapping", ctx -> {
            Future<Object> slow = callers.submit(() -> ctx.call(first.ref(), "slowAdd"));
            Awaiting.until(() -> first.host().lockedVariables() == 1, "the first call is served");
            Object value = ctx.lastCall(last.ref(), "add", "x", 5.0);
            release.open();
            Latch.get(slow);
            return value;
        });
        assertThat(first.committedValue("x")).isEqualTo(1.0);
        assertThat(last.committedValue("x")).isEqualTo(5.0);
        assertThat(callsCarryingThePrepare.get()).as("no call carried the prepare").isZero();
        assertIdle();
    }

    /**
     * Two calls of one attempt served side by side on one host touch the same bound variable
     * first, so both have its binding load it: the one whose load returns last keeps the working
     * copy the other made (and wrote), instead of replacing it with its own fresh load, which would
     * lose the write.
     */
    @Test
    void twoCallsLoadingTheSameBoundVariableShareOneWorkingCopy() {
        Node shared = remotes.getFirst();
        CountDownLatch bothLoading = new CountDownLatch(2);
        Latch written = new Latch("the setter to write its value");
        ThreadLocal<String> role = new ThreadLocal<>();
        List<String> prepared = new java.util.concurrent.CopyOnWriteArrayList<>();
        shared.host().bind("test", new Binding() {
            @Override
            public Object load(WaldoObject owner, String variable, Annotation annotation, String transaction) {
                bothLoading.countDown();
                awaitCapped(bothLoading, "both calls to load the variable");
                if ("reader".equals(role.get())) {
                    written.await(); // the reader's load returns after the setter made its copy and wrote it
                }
                return 7.0;
            }

            @Override
            public Vote prepare(BoundTransaction transaction) {
                transaction.changes().forEach(c -> prepared.add(c.variable() + " " + c.before() + "->" + c.after()));
                return Vote.yes();
            }

            @Override
            public void commit(BoundTransaction transaction) {
            }

            @Override
            public void abort(BoundTransaction transaction) {
            }
        });
        shared.define("setBound", (ctx, args) -> {
            role.set("setter");
            shared.bound.set(ctx, 1.0);
            written.open();
            return 1.0;
        });
        shared.define("readBound", (ctx, args) -> {
            role.set("reader");
            return shared.bound.get(ctx);
        });

        origin.atomically("touchTwice", ctx -> {
            Future<Object> set = callers.submit(() -> ctx.call(shared.ref(), "setBound"));
            Future<Object> read = callers.submit(() -> ctx.call(shared.ref(), "readBound"));
            return List.of(Latch.get(set), Latch.get(read));
        });

        assertThat(shared.committedValue("bound")).as("the setter's write survived the reader's load").isEqualTo(1.0);
        assertThat(prepared).containsExactly("bound 7.0->1.0");
        assertIdle();
    }

    /**
     * A thread of the attempt that starts a wait after the attempt was wounded or discarded here
     * (it passed its liveness check just before) fails at once: the wound woke only the waits it
     * found, and the core's wake for an attempt that ended here finds no attempt to wake.
     */
    @Test
    void aWaitStartedAfterTheAttemptWasWoundedFailsAtOnce() {
        LocalTxn txn = new LocalTxn(origin.host(), new dev.waldo.runtime.core.TxnId(1, 999), null, false);
        txn.wound();
        assertThat(txn.awaitGrant(dev.waldo.runtime.core.LockId.whole(((WaldoObject) origin).objectId(), "x",
                dev.waldo.runtime.core.LockMode.WRITE))).isCompletedExceptionally();
        assertThat(txn.awaitReply(1)).isCompletedExceptionally();
        assertThatThrownBy(() -> LocalTxn.await(txn.awaitReply(2))).isInstanceOf(BackoutSignal.class);
    }

    /** Calls {@code function} on every remote at once from the callers' threads and waits for all. */
    private List<Object> inParallel(Ctx ctx, String function) {
        return inParallel(ctx, function, () -> { });
    }

    /**
     * As {@link #inParallel(Ctx, String)}, running {@code onUnwound} on each call's thread if its
     * call ends with the backout signal; rethrows the first failure after every call ended.
     */
    private List<Object> inParallel(Ctx ctx, String function, Runnable onUnwound) {
        List<CompletableFuture<Object>> calls = new ArrayList<>();
        for (Node remote : remotes) {
            calls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return ctx.call(remote.ref(), function);
                } catch (BackoutSignal unwound) {
                    onUnwound.run();
                    throw unwound;
                }
            }, callers));
        }
        List<Object> replies = new ArrayList<>();
        Throwable failure = null;
        for (CompletableFuture<Object> call : calls) {
            try {
                replies.add(call.get(30, TimeUnit.SECONDS));
            } catch (java.util.concurrent.ExecutionException e) {
                failure = failure == null ? e.getCause() : failure;
            } catch (Exception e) {
                throw new AssertionError("gave up waiting for a call of the attempt", e);
            }
        }
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure != null) {
            throw (RuntimeException) failure;
        }
        return replies;
    }

    private static void awaitCapped(CountDownLatch latch, String what) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("gave up waiting for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what);
        }
    }

    private void assertIdle() {
        for (Host host : hosts) {
            Awaiting.until(() -> host.liveTransactions() == 0 && host.lockedVariables() == 0,
                    "host " + host.id() + " keeps nothing of the transactions");
        }
    }
}
