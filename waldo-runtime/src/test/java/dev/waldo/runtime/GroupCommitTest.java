package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.core.StorageRecord;
import dev.waldo.runtime.storage.FileStorage;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.storage.Storage;
import dev.waldo.runtime.testing.Node;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hosts whose storage groups commits ({@link Storage.Commit#GROUP}): many
 * transactions share fsyncs, nothing a returned commit depends on is lost,
 * and nothing leaves before the fsync that covers what it depends on.
 */
@Timeout(120)
class GroupCommitTest {
    private static final int THREADS = 8;
    private static final int BUMPS_PER_THREAD = 25;

    private final InMemoryNetwork network = new InMemoryNetwork();
    private final ExecutorService threads = Executors.newFixedThreadPool(THREADS);

    @TempDir
    Path directory;

    @AfterEach
    void close() {
        threads.shutdownNow();
        network.close();
    }

    @Test
    void concurrentCommitsAllCountAndEveryReturnedCommitIsInTheLogAfterACrash() throws Exception {
        FileStorage coordinatorLog = FileStorage.open(directory.resolve("h1"), Storage.Commit.GROUP);
        Host h1 = Host.inMemory(network, "h1", coordinatorLog);
        Host h2 = Host.inMemory(network, "h2", FileStorage.open(directory.resolve("h2"), Storage.Commit.GROUP));
        Host.Connection<Node, Node> pair = h1.connect(Node::create, h2, Node::create);
        long committedBefore = committedRecordsOnDisk(directory.resolve("h1"));

        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            workers.add(threads.submit(() -> {
                for (int i = 0; i < BUMPS_PER_THREAD; i++) {
                    pair.local().bump(1); // a two-host sequence: h2 logs its prepare, h1 its commit
                }
            }));
        }
        for (Future<?> worker : workers) {
            worker.get();
        }
        // What the disk holds right now, as a crash would find it: every commit that returned is there.
        long committedAfter = committedRecordsOnDisk(directory.resolve("h1"));

        int bumps = THREADS * BUMPS_PER_THREAD;
        assertThat(pair.local().committedValue("x")).isEqualTo((double) bumps);
        assertThat(pair.remote().committedValue("x")).isEqualTo((double) bumps);
        assertThat(committedAfter - committedBefore).as("one logged commit per returned root").isEqualTo(bumps);
        assertThat(coordinatorLog.syncs()).as("every commit was fsynced").isPositive();
        System.out.printf("group commit: %d two-host commits, %d fsyncs on the coordinator%n",
                bumps, coordinatorLog.syncs());
    }

    @Test
    void aCrashInTheFsyncBeforeAYesVoteSendsNothingAndTheTransactionDoesNotCommit() {
        InMemoryStorage participantLog = new InMemoryStorage(Storage.Commit.GROUP);
        InMemoryStorage coordinatorLog = new InMemoryStorage(Storage.Commit.GROUP);
        Host h1 = Host.inMemory(network, "h1", coordinatorLog);
        Host h2 = Host.inMemory(network, "h2", participantLog);
        Host.Connection<Node, Node> pair = h1.connect(Node::create, h2, Node::create);
        pair.local().bump(1);
        long committedBefore = committedRecords(coordinatorLog);

        participantLog.crashAtNextSync(); // h2 dies in the fsync of its next prepare
        assertThatThrownBy(() -> pair.local().bump(1))
                .as("h2 stopped, so the retry's call to it fails").isInstanceOf(NetworkException.class);

        assertThat(committedRecords(coordinatorLog)).as("no yes vote left h2, so h1 logged no commit")
                .isEqualTo(committedBefore);
        assertThat(pair.local().committedValue("x")).as("h1 backed its part out").isEqualTo(1.0);
        List<StorageRecord> survived = participantLog.durableRecords();
        assertThat(survived.stream().filter(StorageRecord.Prepared.class::isInstance).count())
                .as("only the first bump's prepare was ever durable on h2").isEqualTo(1);
    }

    private static long committedRecords(InMemoryStorage storage) {
        return storage.durableRecords().stream().filter(StorageRecord.Committed.class::isInstance).count();
    }

    /** Counts Committed records in a copy of the log file, as a restarted host would read it. */
    private long committedRecordsOnDisk(Path hostDirectory) throws IOException {
        Path copy = Files.createTempDirectory(directory, "crash");
        Files.copy(hostDirectory.resolve("transactions.log"), copy.resolve("transactions.log"));
        try (FileStorage restarted = FileStorage.open(copy)) {
            return restarted.load().stream().filter(StorageRecord.Committed.class::isInstance).count();
        }
    }
}
