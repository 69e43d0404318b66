package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Counting sets' commuting locks in the core: adders share the set, a reader (the whole lock)
 * waits for them, and adders wait for a reader.
 */
class CommutingLockTest {
    private static final long OBJECT = 1;
    private static final String TALLY = "visitors";

    @Test
    void addersHoldTheSetTogetherAndAReaderWaitsUntilTheyEnd() {
        HostCore core = new HostCore(1, 3);
        TxnId first = core.begin(OBJECT);
        TxnId second = core.begin(OBJECT);
        TxnId reader = core.begin(OBJECT);

        assertThat(core.lock(first, LockId.commuting(OBJECT, TALLY, first))).isTrue();
        assertThat(core.lock(second, LockId.commuting(OBJECT, TALLY, second)))
                .as("adds commute: the second adder is granted while the first holds the set").isTrue();
        assertThat(core.lock(reader, LockId.whole(OBJECT, TALLY)))
                .as("reading a count conflicts with every adder").isFalse();
        assertThat(core.waitingRequests()).isEqualTo(1);
        assertThat(core.undecidedWriters(LockId.whole(OBJECT, TALLY))).isEmpty(); // none voted yes yet
    }

    @Test
    void anAdderWaitsForAReaderThatHoldsTheWholeSet() {
        HostCore core = new HostCore(1, 3);
        TxnId reader = core.begin(OBJECT);
        TxnId adder = core.begin(OBJECT);

        assertThat(core.lock(reader, LockId.whole(OBJECT, TALLY))).isTrue();
        assertThat(core.lock(adder, LockId.commuting(OBJECT, TALLY, adder))).isFalse();
    }

    @Test
    void commutingLocksConflictOnlyWithTheWholeLockOfTheSameVariable() {
        TxnId a = new TxnId(1, 1);
        TxnId b = new TxnId(1, 2);
        LockId addA = LockId.commuting(OBJECT, TALLY, a);
        assertThat(addA.conflictsWith(LockId.commuting(OBJECT, TALLY, b))).isFalse();
        assertThat(addA.conflictsWith(LockId.whole(OBJECT, TALLY))).isTrue();
        assertThat(LockId.whole(OBJECT, TALLY).conflictsWith(addA)).isTrue();
        assertThat(addA.conflictsWith(LockId.whole(OBJECT, "other"))).isFalse();
        assertThat(addA.wholeLock()).isEqualTo(LockId.whole(OBJECT, TALLY));
    }
}
