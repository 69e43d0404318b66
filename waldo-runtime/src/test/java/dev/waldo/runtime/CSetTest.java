package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.lang.WCSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CSet variables through a real host: adds and removes of concurrent transactions commute (none
 * waits for another, all count), while reading a count conflicts with them.
 */
@Timeout(60)
class CSetTest {
    /**
     * A hand-written service in the shape waldoc emits for:
     * <pre>
     * Service Guestbook {
     *     CSet(element: Text) seen;
     * }
     * </pre>
     */
    static final class Guestbook extends WaldoService {
        static final Variable<WCSet<String>> SEEN = Variable.of(Guestbook.class, "seen", WCSet.class);

        final TCSet<String> seen;

        private Guestbook(Host host) {
            super(host, "Guestbook");
            seen = csetVar(SEEN);
        }

        static Guestbook create(Host host) {
            Guestbook book = new Guestbook(host);
            book.transact("onCreate", ctx -> null);
            return book;
        }

        <T> T atomically(TxnBody<T> body) {
            return transact("test", body);
        }

        @Override
        protected Object dispatch(Ctx ctx, String function, Object[] args) {
            throw new ApplicationException("Guestbook has no remote functions");
        }
    }

    private InMemoryNetwork network;
    private Host host;
    private Guestbook book;
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @BeforeEach
    void start() {
        network = new InMemoryNetwork();
        host = Host.inMemory(network, "h");
        book = Guestbook.create(host);
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
        network.close();
    }

    @Test
    void aSecondAdderCommitsWhileTheFirstStillHoldsTheSetAndBothCount() {
        Latch firstAdded = new Latch("the first adder added");
        Latch finishFirst = new Latch("the test lets the first adder finish");
        Future<Object> first = threads.submit(() -> book.atomically(ctx -> {
            book.seen.add(ctx, "ann");
            firstAdded.open();
            finishFirst.await();
            return null;
        }));
        firstAdded.await();

        book.atomically(ctx -> { // would wait (or wound the first) if adds conflicted
            book.seen.add(ctx, "ann");
            book.seen.add(ctx, "bob");
            return null;
        });
        assertThat(first).isNotDone();
        finishFirst.open();
        Latch.get(first);

        WCSet<String> seen = book.seen.committed();
        assertThat(seen.count("ann")).isEqualTo(2.0);
        assertThat(seen.count("bob")).isEqualTo(1.0);
        assertThat(host.lockedVariables()).as("every commuting lock was released").isZero();
    }

    @Test
    void aCountReadWaitsForAnOpenAdderAndThenSeesItsAdd() {
        Latch added = new Latch("the adder added");
        Latch finishAdder = new Latch("the test lets the adder finish");
        Future<Object> adder = threads.submit(() -> book.atomically(ctx -> {
            book.seen.add(ctx, "ann");
            added.open();
            finishAdder.await();
            return null;
        }));
        added.await();
        Future<Double> reader = threads.submit(() -> book.atomically(ctx -> book.seen.count(ctx, "ann")));

        Awaiting.until(() -> host.waitingLockRequests() == 1, "the reader waits for the adder's commuting lock");
        assertThat(reader).isNotDone();
        finishAdder.open();
        Latch.get(adder);
        assertThat(Latch.get(reader)).isEqualTo(1.0);
    }

    @Test
    void removesBeforeAddsLeaveAntiElementsThatNoElementsListShows() {
        book.atomically(ctx -> {
            book.seen.rem(ctx, "ann");
            book.seen.add(ctx, "bob");
            return null;
        });
        List<Object> read = book.atomically(ctx -> List.of(book.seen.count(ctx, "ann"), book.seen.elements(ctx)));
        assertThat(read).containsExactly(-1.0, List.of("bob"));

        book.atomically(ctx -> {
            book.seen.add(ctx, "ann");
            book.seen.add(ctx, "ann");
            return null;
        });
        assertThat(book.seen.committed().elements()).containsExactly("ann", "bob");
    }

    @Test
    void aTransactionReadsItsOwnAddsAndAnAbortedOneChangesNothing() {
        double own = book.atomically(ctx -> {
            book.seen.add(ctx, "ann");
            return book.seen.count(ctx, "ann");
        });
        assertThat(own).isEqualTo(1.0);

        assertThatThrownBy(() -> book.atomically(ctx -> {
            book.seen.add(ctx, "ann");
            throw ctx.abort();
        })).isInstanceOf(TransactionAbortedException.class);
        assertThat(book.seen.committed().count("ann")).isEqualTo(1.0);
    }

    @Test
    void manyConcurrentAddersAllCount() throws Exception {
        int adders = 50;
        List<CompletableFuture<Object>> all = new java.util.ArrayList<>();
        for (int i = 0; i < adders; i++) {
            all.add(CompletableFuture.supplyAsync(() -> book.atomically(ctx -> {
                book.seen.add(ctx, "visit");
                return null;
            }), threads));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get();
        assertThat(book.seen.committed().count("visit")).isEqualTo((double) adders);
    }
}
