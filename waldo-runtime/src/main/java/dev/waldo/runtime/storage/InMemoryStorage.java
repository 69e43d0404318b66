package dev.waldo.runtime.storage;

import dev.waldo.runtime.core.StorageRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link Storage} in memory: what was appended survives a host's restart
 * within the JVM (hand the same instance to the next run), nothing more. It
 * keeps the same framed bytes as {@link FileStorage}, so that the
 * deterministic simulation can crash a host in the middle of a write and
 * tear it ({@link #crashDuringNextAppend}), and the next {@link #load}
 * detects and drops the torn frame exactly as a file's would be.
 *
 * <p>The default storage of a {@code Host} that is given none: such a host
 * keeps its promises only as long as its JVM lives.
 */
public final class InMemoryStorage implements Storage {
    private byte[] log = new byte[0];
    private int length;
    private int runs;
    private final List<StorageRecord> mirror = new ArrayList<>();
    private final Compaction compaction = new Compaction();
    private int crashAfterRecords = -1;
    private int tornBytes;

    /** An empty storage, as on a host's first start. */
    public InMemoryStorage() {
        // Starts empty; load() counts the runs that use it.
    }

    /** The crash {@link InMemoryStorage#crashDuringNextAppend} arranged: the host dies in this write. */
    public static final class SimulatedCrash extends StorageException {
        SimulatedCrash(int whole, int torn) {
            super("simulated crash after " + whole + " whole records and " + torn + " torn bytes", null);
        }
    }

    @Override
    public synchronized List<StorageRecord> load() {
        runs++;
        RecordCodec.Decoded decoded = RecordCodec.decode(log, length);
        length = decoded.goodBytes(); // a torn tail was never durable: later writes go where it began
        mirror.clear();
        mirror.addAll(decoded.records());
        return List.copyOf(decoded.records());
    }

    /** True if an earlier run loaded this storage before the current one. */
    @Override
    public synchronized boolean hasEarlierRuns() {
        return runs > 1;
    }

    /**
     * Arranges for the next {@link #append} to die part-way, as a process
     * killed while writing: the first {@code wholeRecords} records are
     * written whole, then {@code tornBytes} bytes of the next one (if there is
     * one), and the append throws {@link SimulatedCrash}. With
     * {@code wholeRecords} at or above the records given, all of them are
     * durable and the host dies before sending anything.
     */
    public synchronized void crashDuringNextAppend(int wholeRecords, int tornBytes) {
        this.crashAfterRecords = wholeRecords;
        this.tornBytes = tornBytes;
    }

    @Override
    public synchronized void append(List<StorageRecord> records) {
        if (crashAfterRecords >= 0) {
            crashPartWay(records);
        }
        write(RecordCodec.encode(records));
        mirror.addAll(records);
        compaction.appended(records);
        if (compaction.due(mirror.size())) {
            List<StorageRecord> live = RecordCodec.live(mirror);
            log = RecordCodec.encode(live);
            length = log.length;
            mirror.clear();
            mirror.addAll(live);
            compaction.done();
        }
    }

    private void crashPartWay(List<StorageRecord> records) {
        int whole = Math.min(crashAfterRecords, records.size());
        crashAfterRecords = -1;
        write(RecordCodec.encode(records.subList(0, whole)));
        int torn = 0;
        if (whole < records.size()) {
            byte[] next = RecordCodec.encode(List.of(records.get(whole)));
            torn = Math.min(tornBytes, next.length - 1);
            write(Arrays.copyOf(next, torn));
        }
        throw new SimulatedCrash(whole, torn);
    }

    private void write(byte[] bytes) {
        if (length + bytes.length > log.length) {
            log = Arrays.copyOf(log, Math.max(2 * log.length, length + bytes.length));
        }
        System.arraycopy(bytes, 0, log, length, bytes.length);
        length += bytes.length;
    }

    /** How many bytes the log holds now (torn ones included), for tests of compaction. */
    public synchronized int bytes() {
        return length;
    }

    @Override
    public void close() {
        // Nothing to release: the records stay for the next run that is handed this instance.
    }
}
