package dev.waldo.runtime;

import dev.waldo.runtime.core.Decision;
import dev.waldo.runtime.core.Outbox;
import dev.waldo.runtime.storage.Storage;
import dev.waldo.runtime.storage.StorageException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Group commit for one host ({@link Storage.Commit#GROUP}): persist before you
 * send, with one fsync for many drains.
 *
 * <p>Under the host's lock, each drain's records are written to the storage
 * (no fsync) and the drain is queued with its ticket; its decisions and
 * messages wait in the queue. One flusher thread fsyncs outside the host's
 * lock, so that the drains of other threads queue up meanwhile, then takes the
 * lock and applies, in order, every queued drain the fsync covered: the same
 * "persist, then apply, then send" as a host without group commit, for many
 * drains at once. The flusher fsyncs as soon as anything is queued, so a lone
 * transaction waits for one fsync and no timer.
 *
 * <p>The core runs ahead of what was applied: it may have decided an install
 * whose drain still waits for its fsync, and released the locks it held. So a
 * thread that goes on to touch the host's state (a transaction body after a
 * grant, a {@code committed()} read) first waits until every install and
 * discard queued before it was applied ({@link #awaitApplied}), and with them
 * every drain before; it need not wait for later drains that change no
 * variable. The transport's thread does not wait at all, so messages that
 * arrive during an fsync are stepped and their records join the next one.
 */
final class GroupCommit {
    private static final System.Logger LOG = System.getLogger(GroupCommit.class.getName());

    /** A drain whose records were written with {@code ticket}, waiting for the fsync that covers it. */
    private record Pending(long ticket, Outbox out) {
    }

    private final String hostId;
    private final ReentrantLock lock;
    private final Condition queued;
    private final Condition applied;
    private final Storage storage;
    private final Consumer<Outbox> apply;
    private final Runnable drainCore;
    private final Consumer<StorageException> storageFailed;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final Thread flusher;
    /** Drains queued and drains applied so far; guarded by the host's lock. */
    private long queuedCount;
    private long appliedCount;
    /** The number of the last queued drain that installs or discards an attempt here. */
    private long lastVariableChange;
    private boolean stopped;

    /**
     * Starts the flusher of host {@code hostId}.
     *
     * @param lock the host's lock, under which the core is used and drains are applied
     * @param apply applies one drain's decisions and sends its messages (lock held)
     * @param drainCore queues what the core produced since the last drain (lock held): applying
     *     decisions can make the core produce more
     * @param storageFailed stops the host after its storage failed (lock held)
     */
    GroupCommit(String hostId, ReentrantLock lock, Storage storage, Consumer<Outbox> apply, Runnable drainCore,
            Consumer<StorageException> storageFailed) {
        this.hostId = hostId;
        this.lock = lock;
        this.queued = lock.newCondition();
        this.applied = lock.newCondition();
        this.storage = storage;
        this.apply = apply;
        this.drainCore = drainCore;
        this.storageFailed = storageFailed;
        this.flusher = Thread.ofPlatform().daemon().name("waldo-group-commit-" + hostId).start(this::flush);
    }

    /**
     * Writes a drain's records and queues its decisions and messages behind the fsync that
     * will cover them. Lock held.
     *
     * @throws StorageException if the records could not be written (the host must stop)
     */
    void enqueue(Outbox out) {
        long ticket = storage.write(out.persist());
        pending.add(new Pending(ticket, out));
        queuedCount++;
        if (out.decisions().stream().anyMatch(d -> d instanceof Decision.Install || d instanceof Decision.Discard)) {
            lastVariableChange = queuedCount;
        }
        queued.signal();
    }

    /**
     * Waits, releasing the host's lock meanwhile, until every install and discard queued so far
     * was applied (with every drain before it), so that the caller sees the variables as the
     * core already decided them. Returns at once on the flusher (which applies them) and once the
     * host stopped. Lock held.
     */
    void awaitApplied() {
        if (Thread.currentThread() == flusher) {
            return;
        }
        long target = lastVariableChange;
        while (appliedCount < target && !stopped) {
            applied.awaitUninterruptibly();
        }
    }

    /** Stops the flusher; queued drains are never applied, as in a crash. Lock held. */
    void stop() {
        stopped = true;
        queued.signalAll();
        applied.signalAll();
    }

    /** The flusher: fsync what is queued, outside the lock, then apply what it covered, in order. */
    private void flush() {
        lock.lock();
        try {
            while (!stopped) {
                if (pending.isEmpty()) {
                    queued.awaitUninterruptibly();
                    continue;
                }
                long ticket = pending.peekLast().ticket();
                if (!durable(ticket)) {
                    return;
                }
                applyDurable(ticket);
            }
        } catch (RuntimeException | Error bug) {
            LOG.log(System.Logger.Level.ERROR, "host " + hostId + ": group commit stopped on an internal error", bug);
            stop();
            throw bug;
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the fsync that covers {@code ticket} without the host's lock; false if the host stopped. */
    private boolean durable(long ticket) {
        StorageException failure = null;
        lock.unlock();
        try {
            storage.awaitDurable(ticket);
        } catch (StorageException e) {
            failure = e;
        } finally {
            lock.lock();
        }
        if (stopped) {
            return false;
        }
        if (failure != null) {
            stop();
            storageFailed.accept(failure);
            return false;
        }
        return true;
    }

    /** Applies every queued drain the fsync up to {@code ticket} covered, then queues what that produced. */
    private void applyDurable(long ticket) {
        while (!stopped && !pending.isEmpty() && pending.peekFirst().ticket() <= ticket) {
            apply.accept(pending.poll().out());
            appliedCount++;
            drainCore.run(); // applying decisions can make the core produce more: it queues behind
        }
        applied.signalAll();
    }
}
