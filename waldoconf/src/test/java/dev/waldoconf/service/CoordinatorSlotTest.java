package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coordinator slots: sessions at the same time get different hosts, and a session after one that
 * ended (or died) runs as that one's host with its log, which is what lets it settle what a killed
 * command left undecided (the end-to-end case is the CLI's OperatorKilledMidCommitTest).
 */
class CoordinatorSlotTest {
    @TempDir
    Path operatorState;

    @Test
    void sessionsAtTheSameTimeTakeDifferentSlots() {
        try (CoordinatorSlot first = CoordinatorSlot.claim(operatorState);
                CoordinatorSlot second = CoordinatorSlot.claim(operatorState)) {
            assertThat(first.run()).isEqualTo("slot-0");
            assertThat(second.run()).isEqualTo("slot-1");
            first.storage().close();
            second.storage().close();
        }
    }

    @Test
    void theNextSessionTakesTheFreedSlotWithTheLogItsPredecessorWrote() {
        CoordinatorSlot first = CoordinatorSlot.claim(operatorState);
        assertThat(first.storage().hasEarlierRuns()).as("a new slot's log has no earlier runs").isFalse();
        first.storage().close();
        first.close();

        try (CoordinatorSlot next = CoordinatorSlot.claim(operatorState)) {
            assertThat(next.run()).isEqualTo("slot-0");
            assertThat(next.storage().hasEarlierRuns())
                    .as("the log of the session before, so attempts it never logged as committed are presumed aborted")
                    .isTrue();
            next.storage().close();
        }
    }
}
