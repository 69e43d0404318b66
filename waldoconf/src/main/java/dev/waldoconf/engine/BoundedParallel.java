package dev.waldoconf.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Runs one task per key (a switch, a service address) in parallel, at most {@code inFlight} at a
 * time, each with its own time limit that starts when that task starts: at 1,000 switches most
 * wait for a slot, and waiting must not count against a switch, or the last ones would time out
 * for the others' sake. A task that outlives its limit is given up (interrupted) and named in
 * {@link Outcome#failures()}; it does not hold up the others beyond its own limit, because its
 * slot is freed when the limit passes.
 *
 * <p>Why bounded: reading or connecting to every switch at once makes the operator (and, in a
 * lab, the switches' own process) compete with itself, so answers arrive late and SNMP retries
 * pile up; a fixed window keeps each task's latency close to what one switch alone costs.
 */
public final class BoundedParallel {
    /**
     * How switches are read over SNMP (for a plan, for drift): 32 at a time, so that the operator's
     * SNMP answers are not queued behind a thousand others (reading 1,000 switches all at once, 820
     * reads ran past their SNMP timeouts on a busy machine), and each switch at most 30 s from the
     * start of its own read: a read is a few walks of the VLAN tables, each PDU bounded by the
     * switch's SNMP timeout and retries, so a switch still reading after 30 s is stuck, and is named
     * as such.
     */
    public static final BoundedParallel SWITCH_READS = new BoundedParallel(32, Duration.ofSeconds(30));

    private final int inFlight;
    private final Duration perTask;

    /**
     * A runner.
     *
     * @param inFlight how many tasks run at once, at least 1
     * @param perTask how long one task may take from its start before it is given up
     */
    public BoundedParallel(int inFlight, Duration perTask) {
        if (inFlight < 1) {
            throw new IllegalArgumentException("at least one task must run at a time, got " + inFlight);
        }
        if (perTask.isNegative() || perTask.isZero()) {
            throw new IllegalArgumentException("a task's time limit must be positive, got " + perTask);
        }
        this.inFlight = inFlight;
        this.perTask = Objects.requireNonNull(perTask, "perTask");
    }

    /** How many tasks run at once. */
    public int inFlight() {
        return inFlight;
    }

    /** How long one task may take from its start. */
    public Duration perTask() {
        return perTask;
    }

    /** One task: may block, may throw; its exception's message becomes the key's failure. */
    @FunctionalInterface
    public interface Task<K, V> {
        /** Does the work for {@code key}. */
        V run(K key) throws Exception;
    }

    /**
     * What every task gave.
     *
     * @param results each key whose task succeeded, with its value, in the order the keys were given
     * @param failures each key whose task failed or ran out of time, with why, in the order given
     */
    public record Outcome<K, V>(Map<K, V> results, Map<K, String> failures) {
        /** Keeps the maps as given (ordered, unmodifiable). */
        public Outcome {
            results = Collections.unmodifiableMap(results);
            failures = Collections.unmodifiableMap(failures);
        }
    }

    /**
     * Runs {@code task} for each of {@code keys} and waits for all of them (each at most its limit
     * after it started). Keys must be distinct.
     */
    public <K, V> Outcome<K, V> run(List<K> keys, Task<K, V> task) {
        Semaphore slots = new Semaphore(inFlight);
        Map<K, Future<V>> running = new LinkedHashMap<>();
        // Virtual threads: a task blocked on the network costs no platform thread; the semaphore,
        // not the executor, bounds how many work at once.
        try (ExecutorService work = Executors.newVirtualThreadPerTaskExecutor()) {
            for (K key : keys) {
                if (running.containsKey(key)) {
                    throw new IllegalArgumentException("key " + key + " is given twice");
                }
                running.put(key, work.submit(() -> inSlot(slots, work, key, task)));
            }
            return collect(running);
        }
    }

    /** Waits for a slot, then runs the task on its own thread so that its limit can cut it off. */
    private <K, V> V inSlot(Semaphore slots, ExecutorService work, K key, Task<K, V> task) throws Exception {
        slots.acquire();
        Future<V> attempt = work.submit(() -> task.run(key));
        try {
            return attempt.get(perTask.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            attempt.cancel(true);
            throw new TimedOut("no answer within " + describe(perTask) + " (the limit for one switch, counted"
                    + " from when its own work started)");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            slots.release();
        }
    }

    /**
     * Runs {@code task} for each of {@code keys}, at most {@code inFlight} at a time on virtual
     * threads, waits for every task that started, and returns each key's value in the order the
     * keys were given. Unlike {@link #run}, a task has no time limit here and its failure reaches
     * the caller as thrown: for tasks that end by themselves and whose exception means something
     * to the caller's caller, such as the calls of a Waldo transaction's body (a call ends with its
     * reply, a wound, or its host's loss; the runtime's backout signal is an {@link Error} that must
     * propagate unchanged for the attempt to be retried).
     *
     * <p>Once a task failed, no further task starts (as a loop would stop at the first failure).
     * If tasks failed, one failure is thrown: an {@link Error} before any exception, since an Error
     * is a signal the caller must not mistake for the task's own failure, else the first in key
     * order; the others are attached to it as suppressed.
     *
     * @param inFlight how many tasks run at once, at least 1
     * @param keys one task each; must be distinct
     * @param task what to do for one key; may block, may throw unchecked exceptions or errors
     * @return every key with its task's value, in key order
     */
    public static <K, V> Map<K, V> all(int inFlight, List<K> keys, Function<K, V> task) {
        if (inFlight < 1) {
            throw new IllegalArgumentException("at least one task must run at a time, got " + inFlight);
        }
        if (new HashSet<>(keys).size() != keys.size()) {
            throw new IllegalArgumentException("a key is given twice in " + keys);
        }
        Semaphore slots = new Semaphore(inFlight);
        AtomicBoolean failed = new AtomicBoolean();
        Map<K, Future<V>> started = new LinkedHashMap<>();
        try (ExecutorService work = Executors.newVirtualThreadPerTaskExecutor()) {
            for (K key : keys) {
                slots.acquireUninterruptibly();
                if (failed.get()) {
                    break;
                }
                started.put(key, work.submit(() -> {
                    try {
                        return task.apply(key);
                    } catch (Throwable failure) {
                        failed.set(true);
                        throw failure;
                    } finally {
                        slots.release();
                    }
                }));
            }
        } // closing waits for every task that started
        return valuesOrFailure(started);
    }

    /** The values of finished tasks, or one of their failures as {@link #all} describes. */
    private static <K, V> Map<K, V> valuesOrFailure(Map<K, Future<V>> finished) {
        Map<K, V> values = new LinkedHashMap<>();
        List<Throwable> failures = new ArrayList<>();
        finished.forEach((key, future) -> {
            try {
                values.put(key, future.resultNow());
            } catch (IllegalStateException notSucceeded) {
                failures.add(future.exceptionNow());
            }
        });
        if (failures.isEmpty()) {
            return values;
        }
        Throwable thrown = failures.stream().filter(Error.class::isInstance).findFirst().orElse(failures.getFirst());
        failures.stream().filter(other -> other != thrown).forEach(thrown::addSuppressed);
        if (thrown instanceof Error error) {
            throw error;
        }
        throw (RuntimeException) thrown; // the tasks are Functions: nothing else can end them
    }

    private static <K, V> Outcome<K, V> collect(Map<K, Future<V>> running) {
        Map<K, V> results = new LinkedHashMap<>();
        Map<K, String> failures = new LinkedHashMap<>();
        running.forEach((key, future) -> {
            try {
                results.put(key, future.get());
            } catch (ExecutionException e) {
                failures.put(key, reason(e.getCause()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failures.put(key, "interrupted while waiting for it");
            }
        });
        return new Outcome<>(results, failures);
    }

    private static String reason(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }

    /** {@code 20 s} or {@code 1500 ms}: how long limits read in messages. */
    static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }

    /** A task ran out of its time. */
    static final class TimedOut extends Exception {
        TimedOut(String message) {
            super(message);
        }
    }
}
