package dev.waldo.runtime.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.core.StorageRecord;
import dev.waldo.runtime.core.TxnId;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The simulation's storage: it survives a restart, and a crash can tear its last write. */
class InMemoryStorageTest {
    private static final StorageRecord A = new StorageRecord.Committed(new TxnId(1, 1), Set.of(2));
    private static final StorageRecord B = new StorageRecord.Ended(new TxnId(2, 5), false);
    private static final StorageRecord C = new StorageRecord.Forgotten(new TxnId(1, 1));

    @Test
    void aTornWriteKeepsTheWholeRecordsBeforeItAndIsOverwrittenByTheNextRun() {
        InMemoryStorage storage = new InMemoryStorage();
        assertThat(storage.load()).isEmpty();
        assertThat(storage.hasEarlierRuns()).isFalse();
        storage.append(List.of(A));
        storage.crashDuringNextAppend(1, 5);

        assertThatThrownBy(() -> storage.append(List.of(B, C))).isInstanceOf(InMemoryStorage.SimulatedCrash.class);

        assertThat(storage.load()).as("the torn C is dropped").containsExactly(A, B);
        assertThat(storage.hasEarlierRuns()).isTrue();
        storage.append(List.of(C));
        assertThat(storage.load()).containsExactly(A, B, C);
    }

    @Test
    void aCrashAfterTheWholeWriteKeepsItAll() {
        InMemoryStorage storage = new InMemoryStorage();
        storage.load();
        storage.crashDuringNextAppend(2, 0);

        assertThatThrownBy(() -> storage.append(List.of(A, B))).isInstanceOf(InMemoryStorage.SimulatedCrash.class);

        assertThat(storage.load()).containsExactly(A, B);
    }

    @Test
    void aCrashInAnFsyncLosesWhatWasWrittenSinceTheLastOneAndKeepsWhatItCovered() {
        InMemoryStorage storage = new InMemoryStorage(Storage.Commit.GROUP);
        storage.load();
        StorageRecord durable = new StorageRecord.Committed(new TxnId(1, 1), Set.of(2));
        StorageRecord lost = new StorageRecord.Committed(new TxnId(1, 2), Set.of(2));
        storage.awaitDurable(storage.write(List.of(durable)));
        long ticket = storage.write(List.of(lost));
        storage.crashAtNextSync();

        assertThatThrownBy(() -> storage.awaitDurable(ticket)).isInstanceOf(InMemoryStorage.SimulatedCrash.class)
                .hasMessageContaining("never durable");
        assertThat(storage.load()).containsExactly(durable);
    }
}
