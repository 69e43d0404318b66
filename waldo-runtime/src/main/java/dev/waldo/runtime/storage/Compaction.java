package dev.waldo.runtime.storage;

import dev.waldo.runtime.core.StorageRecord;
import java.util.List;

/**
 * When a log is worth rewriting: once enough attempts were forgotten that
 * most of it is dead. Both storages keep a mirror of their records and ask
 * this after every append.
 */
final class Compaction {
    /** Below this many forgotten attempts a rewrite is not worth its fsyncs. */
    static final int MIN_FORGOTTEN = 256;

    private int forgotten;

    /**
     * Starts the count afresh from a log just loaded: the forgotten attempts earlier runs left in
     * it count too. Counting only this run's, a host that runs briefly and often (an operator's
     * coordinator slot, one run per command) never reached the threshold, and its log, and the
     * records every run takes up, grew without end.
     */
    void loaded(List<StorageRecord> records) {
        forgotten = 0;
        appended(records);
    }

    /** Counts the forgotten attempts among {@code appended}. */
    void appended(List<StorageRecord> appended) {
        for (StorageRecord record : appended) {
            if (record instanceof StorageRecord.Forgotten) {
                forgotten++;
            }
        }
    }

    /** True if a log of {@code records} records should be rewritten to its live ones now. */
    boolean due(int records) {
        return forgotten >= MIN_FORGOTTEN && forgotten * 4 >= records;
    }

    /** The log was rewritten to records of attempts that are not forgotten. */
    void done() {
        forgotten = 0;
    }
}
