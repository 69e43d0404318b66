package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import dev.waldo.runtime.testing.Node;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Hosts on an in-memory network running hand-written endpoints the way generated code does. */
class EndToEndTest {
    private InMemoryNetwork network;
    private Host h1;
    private Host h2;
    private Node a;
    private Node b;

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        h1 = Host.inMemory(network, "h1");
        h2 = Host.inMemory(network, "h2");
        Host.Connection<Node, Node> pair = h1.connect(Node::create, h2, Node::create);
        a = pair.local();
        b = pair.remote();
    }

    @AfterEach
    void close() {
        network.close();
    }

    @Test
    void localFunctionCommitsItsChange() {
        assertThat(a.add("x", 5)).isEqualTo(5.0);
        assertThat(a.add("x", 2)).isEqualTo(7.0);
        assertThat(a.committedValue("x")).isEqualTo(7.0);
        assertThat(b.committedValue("x")).isEqualTo(0.0);
    }

    @Test
    void partnersAreConnectedBothWays() {
        assertThat(a.partner()).isEqualTo(b.ref());
        assertThat(b.partner()).isEqualTo(a.ref());
        assertThat(a.ref().host()).isEqualTo("h1");
        assertThat(b.id()).isEqualTo("h2/" + b.ref().object());
    }

    @Test
    void remoteCallCommitsOnBothHosts() {
        double result = a.atomically("both", ctx -> {
            a.x.set(ctx, 1.0);
            return (Double) ctx.call(b.ref(), "add", "y", 10.0);
        });
        assertThat(result).isEqualTo(10.0);
        assertThat(a.committedValue("x")).isEqualTo(1.0);
        assertThat(b.committedValue("y")).isEqualTo(10.0);
        assertIdle();
    }

    @Test
    void sequenceRunsStepsOnBothPartnersAndCarriesItsData() {
        assertThat(a.bump(2)).isEqualTo(2.0 + 2.0);
        assertThat(a.bump(3)).isEqualTo(5.0 + 5.0);
        assertThat(a.committedValue("x")).isEqualTo(5.0);
        assertThat(b.committedValue("x")).isEqualTo(5.0);
        assertThat(a.committedValue("log")).isEqualTo(WList.of("bumped 4.0", "bumped 10.0"));
        assertIdle();
    }

    @Test
    void earlyReturnInPartnerStepEndsTheSequenceWithItsValue() {
        b.add("x", -10);
        assertThat(a.bump(1)).isEqualTo(-1.0);
        assertThat(a.committedValue("log")).isEqualTo(new WList<>());
        assertThat(b.committedValue("x")).isEqualTo(-9.0);
    }

    @Test
    void sequenceCalledFromThePartnerSideRunsTheOtherWay() {
        assertThat(b.bump(1)).isEqualTo(1.0 + 1.0);
        assertThat(b.committedValue("log")).isEqualTo(WList.of("bumped 2.0"));
        assertThat(a.committedValue("x")).isEqualTo(1.0);
    }

    @Test
    void nestedSequencesAndCallsRunInOneTransaction() {
        // A step on b calls back into a, which runs another sequence towards b.
        b.define("bumpBack", (ctx, args) -> ctx.call(a.ref(), "bump", 1.0));
        double total = a.atomically("nested", ctx -> {
            a.y.set(ctx, 1.0);
            return (Double) ctx.call(b.ref(), "bumpBack");
        });
        assertThat(total).isEqualTo(2.0);
        assertThat(a.committedValue("y")).isEqualTo(1.0);
        assertThat(a.committedValue("x")).isEqualTo(1.0);
        assertThat(b.committedValue("x")).isEqualTo(1.0);
        assertIdle();
    }

    @Test
    void abortBacksOutEverywhereAndIsNotRetried() {
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> a.atomically("aborting", ctx -> {
            runs.incrementAndGet();
            a.x.set(ctx, 1.0);
            ctx.call(b.ref(), "add", "x", 1.0);
            throw ctx.abort();
        })).isInstanceOfSatisfying(TransactionAbortedException.class,
                e -> assertThat(e.reason()).isEqualTo(TransactionAbortedException.Reason.ABORT_CALLED));
        assertThat(runs).hasValue(1);
        assertThat(a.committedValue("x")).isEqualTo(0.0);
        assertThat(b.committedValue("x")).isEqualTo(0.0);
        assertIdle();
    }

    @Test
    void abortInARemoteFunctionReachesTheRootCaller() {
        b.define("refuse", (ctx, args) -> {
            b.x.set(ctx, 99.0);
            throw ctx.abort();
        });
        assertThatThrownBy(() -> a.atomically("remoteAbort", ctx -> {
            try {
                return ctx.call(b.ref(), "refuse");
            } catch (ApplicationException | NetworkException caught) {  // what Waldo's catch (Exception e) compiles to
                return "abort must not be catchable";
            }
        })).isInstanceOf(TransactionAbortedException.class);
        assertThat(b.committedValue("x")).isEqualTo(0.0);
        assertIdle();
    }

    @Test
    void applicationExceptionInRemoteFunctionIsCatchableByTheCaller() {
        b.define("divide", (ctx, args) -> {
            b.y.set(ctx, 5.0);
            throw new ApplicationException("division by zero");
        });
        String caught = a.atomically("catching", ctx -> {
            try {
                ctx.call(b.ref(), "divide");
                return "no exception";
            } catch (ApplicationException e) {
                a.x.set(ctx, 1.0);
                return e.getMessage();
            }
        });
        assertThat(caught).isEqualTo("division by zero");
        assertThat(a.committedValue("x")).isEqualTo(1.0);
        // The failed function's own effects stay, as in any language without rollback inside a transaction.
        assertThat(b.committedValue("y")).isEqualTo(5.0);
    }

    @Test
    void uncaughtApplicationExceptionBacksOutEverythingAndReachesTheJavaCaller() {
        assertThatThrownBy(() -> a.atomically("failing", ctx -> {
            a.x.set(ctx, 1.0);
            ctx.call(b.ref(), "add", "x", 1.0);
            return ctx.call(b.ref(), "noSuchFunction");
        })).isInstanceOf(ApplicationException.class).hasMessageContaining("noSuchFunction");
        assertThat(a.committedValue("x")).isEqualTo(0.0);
        assertThat(b.committedValue("x")).isEqualTo(0.0);
        assertIdle();
    }

    @Test
    void printIsWrittenOnlyWhenTheAttemptCommits() {
        ByteArrayOutputStream out1 = new ByteArrayOutputStream();
        ByteArrayOutputStream out2 = new ByteArrayOutputStream();
        h1.setOutput(new PrintStream(out1, true, StandardCharsets.UTF_8));
        h2.setOutput(new PrintStream(out2, true, StandardCharsets.UTF_8));
        b.define("shout", (ctx, args) -> {
            ctx.print("on b: " + args[0]);
            return null;
        });
        a.atomically("printing", ctx -> {
            ctx.print("on a");
            ctx.call(b.ref(), "shout", "hello");
            return null;
        });
        assertThatThrownBy(() -> a.atomically("printingThenAborting", ctx -> {
            ctx.print("never");
            ctx.call(b.ref(), "shout", "never");
            throw ctx.abort();
        })).isInstanceOf(TransactionAbortedException.class);
        assertThat(out1.toString(StandardCharsets.UTF_8)).isEqualTo("on a" + System.lineSeparator());
        assertThat(out2.toString(StandardCharsets.UTF_8)).isEqualTo("on b: hello" + System.lineSeparator());
    }

    @Test
    void valuesAreCopiedWhenTheyTravelAndWhenTheyAreReturned() {
        b.define("keep", (ctx, args) -> {
            @SuppressWarnings("unchecked")
            WList<String> list = (WList<String>) args[0];
            b.log.set(ctx, list);
            return list;
        });
        WList<String> sent = WList.of("a");
        @SuppressWarnings("unchecked")
        WList<String> returned = (WList<String>) a.atomically("copying", ctx -> {
            WList<String> back = (WList<String>) ctx.call(b.ref(), "keep", sent);
            sent.add("changed after sending");
            back.add("changed after returning");
            return back;
        });
        returned.add("changed by the Java caller");
        assertThat(b.committedValue("log")).isEqualTo(WList.of("a"));
    }

    @Test
    void mapOperationsWorkPerKeyAndWhole() {
        a.atomically("fill", ctx -> {
            a.table.put(ctx, "one", 1.0);
            a.table.put(ctx, "two", 2.0);
            a.table.remove(ctx, "one");
            a.table.put(ctx, "three", 3.0);
            return null;
        });
        WMap<String, Double> expected = new WMap<>();
        expected.put("two", 2.0);
        expected.put("three", 3.0);
        assertThat(a.table.committed()).isEqualTo(expected);
        double size = a.atomically("size", ctx -> {
            a.table.put(ctx, "four", 4.0);
            return (double) a.table.size(ctx) + a.table.get(ctx, "two");
        });
        assertThat(size).isEqualTo(3.0 + 2.0);
        assertThatThrownBy(() -> a.atomically("missing", ctx -> a.table.get(ctx, "nine")))
                .isInstanceOf(ApplicationException.class).hasMessageContaining("missing map key");
    }

    private void assertIdle() {
        for (Host host : new Host[] {h1, h2}) {
            Awaiting.until(() -> host.liveTransactions() == 0 && host.lockedVariables() == 0,
                    "host " + host.id() + " releases every lock");
        }
    }
}
