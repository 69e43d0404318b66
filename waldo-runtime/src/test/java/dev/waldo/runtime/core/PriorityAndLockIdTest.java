package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The order wound-wait uses and which locks conflict. */
class PriorityAndLockIdTest {
    @Test
    void primaryBeatsStandardWhateverTheTimestamps() {
        Priority primary = new Priority(true, 900, 2, 7);
        Priority olderStandard = new Priority(false, 1, 1, 1);
        assertThat(primary.beats(olderStandard)).isTrue();
        assertThat(olderStandard.beats(primary)).isFalse();
    }

    @Test
    void withinAClassOlderThenLowerHostThenLowerRootWins() {
        assertThat(new Priority(false, 5, 9, 9).beats(new Priority(false, 6, 1, 1))).isTrue();
        assertThat(new Priority(false, 5, 1, 9).beats(new Priority(false, 5, 2, 1))).isTrue();
        assertThat(new Priority(false, 5, 1, 1).beats(new Priority(false, 5, 1, 2))).isTrue();
    }

    @Test
    void attemptsOfOneRootNeitherBeatNorLoseToEachOther() {
        Priority attempt = new Priority(false, 5, 1, 3);
        assertThat(attempt.beats(new Priority(false, 5, 1, 3))).isFalse();
    }

    @Test
    void wholeMapLockConflictsWithEveryKeyButKeysOnlyWithThemselves() {
        LockId whole = LockId.whole(1, "table");
        LockId k1 = LockId.key(1, "table", "k1");
        LockId k2 = LockId.key(1, "table", "k2");
        assertThat(whole.conflictsWith(k1)).isTrue();
        assertThat(k2.conflictsWith(whole)).isTrue();
        assertThat(k1.conflictsWith(k2)).isFalse();
        assertThat(k1.conflictsWith(LockId.key(1, "table", "k1"))).isTrue();
        assertThat(k1.wholeLock()).isEqualTo(whole);
    }

    @Test
    void locksOfDifferentVariablesOrObjectsNeverConflict() {
        assertThat(LockId.whole(1, "x").conflictsWith(LockId.whole(1, "y"))).isFalse();
        assertThat(LockId.whole(1, "x").conflictsWith(LockId.whole(2, "x"))).isFalse();
    }
}
