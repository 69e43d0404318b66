package dev.waldoconf.service;

import dev.waldo.runtime.storage.FileStorage;
import dev.waldo.runtime.storage.StorageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where an operator session coordinates from: one of numbered slots in the operator's state
 * directory ({@code coordinator/0}, {@code coordinator/1}, ...), each a durable transaction log
 * (the runtime's {@link FileStorage}) and a host run of its own ({@code slot-N}).
 *
 * <p><b>Why.</b> The operator's host coordinates every change: it decides, and the services that
 * voted yes wait for that decision holding their locks. When a session's process died after the
 * votes (a {@code waldoconf confirm} killed {@code -9}), its host never came back: each session ran
 * as a new host with a log in memory, so the services asked a host that no longer existed and held
 * the trial's variables locked until its deadline, and every later {@code status} waited on them
 * (the chaos run's stall). A slot makes the coordinator outlive its process: a session takes the
 * lowest free slot, so the next command after a crash runs as the same host with the same log. The
 * runtime then does the rest when that host links to the services: a commit it logged is sent again,
 * and a transaction it never logged as committed is answered "backed out" (presumed abort; the
 * log's earlier runs are known, {@link dev.waldo.runtime.storage.Storage#hasEarlierRuns}).
 *
 * <p>Sessions that run at the same time (two commands, or concurrent applies in one process) take
 * different slots, as two hosts must. A slot is held by a lock on {@code slot.lock} for the
 * session's life; the operating system drops it when the process dies, so a crashed session's
 * slot is free for the next one. A dead session whose slot a later session does not take (it died
 * while a lower slot was busy) is answered once a session takes that slot again.
 */
final class CoordinatorSlot implements AutoCloseable {
    /** More sessions at once than any operator runs; past it, a session is refused with a clear message. */
    static final int SLOTS = 256;
    static final String DIRECTORY = "coordinator";
    private static final String LOCK = "slot.lock";

    private final int number;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final FileStorage storage;

    private CoordinatorSlot(int number, FileChannel lockChannel, FileLock lock, FileStorage storage) {
        this.number = number;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.storage = storage;
    }

    /**
     * Takes the lowest free slot under {@code operatorState} and opens its transaction log.
     *
     * @throws StorageException if no slot is free or the directory cannot be written; the message
     *     names the directory and what to check
     */
    static CoordinatorSlot claim(Path operatorState) {
        Path slots = operatorState.resolve(DIRECTORY);
        for (int number = 0; number < SLOTS; number++) {
            CoordinatorSlot slot = tryClaim(slots.resolve(Integer.toString(number)), number);
            if (slot != null) {
                return slot;
            }
        }
        throw new StorageException("all " + SLOTS + " coordinator slots in " + slots + " are in use by running"
                + " waldoconf commands; wait for some to finish", null);
    }

    /** The slot in {@code directory}, or null if another session holds it. */
    private static CoordinatorSlot tryClaim(Path directory, int number) {
        FileChannel channel = null;
        try {
            Files.createDirectories(directory);
            channel = FileChannel.open(directory.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                channel.close();
                return null;
            }
            try {
                return new CoordinatorSlot(number, channel, lock, FileStorage.open(directory));
            } catch (StorageException e) {
                lock.release();
                throw e;
            }
        } catch (IOException e) {
            closeQuietly(channel);
            throw new StorageException("cannot use the operator's coordinator log in " + directory + ": " + e
                    + "; check that the operator's state directory is writable", e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** The lock, or null if another process, or another session of this one, holds it. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException sameProcess) {
            return null;
        }
    }

    /** The run suffix of this slot's host id: the same for every session that takes the slot. */
    String run() {
        return "slot-" + number;
    }

    /** The slot's transaction log; the session's host closes it with itself. */
    FileStorage storage() {
        return storage;
    }

    /** Frees the slot (the host closed its log already, or never opened; closing twice is harmless). */
    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // The channel's close below drops the lock anyway.
        }
        closeQuietly(lockChannel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing to keep: the lock goes with the channel.
        }
    }
}
