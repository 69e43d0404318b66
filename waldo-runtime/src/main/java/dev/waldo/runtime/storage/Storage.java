package dev.waldo.runtime.storage;

import dev.waldo.runtime.core.StorageRecord;
import java.util.List;

/**
 * Where a host keeps what must survive a crash: the {@link StorageRecord}s
 * its core asks for. Like etcd/raft's Storage, with its one rule for the
 * caller: records handed to {@link #append} are durable when it returns, and
 * only then may the messages that depend on them be sent.
 *
 * <p>Implementations: {@link FileStorage} (a log file in a directory, fsync
 * and atomic rename) and {@link InMemoryStorage} (for tests and the
 * deterministic simulation, which can crash it and tear its last write).
 * One host uses a storage at a time.
 */
public interface Storage extends AutoCloseable {
    /**
     * Every record that earlier runs made durable and did not compact away,
     * in the order written. A last write that a crash tore is detected and
     * ignored (it was never durable, so nothing that depended on it left).
     *
     * @throws StorageException if the records cannot be read
     */
    List<StorageRecord> load();

    /**
     * True if an earlier run of a host wrote to this storage: then an attempt
     * that host coordinated and did not log as committed was backed out
     * (presumed abort). False for storage that starts now.
     */
    boolean hasEarlierRuns();

    /**
     * Makes {@code records} durable, in order, before returning; may compact
     * away the records of attempts that were forgotten.
     *
     * @throws StorageException if they could not be made durable: the caller must not send
     *     what depends on them, and should stop as if it crashed
     */
    void append(List<StorageRecord> records);

    /** Releases the storage (files, locks); what was appended stays durable. */
    @Override
    void close();
}
