package dev.waldo.net;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time, in the order given, each batch on a new virtual thread: a host's own
 * event thread when its I/O thread is shared ({@link NetLoops}). A task that blocks (a host writing
 * its transaction log to disk before it answers) then holds up this host alone, not the other hosts
 * on the shared I/O thread, whose heartbeats would otherwise stop.
 */
final class SerialExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final String name;

    SerialExecutor(String name) {
        this.name = name;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (draining.compareAndSet(false, true)) {
            Thread.ofVirtual().name(name).start(this::drain);
        }
    }

    /** Whether a task runs or waits now (the host's event thread is at work). */
    boolean busy() {
        return draining.get();
    }

    private void drain() {
        do {
            for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.error("{}: an event failed", name, e);
                }
            }
            draining.set(false);
            // A task added between the last poll and the reset found draining still set: take it here.
        } while (!tasks.isEmpty() && draining.compareAndSet(false, true));
    }
}
