package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.lang.WMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Binding#load}: a transaction starts a bound variable from what the outside system holds,
 * read under the variable's lock, and prepare diffs against that same read; so a change made
 * outside the runtime survives, and concurrent transactions serialize on the bound variable.
 */
@Timeout(60)
class BindingLoadTest {
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final Host host = Host.inMemory(network, "switch");

    @AfterEach
    void close() {
        network.close();
    }

    /** An endpoint with one bound map, in the shape the emitter produces for {@code @dev(table: 'x') Map(...) table;}. */
    static final class Table extends WaldoObject {
        final TMap<String, Double> table;
        final TVar<Double> counter;

        Table(Host host) {
            super(host, "Table");
            table = mapVar("table", new Annotation("dev", Map.of("table", "x")));
            counter = var("counter", () -> 0.0, new Annotation("dev", Map.of("scalar", "n")));
        }

        <T> T atomically(TxnBody<T> body) {
            return transact("test", body);
        }

        @Override
        protected Object dispatch(Ctx ctx, String function, Object[] args) {
            throw new ApplicationException("Table has no Public function " + function);
        }
    }

    /** An outside system holding a map: loads it, and in prepare applies the transaction's difference to it. */
    static class Outside implements Binding {
        final WMap<String, Double> held = new WMap<>();
        final List<String> prepared = new CopyOnWriteArrayList<>();
        volatile int loads;
        volatile String failure;

        @Override
        public synchronized Object load(WaldoObject owner, String variable, Annotation annotation,
                String transaction) {
            loads++;
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            return variable.equals("table") ? new WMap<>(held) : null;
        }

        @Override
        @SuppressWarnings("unchecked")
        public synchronized Vote prepare(BoundTransaction transaction) {
            for (BoundTransaction.Change change : transaction.changes()) {
                prepared.add(change.variable() + " " + change.before() + "->" + change.after());
                if (!change.variable().equals("table")) {
                    continue;
                }
                WMap<String, Double> before = (WMap<String, Double>) change.before();
                WMap<String, Double> after = (WMap<String, Double>) change.after();
                before.keySet().stream().filter(k -> !after.containsKey(k)).toList().forEach(held::remove);
                held.putAll(after);
            }
            return Vote.yes();
        }

        @Override
        public void commit(BoundTransaction transaction) {
        }

        @Override
        public void abort(BoundTransaction transaction) {
        }
    }

    @Test
    void aTransactionStartsFromWhatTheOutsideSystemHoldsAndPrepareDiffsAgainstIt() {
        Outside outside = new Outside();
        host.bind("dev", outside);
        Table table = new Table(host);
        outside.held.put("made-outside", 50.0);

        double seen = table.atomically(ctx -> {
            table.table.put(ctx, "ours", 10.0);
            return table.table.get(ctx, "made-outside");
        });

        assertThat(seen).isEqualTo(50.0);
        assertThat(outside.prepared).containsExactly("table {made-outside=50.0}->{made-outside=50.0, ours=10.0}");
        assertThat(outside.held).containsOnlyKeys("made-outside", "ours");
        assertThat(table.table.committed()).containsOnlyKeys("made-outside", "ours");
    }

    @Test
    void everyAttemptLoadsAfreshAndAReadOnlyTransactionIsNotPrepared() {
        Outside outside = new Outside();
        host.bind("dev", outside);
        Table table = new Table(host);
        outside.held.put("a", 1.0);
        assertThat((int) table.atomically(ctx -> table.table.size(ctx))).isEqualTo(1);
        outside.held.put("b", 2.0);
        assertThat((int) table.atomically(ctx -> table.table.size(ctx))).isEqualTo(2);
        assertThat(outside.prepared).isEmpty();
        assertThat(outside.loads).isEqualTo(2);
    }

    @Test
    void aVariableWhoseBindingLoadsNothingStartsFromItsCommittedValue() {
        Outside outside = new Outside();
        host.bind("dev", outside);
        Table table = new Table(host);
        table.atomically(ctx -> {
            table.counter.set(ctx, 3.0);
            return null;
        });
        assertThat((double) table.atomically(ctx -> table.counter.get(ctx))).isEqualTo(3.0);
        assertThat(outside.prepared).containsExactly("counter 0.0->3.0");
    }

    @Test
    void concurrentTransactionsOnDifferentKeysOfABoundMapSerializeAndLoseNothing() throws Exception {
        Outside outside = new Outside();
        host.bind("dev", outside);
        Table table = new Table(host);
        int writers = 8;
        try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String key = "k" + i;
                done.add(pool.submit(() -> table.atomically(ctx -> {
                    table.table.put(ctx, key, 1.0);
                    return null;
                })));
            }
            for (Future<?> writer : done) {
                writer.get();
            }
        }
        assertThat(outside.held).hasSize(writers);
        assertThat(table.table.committed()).hasSize(writers);
    }

    /** {@link Outside}, locking its maps per key ({@link Binding#keyed}). */
    static final class KeyedOutside extends Outside {
        @Override
        public boolean keyed(Annotation annotation) {
            return true;
        }
    }

    /**
     * A map its binding locks per key: a transaction holding one key does not hold up another that
     * changes a different key (it commits meanwhile), reads of a key are shared, and a whole read
     * waits for the writers of every key. Each prepare sees its own load (taken at its first touch)
     * and its own change, and each install adds its own keys, keeping the other's.
     */
    @Test
    void aKeyedBoundMapLetsTransactionsOnDifferentKeysRunSideBySide() throws Exception {
        KeyedOutside outside = new KeyedOutside();
        host.bind("dev", outside);
        Table table = new Table(host);
        outside.held.put("shared", 1.0);
        Latch holding = new Latch("the first writer holds key a");
        Latch release = new Latch("the first writer may end");
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            Future<?> first = pool.submit(() -> table.atomically(ctx -> {
                table.table.read(ctx, "shared");
                table.table.put(ctx, "a", 1.0);
                holding.open();
                release.await();
                return null;
            }));
            holding.await();
            table.atomically(ctx -> {
                table.table.read(ctx, "shared");
                table.table.put(ctx, "b", 2.0);
                return null;
            });
            Future<Integer> whole = pool.submit(() -> table.atomically(ctx -> table.table.size(ctx)));
            Awaiting.until(() -> host.waitingLockRequests() == 1, "the whole read waits for the writer of a");
            release.open();
            first.get();
            assertThat(whole.get()).isEqualTo(3);
        }
        // The first writer loaded before the second committed: its prepare sees its own load, which
        // lacks b, and its own change; the outside system keeps b since the binding applies differences.
        assertThat(outside.prepared).containsExactly("table {shared=1.0}->{shared=1.0, b=2.0}",
                "table {shared=1.0}->{shared=1.0, a=1.0}");
        assertThat(outside.held).containsOnlyKeys("shared", "a", "b");
        assertThat(table.table.committed()).containsOnlyKeys("shared", "a", "b");
    }

    @Test
    void aFailedLoadFailsTheTransactionWithTheBindingsMessage() {
        Outside outside = new Outside();
        host.bind("dev", outside);
        Table table = new Table(host);
        outside.failure = "sw-1: the switch does not answer";
        assertThatThrownBy(() -> table.atomically(ctx -> table.table.size(ctx)))
                .isInstanceOf(ApplicationException.class).hasMessageContaining("sw-1: the switch does not answer");
        assertThat(outside.prepared).isEmpty();
    }
}
