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
 *
 * <p>With {@link Storage.Commit#GROUP} it models an fsync too: bytes written
 * and not yet covered by an {@link #awaitDurable} are lost by a crash at the
 * next one ({@link #crashAtNextSync}), as a power failure loses what was only
 * in the page cache.
 */
public final class InMemoryStorage implements Storage {
    private final Commit commit;
    private byte[] log = new byte[0];
    private int length;
    /** Bytes of the log covered by an fsync; the rest a crash at the next fsync loses. */
    private int durableLength;
    private long written;
    private long durable;
    private long syncs;
    private boolean crashAtNextSync;
    private int runs;
    private final List<StorageRecord> mirror = new ArrayList<>();
    private final Compaction compaction = new Compaction();
    private int crashAfterRecords = -1;
    private int tornBytes;

    /** An empty storage, as on a host's first start, for a host that persists each drain under its lock. */
    public InMemoryStorage() {
        this(Commit.EACH);
    }

    /** An empty storage for a host that waits for durability as {@code commit} says. */
    public InMemoryStorage(Commit commit) {
        this.commit = commit;
    }

    /** The crash {@link InMemoryStorage#crashDuringNextAppend} arranged: the host dies in this write. */
    public static final class SimulatedCrash extends StorageException {
        SimulatedCrash(String what) {
            super("simulated crash " + what, null);
        }
    }

    @Override
    public synchronized List<StorageRecord> load() {
        runs++;
        RecordCodec.Decoded decoded = RecordCodec.decode(log, length);
        length = decoded.goodBytes(); // a torn tail was never durable: later writes go where it began
        durableLength = length;
        mirror.clear();
        mirror.addAll(decoded.records());
        compaction.loaded(decoded.records());
        return List.copyOf(decoded.records());
    }

    /** True if an earlier run loaded this storage before the current one. */
    @Override
    public synchronized boolean hasEarlierRuns() {
        return runs > 1;
    }

    /**
     * Arranges for the next {@link #write} (so the next {@link #append}) to die part-way, as a process
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

    /**
     * Arranges for the next {@link #awaitDurable} that has something to make durable to die
     * instead: what was written since the last fsync is lost, and it throws
     * {@link SimulatedCrash}, so the host stops before anything that depends on those records
     * leaves.
     */
    public synchronized void crashAtNextSync() {
        this.crashAtNextSync = true;
    }

    @Override
    public Commit commit() {
        return commit;
    }

    @Override
    public void append(List<StorageRecord> records) {
        awaitDurable(write(records));
    }

    @Override
    public synchronized long write(List<StorageRecord> records) {
        if (records.isEmpty()) {
            return written;
        }
        if (crashAfterRecords >= 0) {
            crashPartWay(records);
        }
        write(RecordCodec.encode(records));
        mirror.addAll(records);
        compaction.appended(records);
        written += records.size();
        return written;
    }

    @Override
    public synchronized void awaitDurable(long ticket) {
        if (durable >= ticket) {
            return;
        }
        if (crashAtNextSync) {
            crashAtNextSync = false;
            int lost = length - durableLength;
            length = durableLength; // the page cache is gone with the machine
            throw new SimulatedCrash("in an fsync; " + lost + " written bytes were never durable");
        }
        durableLength = length;
        durable = written;
        syncs++;
        if (compaction.due(mirror.size())) {
            List<StorageRecord> live = RecordCodec.live(mirror);
            log = RecordCodec.encode(live);
            length = log.length;
            durableLength = length;
            mirror.clear();
            mirror.addAll(live);
            compaction.done();
        }
    }

    /**
     * The records a restart would load now: in {@link Commit#GROUP} mode those an fsync
     * covered, else every record written. Unlike {@link #load}, it changes nothing.
     */
    public synchronized List<StorageRecord> durableRecords() {
        int durableBytes = commit == Commit.GROUP ? durableLength : length;
        return RecordCodec.decode(log, durableBytes).records();
    }

    /** Fsyncs modelled so far (awaits that had something to make durable). */
    public synchronized long syncs() {
        return syncs;
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
        throw new SimulatedCrash("after " + whole + " whole records and " + torn + " torn bytes");
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
