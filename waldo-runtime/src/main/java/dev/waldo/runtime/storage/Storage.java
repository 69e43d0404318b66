package dev.waldo.runtime.storage;

import dev.waldo.runtime.core.StorageRecord;
import java.util.List;

/**
 * Where a host keeps what must survive a crash: the {@link StorageRecord}s
 * its core asks for. Like etcd/raft's Storage, with its one rule for the
 * caller: records handed to {@link #append} are durable when it returns, and
 * only then may the messages that depend on them be sent. For group commit,
 * the two halves of {@code append} are apart: {@link #write} returns at once,
 * {@link #awaitDurable} waits for the fsync that covers the write.
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
     * How a host waits for its records to become durable.
     * {@link #EACH}: every drain is written and fsynced under the host's lock, one fsync per
     * drain (the simplest; commits on one host are serialized by their fsyncs).
     * {@link #GROUP}: group commit. The host writes each drain's records without waiting,
     * keeps the drain's decisions and messages back, and one fsync covers every record
     * written before it began; the drains it covers are then applied and sent, in order. An
     * idle host fsyncs at once (no timer holds a lone transaction back); under load, the
     * transactions that arrive while an fsync runs share the next one.
     */
    enum Commit {
        /** One fsync per drain, under the host's lock. */
        EACH,
        /** Group commit: one fsync for every drain written before it began. */
        GROUP
    }

    /**
     * How the host that uses this storage should wait for durability (see {@link Commit}); a
     * storage that only implements {@link #append} is {@link Commit#EACH}.
     */
    default Commit commit() {
        return Commit.EACH;
    }

    /**
     * Writes {@code records} after every record written before, without waiting for them to
     * be durable, and returns a ticket: {@link #awaitDurable} with it returns once they (and
     * every record written before them) are durable. Nothing that depends on them may be sent
     * before that. With no records, returns the ticket of what was written before. By default
     * it {@linkplain #append appends} (durable at once) and returns a ticket that needs no wait:
     * storages that group commits override it and {@link #awaitDurable}.
     *
     * @throws StorageException if they could not be written: the caller must not send what
     *     depends on them, and should stop as if it crashed
     */
    default long write(List<StorageRecord> records) {
        append(records);
        return 0;
    }

    /**
     * Blocks until every record written up to {@code ticket} is durable. One fsync covers
     * every record written before it began, so callers that wait together share it. Call it
     * outside any lock that writers take, or there is nothing to share.
     *
     * @throws StorageException if the records could not be made durable (the same for every
     *     waiter from then on): the caller must not send what depends on them, and should stop
     */
    default void awaitDurable(long ticket) {
        // The default write appended, so what it wrote is durable already.
    }

    /**
     * Makes {@code records} durable, in order, before returning; may compact away the records
     * of attempts that were forgotten. A storage with group commit implements it as
     * {@link #write} then {@link #awaitDurable}.
     *
     * @throws StorageException if they could not be made durable: the caller must not send
     *     what depends on them, and should stop as if it crashed
     */
    void append(List<StorageRecord> records);

    /** Releases the storage (files, locks); what was appended stays durable. */
    @Override
    void close();
}
