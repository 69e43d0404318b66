package dev.waldo.runtime.storage;

import dev.waldo.runtime.core.StorageRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Storage} in a directory: one append-only log file,
 * {@code transactions.log}, of framed records (length and CRC32C per record,
 * see {@link RecordCodec}). {@link #write} appends records to the file,
 * {@link #awaitDurable} fsyncs it: one fsync covers every record written
 * before it began, and callers that wait while an fsync runs share the next
 * one (leader and followers on one lock), which is what group commit needs. A torn last write (the process died in it) is
 * detected at {@link #load} and cut off. Compaction writes the live records
 * to {@code transactions.log.tmp}, fsyncs it, renames it over the log
 * atomically and fsyncs the directory, so a crash leaves either log whole.
 * A lock file keeps a second host from using the same directory.
 */
public final class FileStorage implements Storage {
    static final String LOG = "transactions.log";
    private static final String TEMPORARY = "transactions.log.tmp";
    private static final String LOCK = "transactions.lock";

    private final Path directory;
    private final Commit commit;
    private final boolean earlierRuns;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private FileChannel log;
    private final List<StorageRecord> mirror = new ArrayList<>();
    private final Compaction compaction = new Compaction();
    /**
     * Held by the one caller that fsyncs, and by compaction and close, which replace or close
     * the channel: an fsync never runs on a channel being swapped. Writes do not take it, so
     * they go on while an fsync runs and the next fsync covers them.
     */
    private final ReentrantLock syncLock = new ReentrantLock();
    /** Records written so far: the ticket of the last write. Guarded by {@code this}. */
    private long written;
    /** Records covered by a finished fsync. Guarded by {@code this}. */
    private long durable;
    /** Fsyncs of the log made so far, for tests and benchmarks. Guarded by {@code this}. */
    private long syncs;
    /** The failure that left the log unusable: every later write or wait reports it. */
    private StorageException failure;

    private FileStorage(Path directory, Commit commit, boolean earlierRuns, FileChannel lockChannel, FileLock lock, FileChannel log) {
        this.directory = directory;
        this.commit = commit;
        this.earlierRuns = earlierRuns;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.log = log;
    }

    /**
     * Opens (creating if needed) the storage in {@code directory}, for a host that fsyncs
     * each drain under its lock ({@link Commit#EACH}).
     *
     * @throws StorageException if the directory cannot be created or written, or another
     *     host (in this process or another) has it open
     */
    public static FileStorage open(Path directory) {
        return open(directory, Commit.EACH);
    }

    /**
     * Opens (creating if needed) the storage in {@code directory}, for a host that waits for
     * durability as {@code commit} says ({@link Commit#GROUP}: group commit).
     *
     * @throws StorageException if the directory cannot be created or written, or another
     *     host (in this process or another) has it open
     */
    public static FileStorage open(Path directory, Commit commit) {
        FileChannel lockChannel = null;
        try {
            Files.createDirectories(directory);
            lockChannel = FileChannel.open(directory.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = tryLock(lockChannel, directory);
            Files.deleteIfExists(directory.resolve(TEMPORARY)); // a compaction that died before its rename
            boolean existed = Files.exists(directory.resolve(LOG));
            FileChannel log = FileChannel.open(directory.resolve(LOG), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (!existed) {
                syncDirectory(directory); // the new log's name must survive a crash too
            }
            return new FileStorage(directory, commit, existed, lockChannel, lock, log);
        } catch (IOException e) {
            closeQuietly(lockChannel);
            throw new StorageException("cannot open the transaction storage in " + directory + ": " + e
                    + "; check that the directory is writable", e);
        }
    }

    private static FileLock tryLock(FileChannel channel, Path directory) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException sameProcess) {
            lock = null;
        }
        if (lock == null) {
            throw new IOException("another host has it open (" + directory.resolve(LOCK)
                    + " is locked); give each host its own directory");
        }
        return lock;
    }

    @Override
    public synchronized List<StorageRecord> load() {
        try {
            long size = log.size();
            if (size > Integer.MAX_VALUE) {
                throw new IOException("the log is " + size + " bytes, beyond what compaction ever leaves");
            }
            ByteBuffer bytes = ByteBuffer.allocate((int) size);
            while (bytes.hasRemaining() && log.read(bytes, bytes.position()) >= 0) {
                // read(buffer, position) does not move the channel; loop until the buffer is full
            }
            RecordCodec.Decoded decoded = RecordCodec.decode(bytes.array(), (int) size);
            if (decoded.torn((int) size)) {
                log.truncate(decoded.goodBytes()); // the torn tail was never durable: drop it for good
                log.force(true);
            }
            mirror.clear();
            mirror.addAll(decoded.records());
            compaction.loaded(decoded.records());
            return List.copyOf(decoded.records());
        } catch (IOException e) {
            throw new StorageException("cannot read the transaction log " + directory.resolve(LOG) + ": " + e, e);
        }
    }

    @Override
    public boolean hasEarlierRuns() {
        return earlierRuns;
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
        failIfFailed();
        if (records.isEmpty()) {
            return written;
        }
        try {
            ByteBuffer bytes = ByteBuffer.wrap(RecordCodec.encode(records));
            long position = log.size();
            while (bytes.hasRemaining()) {
                position += log.write(bytes, position);
            }
        } catch (IOException e) {
            throw failed("cannot write " + records.size() + " transaction records to", e);
        }
        mirror.addAll(records);
        compaction.appended(records);
        written += records.size();
        return written;
    }

    @Override
    public void awaitDurable(long ticket) {
        syncLock.lock();
        try {
            long target;
            synchronized (this) {
                failIfFailed();
                if (durable >= ticket) {
                    return; // an fsync that began after this write covered it: shared
                }
                target = written; // this fsync covers every write made so far, not only the caller's
            }
            try {
                log.force(false);
            } catch (IOException e) {
                throw failed("cannot fsync the transaction records in", e);
            }
            synchronized (this) {
                durable = target;
                syncs++;
                compactIfDue();
            }
        } finally {
            syncLock.unlock();
        }
    }

    /** Fsyncs made so far: fewer than the writes they covered when commits were grouped. */
    public synchronized long syncs() {
        return syncs;
    }

    private void failIfFailed() {
        if (failure != null) {
            throw failure;
        }
    }

    /** Remembers that the log failed (what was written after the last fsync may be lost). Guarded by this. */
    private StorageException failed(String what, IOException cause) {
        synchronized (this) {
            failure = new StorageException(what + " " + directory.resolve(LOG) + ": " + cause
                    + "; the host stops, restart it once the disk works again", cause);
            return failure;
        }
    }

    /** Compacts after an fsync, when nothing else fsyncs; sync lock and monitor held. */
    private void compactIfDue() {
        if (!compaction.due(mirror.size())) {
            return;
        }
        try {
            compact();
            durable = written; // the rewritten log was fsynced whole, the latest writes included
        } catch (IOException e) {
            throw failed("cannot compact the transaction log", e);
        }
    }

    /** Rewrites the log to the records of attempts not forgotten: temporary file, fsync, atomic rename. */
    private void compact() throws IOException {
        List<StorageRecord> live = RecordCodec.live(mirror);
        Path temporary = directory.resolve(TEMPORARY);
        try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = ByteBuffer.wrap(RecordCodec.encode(live));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        }
        log.close();
        Files.move(temporary, directory.resolve(LOG), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(directory);
        log = FileChannel.open(directory.resolve(LOG), StandardOpenOption.READ, StandardOpenOption.WRITE);
        mirror.clear();
        mirror.addAll(live);
        compaction.done();
    }

    /** Makes a directory's entries (a created or renamed file) durable; Linux allows fsync on a directory. */
    private static void syncDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException unsupported) {
            if (!System.getProperty("os.name", "").toLowerCase().contains("win")) {
                throw unsupported;
            }
        }
    }

    /** How many bytes the log file holds, for tests of compaction. */
    public synchronized long bytes() {
        try {
            return log.size();
        } catch (IOException e) {
            throw new StorageException("cannot read the size of " + directory.resolve(LOG), e);
        }
    }

    @Override
    public void close() {
        syncLock.lock(); // an fsync in progress finishes before the channel closes
        try {
            synchronized (this) {
                closeQuietly(log);
                try {
                    lock.release();
                } catch (IOException ignored) {
                    // closing the channel releases it too
                }
                closeQuietly(lockChannel);
            }
        } finally {
            syncLock.unlock();
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing more to release
            }
        }
    }
}
