package dev.waldo.runtime.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.core.StorageRecord;
import dev.waldo.runtime.core.TxnId;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file-backed log: records survive a reopen, a torn last write is dropped, compaction keeps what is live. */
class FileStorageTest {
    private static final TxnId T1 = new TxnId(1, 7);
    private static final TxnId T2 = new TxnId(2, 9);
    private static final StorageRecord PREPARED = new StorageRecord.Prepared(T1, 1, Set.of(3, 4),
            List.of(LockId.whole(5, "vlans")), new byte[] {1, 2, 3});
    private static final StorageRecord COMMITTED = new StorageRecord.Committed(T2, Set.of(1, 3));

    @TempDir
    Path directory;

    @Test
    void recordsSurviveAReopenInTheOrderWritten() {
        try (FileStorage storage = FileStorage.open(directory)) {
            assertThat(storage.load()).isEmpty();
            assertThat(storage.hasEarlierRuns()).as("a new directory has no history").isFalse();
            storage.append(List.of(PREPARED, COMMITTED));
            storage.append(List.of(new StorageRecord.Ended(T1, true)));
        }
        try (FileStorage reopened = FileStorage.open(directory)) {
            assertThat(reopened.load()).containsExactly(PREPARED, COMMITTED, new StorageRecord.Ended(T1, true));
            assertThat(reopened.hasEarlierRuns()).isTrue();
        }
    }

    @Test
    void aTornLastWriteIsDroppedAndLaterWritesFollowTheGoodRecords() throws IOException {
        try (FileStorage storage = FileStorage.open(directory)) {
            storage.load();
            storage.append(List.of(PREPARED, COMMITTED));
        }
        Path log = directory.resolve(FileStorage.LOG);
        long whole = Files.size(log);
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
            channel.truncate(whole - 3); // the process died while writing the last record
        }
        try (FileStorage reopened = FileStorage.open(directory)) {
            assertThat(reopened.load()).containsExactly(PREPARED);
            reopened.append(List.of(new StorageRecord.Forgotten(T1)));
        }
        try (FileStorage again = FileStorage.open(directory)) {
            assertThat(again.load()).containsExactly(PREPARED, new StorageRecord.Forgotten(T1));
        }
    }

    @Test
    void aRecordWhoseChecksumDoesNotMatchEndsTheLog() throws IOException {
        try (FileStorage storage = FileStorage.open(directory)) {
            storage.load();
            storage.append(List.of(PREPARED));
            storage.append(List.of(COMMITTED));
        }
        Path log = directory.resolve(FileStorage.LOG);
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length - 1] ^= 0x40; // a garbled last sector
        Files.write(log, bytes);
        try (FileStorage reopened = FileStorage.open(directory)) {
            assertThat(reopened.load()).containsExactly(PREPARED);
        }
    }

    @Test
    void compactionDropsForgottenAttemptsAndKeepsTheRest() {
        List<StorageRecord> forgotten = new ArrayList<>();
        for (int serial = 100; serial < 100 + Compaction.MIN_FORGOTTEN; serial++) {
            TxnId txn = new TxnId(3, serial);
            forgotten.add(new StorageRecord.Committed(txn, Set.of(1)));
            forgotten.add(new StorageRecord.Forgotten(txn));
        }
        long bytesBefore;
        try (FileStorage storage = FileStorage.open(directory)) {
            storage.load();
            storage.append(List.of(PREPARED));
            storage.append(forgotten.subList(0, forgotten.size() - 1));
            bytesBefore = storage.bytes();
            storage.append(forgotten.subList(forgotten.size() - 1, forgotten.size()));
            assertThat(storage.bytes()).as("rewritten to the live records").isLessThan(bytesBefore);
            storage.append(List.of(COMMITTED));
        }
        assertThat(directory.resolve("transactions.log.tmp")).doesNotExist();
        try (FileStorage reopened = FileStorage.open(directory)) {
            assertThat(reopened.load()).containsExactly(PREPARED, COMMITTED);
        }
    }

    /**
     * A host that runs briefly and often (an operator's coordinator slot: one run per command)
     * forgets a few attempts per run; the forgotten ones earlier runs left count too, so its log
     * is compacted instead of growing with every run, and with it what each run takes up.
     */
    @Test
    void forgottenAttemptsOfEarlierRunsCountTowardsCompaction() {
        int perRun = 4;
        int runs = 2 * Compaction.MIN_FORGOTTEN / perRun;
        for (int run = 0; run < runs; run++) {
            try (FileStorage storage = FileStorage.open(directory)) {
                storage.load();
                for (int i = 0; i < perRun; i++) {
                    TxnId txn = new TxnId(3, run * perRun + i);
                    storage.append(List.of(new StorageRecord.Committed(txn, Set.of(1)), new StorageRecord.Forgotten(txn)));
                }
            }
        }
        try (FileStorage reopened = FileStorage.open(directory)) {
            assertThat(reopened.load()).as("records left after %d runs of %d forgotten attempts each", runs, perRun)
                    .hasSizeLessThan(2 * Compaction.MIN_FORGOTTEN);
        }
    }

    @Test
    void aSecondHostCannotOpenTheSameDirectory() {
        try (FileStorage storage = FileStorage.open(directory)) {
            assertThatThrownBy(() -> FileStorage.open(directory))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("another host has it open")
                    .hasMessageContaining(directory.toString());
        }
        FileStorage.open(directory).close(); // released with the first
    }

    @Test
    void writesMadeBeforeAnFsyncBeganShareItAndSurviveACrashAfterIt() throws Exception {
        int writers = 16;
        try (FileStorage storage = FileStorage.open(directory, Storage.Commit.GROUP)) {
            storage.load();
            CyclicBarrier allWritten = new CyclicBarrier(writers);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                StorageRecord record = new StorageRecord.Ended(new TxnId(1, i), true);
                threads.add(Thread.ofPlatform().start(() -> {
                    long ticket = storage.write(List.of(record));
                    await(allWritten); // every write is made before any fsync begins
                    storage.awaitDurable(ticket);
                }));
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(storage.syncs()).as("the first fsync covered every write made before it").isEqualTo(1);

            // A crash now (the process gone, the log as the disk holds it) loses none of them.
            Path copy = Files.createDirectory(directory.resolve("after-crash"));
            Files.copy(directory.resolve(FileStorage.LOG), copy.resolve(FileStorage.LOG));
            try (FileStorage restarted = FileStorage.open(copy)) {
                assertThat(restarted.load()).hasSize(writers);
            }
        }
    }

    @Test
    void anEarlierTicketIsDurableWithoutAnotherFsync() {
        try (FileStorage storage = FileStorage.open(directory, Storage.Commit.GROUP)) {
            storage.load();
            long first = storage.write(List.of(PREPARED));
            long second = storage.write(List.of(COMMITTED));
            storage.awaitDurable(second);
            storage.awaitDurable(first);
            assertThat(storage.syncs()).isEqualTo(1);
            assertThat(storage.write(List.of())).as("nothing written: the last ticket").isEqualTo(second);
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (InterruptedException | BrokenBarrierException e) {
            throw new IllegalStateException("a writer was interrupted", e);
        }
    }
}
