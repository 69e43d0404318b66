package dev.waldo.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Handcrafted histories: each known anomaly must be reported, valid histories must pass. */
class ListAppendCheckerTest {
    private final List<Txn> txns = new ArrayList<>();

    private void txn(int id, long invokedAt, long completedAt, Outcome outcome, MicroOp... ops) {
        txns.add(new Txn(id, id, invokedAt, completedAt, outcome, List.of(ops)));
    }

    private void ok(int id, long invokedAt, long completedAt, MicroOp... ops) {
        txn(id, invokedAt, completedAt, Outcome.OK, ops);
    }

    private static MicroOp a(String key, long value) {
        return MicroOp.append(key, value);
    }

    private static MicroOp r(String key, Long... list) {
        return MicroOp.read(key, Arrays.asList(list));
    }

    private CheckResult check() {
        return ListAppendChecker.check(new History(txns));
    }

    private List<String> types() {
        return check().anomalies().stream().map(Anomaly::type).toList();
    }

    @Test
    void serialHistoryIsValid() {
        ok(1, 0, 1, a("x", 1), a("y", 1));
        ok(2, 2, 3, r("x", 1L), a("x", 2), r("x", 1L, 2L), r("y", 1L));
        ok(3, 4, 5, r("x", 1L, 2L), r("y", 1L));
        CheckResult result = check();
        assertThat(result.anomalies()).isEmpty();
        assertThat(result.committed()).isEqualTo(3);
        assertThat(result.edges()).isPositive();
    }

    @Test
    void overlappingTransactionsMayOrderEitherWay() {
        ok(1, 0, 10, a("x", 1));
        ok(2, 1, 9, r("x"));
        ok(3, 11, 12, r("x", 1L));
        assertThat(check().anomalies()).isEmpty();
    }

    @Test
    void unknownOutcomesMayOrMayNotHaveHappened() {
        txn(1, 0, 0, Outcome.UNKNOWN, a("x", 1));
        txn(2, 0, 0, Outcome.UNKNOWN, a("y", 1));
        txn(3, 1, 2, Outcome.FAILED, a("z", 1));
        ok(4, 5, 6, r("x", 1L), r("y"), r("z"));
        CheckResult result = check();
        assertThat(result.anomalies()).isEmpty();
        assertThat(List.of(result.committed(), result.failed(), result.unknown())).containsExactly(1, 1, 2);
    }

    /*
     * Transactions of unknown outcome (Elle's "info" operations: the client got a NetworkException,
     * or was killed): each may have taken effect at any time after its invocation, or never.
     */

    @Test
    void anUnknownTransactionThatAReadShowsCommittedAndCanCloseACycle() {
        // T2 read T1's append to x (T1 -wr-> T2), and a read puts T2's append to y before T1's (T2 -ww-> T1).
        txn(1, 0, 0, Outcome.UNKNOWN, a("x", 1), a("y", 1));
        ok(2, 1, 10, r("x", 1L), a("y", 2));
        ok(3, 20, 30, r("y", 2L, 1L));
        CheckResult result = check();
        assertThat(result.anomalies()).extracting(Anomaly::type).containsExactly("G1c");
        assertThat(result.anomalies().get(0).txns()).containsExactlyInAnyOrder(1, 2);
        assertThat(result.unknownSeen()).isEqualTo(1);
    }

    @Test
    void anUnknownTransactionMayTakeEffectLongAfterItsInvocation() {
        // T1's client never heard back: its append may land after T2's read, however late T2 ran.
        txn(1, 0, 0, Outcome.UNKNOWN, a("x", 1));
        ok(2, 100, 110, r("x"));
        ok(3, 200, 210, r("x", 1L));
        assertThat(check().anomalies()).isEmpty();
    }

    @Test
    void theSameHistoryWithAKnownCompletionIsAStaleRead() {
        // The control for the test above: had T1 completed before T2 began, T2's empty read is stale.
        ok(1, 0, 50, a("x", 1));
        ok(2, 100, 110, r("x"));
        ok(3, 200, 210, r("x", 1L));
        assertThat(types()).containsExactly("G-single-realtime");
    }

    @Test
    void anUnknownTransactionStillTookEffectAfterWhatCompletedBeforeItsInvocation() {
        // T1 completed before T2 was invoked, yet a read orders T2's append first.
        ok(1, 0, 10, a("x", 1));
        txn(2, 20, 0, Outcome.UNKNOWN, a("x", 2));
        ok(3, 30, 40, r("x", 2L, 1L));
        assertThat(types()).containsExactly("G0-realtime");
    }

    @Test
    void anUnknownAppendThatNoReadShowsIsNeitherLostNorAnAbortedRead() {
        txn(1, 0, 0, Outcome.UNKNOWN, a("x", 1), MicroOp.read("y", null));
        ok(2, 100, 110, r("x"), r("y"));
        ok(3, 200, 210, a("x", 2));
        ok(4, 300, 310, r("x", 2L));
        CheckResult result = check();
        assertThat(result.anomalies()).isEmpty();
        assertThat(result.unknownSeen()).isZero();
    }

    @Test
    void anIntermediateReadOfAnUnknownWriterIsG1b() {
        txn(1, 0, 0, Outcome.UNKNOWN, a("x", 1), a("x", 2));
        ok(2, 5, 10, r("x", 1L));
        assertThat(types()).contains("G1b");
    }

    @Test
    void aFailedTransactionIsCertainlyBackedOutButAnUnknownOneIsNot() {
        txn(1, 0, 10, Outcome.FAILED, a("x", 1));
        txn(2, 0, 0, Outcome.UNKNOWN, a("y", 1));
        ok(3, 20, 30, r("x", 1L), r("y", 1L));
        assertThat(check().anomalies()).extracting(Anomaly::type).containsExactly("G1a");
        assertThat(check().anomalies().get(0).txns()).containsExactlyInAnyOrder(1, 3);
    }

    @Test
    void journalsKeepEachTransactionsLastRecordAndSkipALineCutShortByAKill(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.journal");
        ListAppendWorkload.Journal journal = History.journal(file);
        journal.record(new Txn(1, 0, 10, Txn.NEVER, Outcome.UNKNOWN, List.of(a("x", 1), MicroOp.read("y", null))));
        journal.record(new Txn(2, 1, 11, Txn.NEVER, Outcome.UNKNOWN, List.of(a("x", 2))));
        journal.record(new Txn(1, 0, 10, 20, Outcome.OK, List.of(a("x", 1), r("y", 7L))));
        // The kill came in the middle of T2's completion record: without its end, it must not count.
        java.nio.file.Files.writeString(file, "2 1 11 30 OK a:x:2 r:y:7,", java.nio.file.StandardOpenOption.APPEND);
        Map<Integer, Txn> read = new HashMap<>();
        History.readJournals(List.of(file)).txns().forEach(t -> read.put(t.id(), t));
        assertThat(read.get(1).outcome()).isEqualTo(Outcome.OK);
        assertThat(read.get(1).ops().get(1).read()).containsExactly(7L);
        assertThat(read.get(2).outcome()).isEqualTo(Outcome.UNKNOWN);
        assertThat(read.get(2).completedAt()).isEqualTo(Txn.NEVER);
    }

    @Test
    void aLineCutShortInTheMiddleOfAJournalIsAnError(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.journal");
        java.nio.file.Files.writeString(file, "1 0 10 - UNKNOWN a:x:1\n2 0 12 - UNKNOWN a:x:2 .\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> History.readJournals(List.of(file)))
                .hasMessageContaining("client.journal:1").hasMessageContaining("cut short");
    }

    @Test
    void writeCycleIsG0() {
        ok(1, 0, 10, a("x", 1), a("y", 1));
        ok(2, 0, 10, a("x", 2), a("y", 2));
        ok(3, 20, 30, r("x", 1L, 2L), r("y", 2L, 1L));
        Anomaly anomaly = check().anomalies().get(0);
        assertThat(anomaly.type()).isEqualTo("G0");
        assertThat(anomaly.txns()).containsExactlyInAnyOrder(1, 2);
        assertThat(anomaly.explanation()).contains("-ww x->", "-ww y->");
    }

    @Test
    void readOfAFailedAppendIsG1a() {
        txn(1, 0, 10, Outcome.FAILED, a("x", 1));
        ok(2, 20, 30, r("x", 1L));
        assertThat(types()).containsExactly("G1a");
    }

    @Test
    void readOfAnIntermediateStateIsG1b() {
        ok(1, 0, 10, a("x", 1), a("x", 2));
        ok(2, 0, 10, r("x", 1L));
        assertThat(types()).contains("G1b");
    }

    @Test
    void circularInformationFlowIsG1c() {
        ok(1, 0, 10, a("x", 1), r("y", 1L));
        ok(2, 0, 10, a("y", 1), r("x", 1L));
        Anomaly anomaly = check().anomalies().get(0);
        assertThat(anomaly.type()).isEqualTo("G1c");
        assertThat(anomaly.explanation()).contains("-wr x->", "-wr y->");
    }

    @Test
    void readSkewIsGSingle() {
        ok(1, 0, 10, a("x", 1), a("y", 1));
        ok(2, 0, 10, r("x"), r("y", 1L));
        ok(3, 20, 30, r("x", 1L), r("y", 1L));
        Anomaly anomaly = check().anomalies().get(0);
        assertThat(anomaly.type()).isEqualTo("G-single");
        assertThat(anomaly.txns()).containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void writeSkewIsG2() {
        ok(1, 0, 10, r("x"), a("y", 1));
        ok(2, 0, 10, r("y"), a("x", 1));
        ok(3, 20, 30, r("x", 1L), r("y", 1L));
        Anomaly anomaly = check().anomalies().get(0);
        assertThat(anomaly.type()).isEqualTo("G2");
        assertThat(anomaly.explanation()).contains("-rw x->", "-rw y->");
    }

    @Test
    void staleReadAfterACompletedAppendIsARealTimeViolation() {
        ok(1, 0, 10, a("x", 1));
        ok(2, 20, 30, r("x"));
        ok(3, 40, 50, r("x", 1L));
        Anomaly anomaly = check().anomalies().get(0);
        assertThat(anomaly.type()).isEqualTo("G-single-realtime");
        assertThat(anomaly.explanation()).contains("-realtime->", "-rw x->");
    }

    @Test
    void realTimeEdgesReachThroughTheFrontier() {
        // T1 precedes T3 only through T2 (T2 completed after T1 and before T3 began); T3's stale read needs that chain.
        ok(1, 0, 10, a("x", 1));
        ok(2, 11, 20, a("y", 1));
        ok(3, 30, 40, r("x"));
        ok(4, 50, 60, r("x", 1L));
        assertThat(types()).containsExactly("G-single-realtime");
    }

    @Test
    void readsThatDisagreeOnOrderAreIncompatible() {
        ok(1, 0, 10, a("x", 1));
        ok(2, 0, 10, a("x", 2));
        ok(3, 20, 30, r("x", 1L, 2L));
        ok(4, 20, 30, r("x", 2L, 1L));
        // Each read still orders the writers: T1 before T2 and T2 before T1.
        assertThat(types()).containsExactlyInAnyOrder("incompatible-order", "G0");
    }

    @Test
    void consistencyFailuresAreReported() {
        ok(1, 0, 10, a("x", 1));
        ok(2, 0, 10, a("x", 1));
        ok(3, 20, 30, r("y", 5L));
        ok(4, 20, 30, a("z", 1), r("z"));
        ok(5, 20, 30, r("w", 1L, 1L));
        txn(6, 0, 1, Outcome.OK, a("w", 1));
        assertThat(types()).contains("duplicate-append", "garbage-read", "internal", "duplicate-elements");
    }

    @Test
    void appendThatALaterReadMissesIsLost() {
        ok(1, 0, 10, a("x", 1));
        ok(2, 20, 30, r("x"));
        assertThat(types()).containsExactly("lost-append");
    }

    @Test
    void summaryShowsEveryTypeThoughOneTypeIsMany() {
        for (int i = 0; i < 5; i++) {
            ok(10 + i, 0, 10, a("lost" + i, 1));
            ok(20 + i, 20, 30, r("lost" + i));
        }
        ok(1, 0, 10, a("x", 1), a("y", 1));
        ok(2, 0, 10, a("x", 2), a("y", 2));
        ok(3, 20, 30, r("x", 1L, 2L), r("y", 2L, 1L));
        String summary = check().summary(2);
        assertThat(summary).contains("6 anomalies {G0=1, lost-append=5}", "G0: cycle", "... and 3 more");
    }

    @Test
    void historySurvivesItsTextForm(@TempDir Path dir) throws Exception {
        ok(1, 0, 10, a("x", 1), r("y"), r("x", 1L));
        txn(2, 5, 0, Outcome.UNKNOWN, a("y", 2), MicroOp.read("y", null));
        txn(3, 6, 9, Outcome.FAILED, a("z", 3));
        Path file = dir.resolve("history.txt");
        new History(txns).write(file);
        assertThat(History.read(file).txns()).isEqualTo(txns);
    }

    /**
     * Random histories that some strictly serializable execution produced (each transaction
     * takes effect at one instant between its invocation and completion) pass, whatever their
     * overlaps, failures and unknown outcomes.
     */
    @Test
    void linearizableRandomHistoriesAreValid() {
        for (long seed = 1; seed <= 50; seed++) {
            txns.clear();
            generateSerializable(new Random(seed), 300);
            CheckResult result = check();
            assertThat(result.anomalies()).as("seed %d: %s", seed, result.summary(5)).isEmpty();
        }
    }

    private void generateSerializable(Random random, int count) {
        long[][] windows = new long[count][3];
        for (int i = 0; i < count; i++) {
            long invoked = random.nextInt(10_000);
            int outcome = random.nextInt(8) == 0 ? 1 + random.nextInt(2) : 0;
            // One whose client never heard back may take effect long after (a client killed mid-commit).
            long effect = invoked + random.nextInt(outcome == Outcome.UNKNOWN.ordinal() ? 5_000 : 50);
            windows[i] = new long[] {effect, invoked, effect + random.nextInt(50), i, outcome};
        }
        Arrays.sort(windows, (x, y) -> Long.compare(x[0], y[0]));
        Map<String, List<Long>> state = new HashMap<>();
        long nextValue = 1;
        for (long[] window : windows) {
            Outcome outcome = Outcome.values()[(int) window[4]];
            List<MicroOp> ops = new ArrayList<>();
            Map<String, List<Long>> view = new HashMap<>();
            for (int op = 0; op < 1 + random.nextInt(4); op++) {
                String key = "k" + random.nextInt(6);
                List<Long> current = view.computeIfAbsent(key, k -> new ArrayList<>(state.getOrDefault(k, List.of())));
                if (random.nextBoolean()) {
                    current.add(nextValue);
                    ops.add(MicroOp.append(key, nextValue++));
                } else {
                    ops.add(MicroOp.read(key, outcome == Outcome.OK ? List.copyOf(current) : null));
                }
            }
            // A failed transaction left nothing; an unknown one happened to commit half of the time.
            if (outcome == Outcome.OK || (outcome == Outcome.UNKNOWN && random.nextBoolean())) {
                state.putAll(view);
            }
            txns.add(new Txn((int) window[3], (int) window[3], window[1], window[2], outcome, ops));
        }
    }
}
