package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Claret's abstract locks in the core: which modes share a lock, how
 * wound-wait treats shared holders and upgrades, and phases of commuting
 * requests with their cap. Attempts begun earlier are older (they outrank
 * later ones); the first is its endpoint's primary.
 */
class LockModesTest {
    private final HostCore core = new HostCore(1);

    private static LockId x(LockMode mode) {
        return LockId.whole(1, "x", mode);
    }

    private static LockId key(String key, LockMode mode) {
        return LockId.key(1, "m", key, mode);
    }

    /** What the core decided since the last look, as "granted T" and "wounded T" lines for the attempts given. */
    private List<String> decisions(TxnId... names) {
        List<String> seen = new ArrayList<>();
        for (Decision decision : core.drain().decisions()) {
            switch (decision) {
                case Decision.Granted g -> seen.add("granted " + name(g.txn(), names));
                case Decision.Wounded w -> seen.add("wounded " + name(w.txn(), names));
                default -> { }
            }
        }
        return seen;
    }

    private static String name(TxnId txn, TxnId... names) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(txn)) {
                return "T" + (i + 1);
            }
        }
        return txn.toString();
    }

    @Test
    void compatibilityMatrix() {
        for (LockMode a : LockMode.values()) {
            for (LockMode b : LockMode.values()) {
                boolean shared = a == b && a != LockMode.WRITE;
                assertThat(a.compatibleWith(b)).as(a + " with " + b).isEqualTo(shared);
                assertThat(x(a).conflictsWith(x(b))).as(a + " against " + b).isEqualTo(!shared);
            }
        }
        // A whole read of a map shares with key reads and conflicts with a key's writes and adds.
        LockId wholeRead = LockId.whole(1, "m", LockMode.READ);
        assertThat(wholeRead.conflictsWith(key("k", LockMode.READ))).isFalse();
        assertThat(wholeRead.conflictsWith(key("k", LockMode.WRITE))).isTrue();
        assertThat(wholeRead.conflictsWith(key("k", LockMode.ADD))).isTrue();
        assertThat(key("k1", LockMode.WRITE).conflictsWith(key("k2", LockMode.WRITE))).isFalse();
        assertThat(key("k1", LockMode.ADD).conflictsWith(key("k1", LockMode.ADD))).isFalse();
    }

    @Test
    void readersShareAndAYoungerWriterWaitsWithoutWounding() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        TxnId t3 = core.begin(1);
        assertThat(core.lock(t1, x(LockMode.READ))).isTrue();
        assertThat(core.lock(t2, x(LockMode.READ))).isTrue();
        assertThat(core.lock(t3, x(LockMode.WRITE))).isFalse();
        assertThat(decisions(t1, t2, t3)).isEmpty();
    }

    @Test
    void anOlderWriterWoundsEveryYoungerReader() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        TxnId t3 = core.begin(1);
        assertThat(core.lock(t2, x(LockMode.READ))).isTrue();
        assertThat(core.lock(t3, x(LockMode.READ))).isTrue();
        assertThat(core.lock(t1, x(LockMode.WRITE))).isFalse();
        assertThat(decisions(t1, t2, t3)).containsExactlyInAnyOrder("wounded T2", "wounded T3");
        core.finishRoot(t2, HostCore.Ending.WOUNDED);
        assertThat(decisions(t1, t2, t3)).doesNotContain("granted T1");
        core.finishRoot(t3, HostCore.Ending.WOUNDED);
        assertThat(decisions(t1, t2, t3)).contains("granted T1");
    }

    @Test
    void addersShareButAReadOfTheWholeValueWaitsForThem() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        TxnId t3 = core.begin(1);
        assertThat(core.lock(t1, x(LockMode.ADD))).isTrue();
        assertThat(core.lock(t2, x(LockMode.ADD))).isTrue();
        assertThat(core.lock(t3, x(LockMode.READ))).isFalse();
        assertThat(core.lock(t3, x(LockMode.APPEND))).isFalse();
    }

    /**
     * Appends share a list, as adds share a counter (their order of install is settled by the
     * commits' stamps, see AppendOrderTest); a read of the list waits for them.
     */
    @Test
    void appendersShareAListAndAReaderWaitsForThem() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        TxnId t3 = core.begin(1);
        assertThat(core.lock(t1, x(LockMode.APPEND))).isTrue();
        assertThat(core.lock(t2, x(LockMode.APPEND))).isTrue();
        assertThat(core.lock(t3, x(LockMode.READ))).isFalse();
        assertThat(core.lock(t3, x(LockMode.ADD))).isFalse();
    }

    /**
     * The lock table finds a key's holders through its index by key (a transaction holding many
     * keys of a map used to be scanned whole for every request): the same key and a whole lock
     * still block, other keys do not.
     */
    @Test
    void manyHeldKeysBlockOnlyTheirOwnKeyAndWholeLocksStillBlock() {
        TxnId holder = core.begin(1);
        for (int k = 0; k < 1_000; k++) {
            assertThat(core.lock(holder, key("k" + k, LockMode.WRITE))).isTrue();
        }
        assertThat(core.lock(core.begin(1), key("k1000", LockMode.WRITE))).as("a key nobody holds").isTrue();
        assertThat(core.lock(core.begin(1), key("k500", LockMode.READ))).as("a held key").isFalse();
        assertThat(core.lock(core.begin(1), LockId.whole(1, "m", LockMode.READ))).as("the whole map").isFalse();
        TxnId wholeReader = core.begin(1);
        TxnId writer = core.begin(1);
        assertThat(core.lock(wholeReader, LockId.whole(1, "n", LockMode.READ))).isTrue();
        assertThat(core.lock(writer, LockId.key(1, "n", "x", LockMode.WRITE))).as("a key under a whole read").isFalse();
    }

    /** Two readers that both upgrade: wound-wait lets the older one wound the younger, so neither deadlocks. */
    @Test
    void upgradesFromReadToWriteAreDecidedByWoundWait() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        assertThat(core.lock(t1, x(LockMode.READ))).isTrue();
        assertThat(core.lock(t2, x(LockMode.READ))).isTrue();
        assertThat(core.lock(t2, x(LockMode.WRITE))).isFalse(); // the younger waits for the older reader
        assertThat(decisions(t1, t2)).isEmpty();
        assertThat(core.lock(t1, x(LockMode.WRITE))).isFalse(); // the older wounds the younger
        assertThat(decisions(t1, t2)).containsExactly("wounded T2");
        core.finishRoot(t2, HostCore.Ending.WOUNDED);
        assertThat(decisions(t1, t2)).containsExactly("granted T1");
    }

    @Test
    void aWriteLockCoversLaterRequestsOfTheSameAttempt() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        assertThat(core.lock(t1, x(LockMode.WRITE))).isTrue();
        assertThat(core.lock(t1, x(LockMode.ADD))).isTrue();
        assertThat(core.lock(t1, x(LockMode.READ))).isTrue();
        assertThat(core.lock(t2, x(LockMode.ADD))).isFalse();
    }

    /**
     * T1 adds; T2 (younger) wants to write and waits; newcomers that add join
     * T1's phase ahead of T2, up to the cap; the next one queues behind T2.
     * Two ticks later T2 wounds the phase's holders it outranks (not T1).
     */
    @Test
    void aPhaseOfAddersOvertakesAWaitingWriterUpToItsCapThenTheWriterWoundsIt() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        assertThat(core.lock(t1, x(LockMode.ADD))).isTrue();
        assertThat(core.lock(t2, x(LockMode.WRITE))).isFalse();
        List<TxnId> phase = new ArrayList<>();
        for (int i = 0; i < LockTable.PHASE_CAP; i++) {
            TxnId adder = core.begin(1);
            assertThat(core.lock(adder, x(LockMode.ADD))).as("adder " + i).isTrue();
            phase.add(adder);
        }
        TxnId late = core.begin(1);
        assertThat(core.lock(late, x(LockMode.ADD))).isFalse();
        assertThat(decisions(t1, t2)).isEmpty();
        core.tick();
        assertThat(decisions(t1, t2)).isEmpty();
        core.tick();
        List<String> wounded = decisions(t1, t2);
        assertThat(wounded).hasSize(LockTable.PHASE_CAP).doesNotContain("wounded T1");
        for (TxnId adder : phase) {
            core.finishRoot(adder, HostCore.Ending.WOUNDED);
        }
        core.finishRoot(t1, HostCore.Ending.DONE);
        core.vote(t1, true, null); // its own part, no bindings: it installs and releases
        assertThat(decisions(t1, t2)).contains("granted T2").doesNotContain("granted " + late);
    }

    /**
     * T reads x in a phase that overtook the older waiter W, then asks to upgrade and queues
     * behind W, which waits for T's read. When the primary P ends and T becomes endpoint 1's
     * primary, W can no longer wound T: T's upgrade is looked at again and granted, instead of
     * both waiting for ever (the deterministic simulation found it, seed 3528).
     */
    @Test
    void aPromotedUpgraderIsNoLongerHeldBackByAWaiterItNowOutranks() {
        TxnId p = core.begin(1); // endpoint 1's primary
        TxnId q = core.begin(2); // endpoint 2's primary
        TxnId w = core.begin(2);
        TxnId t = core.begin(1); // endpoint 1's next root: promoted when p ends
        assertThat(core.lock(p, x(LockMode.READ))).isTrue();
        assertThat(core.lock(w, x(LockMode.WRITE))).as("W waits for the primary's read").isFalse();
        assertThat(core.lock(t, x(LockMode.READ))).as("T joins the running read phase").isTrue();
        assertThat(core.lock(t, x(LockMode.WRITE))).as("T's upgrade waits for P").isFalse();
        assertThat(decisions(p, q, w, t)).isEmpty();
        core.finishRoot(p, HostCore.Ending.DONE);
        core.vote(p, true, null); // its own part, no bindings: it installs, releases and T is promoted
        assertThat(decisions(p, q, w, t)).contains("granted T4").doesNotContain("granted T3");
        core.finishRoot(q, HostCore.Ending.FAILED);
    }

    @Test
    void withoutPhasingANewcomerNeverOvertakesAnOutrankingWaiter() {
        LockTable table = new LockTable(false);
        TxnRecord t1 = new TxnRecord(new TxnId(1, 1), new Priority(false, 1, 1, 1));
        TxnRecord t2 = new TxnRecord(new TxnId(1, 2), new Priority(false, 2, 1, 2));
        TxnRecord t3 = new TxnRecord(new TxnId(1, 3), new Priority(false, 3, 1, 3));
        assertThat(table.tryHold(t1, x(LockMode.ADD))).isTrue();
        table.enqueue(t2, x(LockMode.WRITE));
        assertThat(table.tryHold(t3, x(LockMode.ADD))).isFalse();
    }
}
