package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.testing.Node;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Unreachable partners, abort and bindings that vote no. */
class FailureScenarioTest {
    private InMemoryNetwork network;
    private Host h1;
    private Host h2;
    private Host h3;
    private Node a;
    private Node b;
    private Node c;

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
        network.close();
    }

    @Test
    void caughtNetworkExceptionLetsTheOthersCommitWithoutTheClosedHost() {
        h2.close();
        String outcome = a.atomically("goOnWithout", ctx -> {
            a.x.set(ctx, 1.0);
            ctx.call(c.ref(), "add", "z", 1.0);
            try {
                ctx.call(b.ref(), "add", "x", 1.0);
                return "reached b";
            } catch (NetworkException e) {
                a.y.set(ctx, 1.0);
                return e.getMessage();
            }
        });
        assertThat(outcome).contains("h2").contains("unreachable");
        assertThat(a.committedValue("x")).isEqualTo(1.0);
        assertThat(a.committedValue("y")).isEqualTo(1.0);
        assertThat(c.committedValue("z")).isEqualTo(1.0);
        assertThat(b.committedValue("x")).isEqualTo(0.0);
        assertIdle(h1, h3);
    }

    @Test
    void hostClosedInTheMiddleOfATransactionKeepsNoneOfItsEffects() {
        AtomicInteger attempts = new AtomicInteger();
        String outcome = a.atomically("loseB", ctx -> {
            int attempt = attempts.incrementAndGet();
            ctx.call(c.ref(), "add", "z", 1.0);
            try {
                ctx.call(b.ref(), "add", "x", 1.0);
                if (attempt == 1) {
                    h2.close(); // b took part, then its host died before commit
                }
                ctx.call(b.ref(), "add", "x", 1.0);
                return "reached b twice";
            } catch (NetworkException e) {
                return "without b";
            }
        });
        // The first attempt needed b in commit and could not have it, so it was retried;
        // the retry met the closed host at the call and went on without it.
        assertThat(outcome).isEqualTo("without b");
        assertThat(attempts).hasValueGreaterThanOrEqualTo(2);
        assertThat(b.committedValue("x")).isEqualTo(0.0);
        assertThat(c.committedValue("z")).isEqualTo(1.0);
        assertIdle(h1, h3);
    }

    @Test
    void uncaughtNetworkExceptionBacksOutEverything() {
        h2.close();
        assertThatThrownBy(() -> a.atomically("needB", ctx -> {
            a.x.set(ctx, 1.0);
            ctx.call(c.ref(), "add", "z", 1.0);
            return ctx.call(b.ref(), "add", "x", 1.0);
        })).isInstanceOf(NetworkException.class).hasMessageContaining("h2");
        assertThat(a.committedValue("x")).isEqualTo(0.0);
        assertThat(c.committedValue("z")).isEqualTo(0.0);
        assertIdle(h1, h3);
    }

    @Test
    void sequenceStepOnAClosedPartnerRaisesNetworkExceptionToTheJavaCaller() {
        h2.close();
        assertThatThrownBy(() -> a.bump(1)).isInstanceOf(NetworkException.class);
        assertThat(a.committedValue("x")).isEqualTo(0.0);
        assertIdle(h1);
    }

    @Test
    void sequenceOnAnUnconnectedEndpointRaisesNetworkException() {
        assertThatThrownBy(() -> c.bump(1)).isInstanceOf(NetworkException.class)
                .hasMessageContaining("no connected partner");
    }

    @Test
    void cutLinkFailsTheCallAndTheCutOffSideBacksOut() {
        // b calls c for the transaction; then the link a-b is cut while b waits in a step.
        Latch bInside = new Latch("b inside the call");
        Latch cut = new Latch("link cut");
        b.define("slow", (ctx, args) -> {
            ctx.call(c.ref(), "add", "z", 1.0);
            b.x.set(ctx, 1.0);
            bInside.open();
            cut.await();
            return b.y.get(ctx);
        });
        Thread cutter = Thread.ofVirtual().start(() -> {
            bInside.await();
            network.cut("h1", "h2");
            cut.open();
        });
        String outcome = a.atomically("cutOff", ctx -> {
            try {
                ctx.call(b.ref(), "slow");
                return "reached b";
            } catch (NetworkException e) {
                a.x.set(ctx, 1.0);
                return "without b";
            }
        });
        assertThat(outcome).isEqualTo("without b");
        assertThat(a.committedValue("x")).isEqualTo(1.0);
        // b and what b did on c for the transaction are backed out.
        assertIdle(h1, h2, h3);
        assertThat(b.committedValue("x")).isEqualTo(0.0);
        assertThat(c.committedValue("z")).isEqualTo(0.0);
        network.heal("h1", "h2");
        Awaiting.until(() -> h1.canReach("h2") && h2.canReach("h1"), "both ends see the healed link");
        assertThat(a.bump(1)).isEqualTo(2.0 + 1.0); // a.x was 1; the healed link works again
        assertThat(cutter.isAlive()).isFalse();
    }

    @Test
    void bindingThatVotesNoAbortsEveryHostAndTheCallerLearnsWhy() {
        RecordingBinding onA = new RecordingBinding();
        h1.bind("test", onA);
        h2.bind("test", new RecordingBinding() {
            @Override
            public Vote prepare(BoundTransaction transaction) {
                super.prepare(transaction);
                return Vote.no("device refused VLAN 300");
            }
        });
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> a.atomically("pushBoth", ctx -> {
            attempts.incrementAndGet();
            a.add$(ctx, "bound", 300);
            a.x.set(ctx, 1.0);
            return ctx.call(b.ref(), "add", "bound", 300.0);
        })).isInstanceOfSatisfying(TransactionAbortedException.class, e -> {
            assertThat(e.reason()).isEqualTo(TransactionAbortedException.Reason.VOTED_NO);
            assertThat(e.getMessage()).contains("device refused VLAN 300").contains("h2");
        });
        assertThat(attempts).hasValue(1);
        assertThat(a.committedValue("bound")).isEqualTo(0.0);
        assertThat(a.committedValue("x")).isEqualTo(0.0);
        assertThat(b.committedValue("bound")).isEqualTo(0.0);
        // The caller returns only after every binding undid its prepare.
        assertThat(onA.events()).containsExactly("prepare bound 0->300", "abort bound 0->300");
        assertIdle(h1, h2);
    }

    @Test
    void bindingThatThrowsInPrepareVotesNo() {
        h1.bind("test", new RecordingBinding() {
            @Override
            public Vote prepare(BoundTransaction transaction) {
                throw new IllegalStateException("agent timed out");
            }
        });
        assertThatThrownBy(() -> a.add("bound", 1))
                .isInstanceOf(TransactionAbortedException.class).hasMessageContaining("agent timed out");
        assertThat(a.committedValue("bound")).isEqualTo(0.0);
    }

    @Test
    void bindingIsNotCalledForUnchangedOrUnannotatedVariables() {
        RecordingBinding binding = new RecordingBinding();
        h1.bind("test", binding);
        a.add("x", 1);
        a.add("bound", 0);
        a.add("bound", 2);
        assertThat(binding.events()).containsExactly("prepare bound 0->2", "commit bound 0->2");
    }

    private static void assertIdle(Host... hosts) {
        for (Host host : hosts) {
            Awaiting.until(() -> host.liveTransactions() == 0 && host.lockedVariables() == 0,
                    "host " + host.id() + " releases every lock");
        }
    }
}
