package dev.waldoconf.service;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.WaldoException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reverts a service's pending trials at their deadlines, by itself: after a restart too, and
 * without any peer. Every kind of service (a switch's VLAN service, which may hold several trials
 * of different changes, a custom device service, which holds one at most) hands it each
 * {@link TrialRecord} that carries trials, as its binding prepares or commits one, and tells it
 * through {@link Trials} what is pending and how to revert. Checks are idempotent, so scheduling
 * one record twice (at prepare and again at commit) is harmless.
 *
 * <p>At the deadline it ends what a vanished coordinator left in doubt (a staging is backed out, a
 * confirm or revert committed), starts the revert transaction on a thread of its own (it may wait
 * behind a transaction still being decided), and looks again every {@link #RECHECK_INTERVAL} until
 * the trial is gone and nothing it could depend on is left in doubt. Both rules converge: a staged
 * change that some services did commit reverts on them at this same deadline, since no confirm can
 * succeed without this service; a confirm or revert in doubt had every participant's yes.
 *
 * <p>Every timer of the process shares one scheduling thread ({@code trial-timers}): a site agent
 * serving a thousand switches would otherwise hold a thousand idle threads for deadlines that are
 * rarely pending. The scheduler only keeps time; each timer's work (which reads journals and may
 * wait on its device) runs on a virtual thread, one task of a timer at a time, so a slow switch
 * delays neither the other switches' deadlines nor the clock.
 */
public final class TrialTimer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TrialTimer.class);
    /**
     * How often the service looks again at what it must still put right: an expired trial not yet
     * reverted, a transaction left in doubt, an undo owed to a device that did not answer.
     */
    public static final Duration RECHECK_INTERVAL = Duration.ofSeconds(5);

    /** What the timer asks of its service. */
    public interface Trials {
        /** The changes whose trials are committed as pending on the service now. */
        Set<String> pending();

        /**
         * Transactions that prepared on the service and have no outcome yet, by id, each with
         * whether it ends a trial (true: a confirm or revert, committed if in doubt at a
         * deadline) or not (a staging, backed out).
         */
        Map<String, Boolean> undecided();

        /**
         * Reverts trial {@code change} as one transaction on the service.
         *
         * @return whether it was still pending and is now reverted
         * @throws WaldoException (a TransactionAbortedException among them) if the revert could not
         *     commit now (the timer tries again)
         */
        boolean revert(String change);
    }

    private final String name;
    private final Host host;
    private final Clock clock;
    private final Trials trials;
    /** Keeps time for every timer of the process; a closed timer's tasks leave its queue at once. */
    private static final ScheduledThreadPoolExecutor SCHEDULER = scheduler();

    /** The changes whose revert runs now, one revert per change at a time. */
    private final Set<String> reverting = ConcurrentHashMap.newKeySet();
    /** One task of this timer at a time, as on the thread of its own each timer once had. */
    private final ReentrantLock running = new ReentrantLock();
    private final Set<ScheduledFuture<?>> scheduled = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * A timer for the service of {@code name} on {@code host}.
     *
     * @param clock tells when a deadline has come
     */
    public TrialTimer(String name, Host host, Clock clock, Trials trials) {
        this.name = name;
        this.host = host;
        this.clock = clock;
        this.trials = trials;
    }

    private static ScheduledThreadPoolExecutor scheduler() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().daemon().name("trial-timers").factory());
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    /** How many tasks every timer of the process has scheduled now (for tests of the sharing). */
    static int scheduledTasks() {
        return SCHEDULER.getQueue().size();
    }

    /** Checks each of {@code record}'s pending trials at its deadline (at once if it has passed). */
    public void checkAtDeadline(TrialRecord<?> record) {
        for (TrialRecord.Trial<?> trial : record.pending()) {
            long delayMs = Math.max(0, trial.deadlineEpochSeconds() * 1000 - clock.millis());
            after(delayMs, () -> expire(trial.change()));
        }
    }

    /**
     * Runs {@code task} every {@link #RECHECK_INTERVAL} (putting a device right), each run that
     * long after the previous one ended.
     */
    public void everyRecheck(Runnable task) {
        after(RECHECK_INTERVAL.toMillis(), () -> {
            try {
                task.run();
            } finally {
                everyRecheck(task);
            }
        });
    }

    /**
     * Runs {@code task} for this timer after {@code delayMs}, on a virtual thread, never at the same
     * time as another of its tasks; nothing once the timer is closed.
     */
    private void after(long delayMs, Runnable task) {
        if (closed) {
            return;
        }
        scheduled.removeIf(ScheduledFuture::isDone);
        scheduled.add(SCHEDULER.schedule(() -> Thread.ofVirtual().name("trial-timer-" + name)
                .start(() -> runAlone(task)), delayMs, TimeUnit.MILLISECONDS));
        if (closed) {
            // close() may have cancelled the others before this one was added.
            scheduled.forEach(future -> future.cancel(false));
        }
    }

    private void runAlone(Runnable task) {
        running.lock();
        try {
            if (!closed) {
                task.run();
            }
        } catch (RuntimeException e) {
            LOG.error("{}: a trial timer task failed ({}); it runs again at the next check", name, e.toString());
        } finally {
            running.unlock();
        }
    }

    /** The deadline of trial {@code change} passed; never blocks the timer. */
    private void expire(String change) {
        resolveUndecided();
        boolean pendingHere = trials.pending().contains(change);
        if (!pendingHere && trials.undecided().isEmpty()) {
            return;
        }
        if (pendingHere && reverting.add(change)) {
            Thread.ofVirtual().name("trial-revert-" + name).start(() -> revert(change));
        }
        after(RECHECK_INTERVAL.toMillis(), () -> expire(change));
    }

    private void resolveUndecided() {
        for (Map.Entry<String, Boolean> inDoubt : trials.undecided().entrySet()) {
            boolean commit = inDoubt.getValue();
            if (host.resolveInDoubt(inDoubt.getKey(), commit)) {
                LOG.warn("{}: the coordinator of transaction {} is gone; {} it on this service alone", name,
                        inDoubt.getKey(), commit ? "committed" : "backed out");
            }
        }
    }

    private void revert(String change) {
        try {
            if (trials.revert(change)) {
                LOG.info("{}: trial {} expired and was reverted", name, change);
            }
        } catch (WaldoException e) {  // an abort or a vote no included
            LOG.warn("{}: reverting expired trial {} failed ({}); trying again", name, change, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{}: reverting expired trial {} failed ({}); trying again", name, change, e.toString());
        } finally {
            reverting.remove(change);
        }
    }

    /**
     * Stops the timer: its scheduled tasks are dropped and a task running now is its last; a
     * restarted service schedules its pending trial again from its journal.
     */
    @Override
    public void close() {
        closed = true;
        scheduled.forEach(future -> future.cancel(false));
        scheduled.clear();
    }
}
