package dev.waldoconf.service;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.WaldoException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reverts a service's pending trial at its deadline, by itself: after a restart too, and without
 * any peer. Every kind of service (a switch's VLAN service, a custom device service) hands it each
 * {@link TrialRecord} that carries a trial, as its binding prepares or commits one, and tells it
 * through {@link Trials} what is pending and how to revert. Checks are idempotent, so scheduling
 * one record twice (at prepare and again at commit) is harmless.
 *
 * <p>At the deadline it ends what a vanished coordinator left in doubt (a staging is backed out, a
 * confirm or revert committed), starts the revert transaction on a thread of its own (it may wait
 * behind a transaction still being decided), and looks again every {@link #RECHECK_INTERVAL} until
 * the trial is gone and nothing it could depend on is left in doubt. Both rules converge: a staged
 * change that some services did commit reverts on them at this same deadline, since no confirm can
 * succeed without this service; a confirm or revert in doubt had every participant's yes.
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
        /** The change whose trial is committed as pending on the service now, or "" when none. */
        String pending();

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
    private final ScheduledExecutorService timer;
    private final AtomicBoolean reverting = new AtomicBoolean();

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
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("trial-expiry-" + name).factory());
    }

    /** Checks {@code record}'s trial at its deadline (at once if it has passed). */
    public void checkAtDeadline(TrialRecord<?> record) {
        long delayMs = Math.max(0, record.deadlineEpochSeconds() * 1000 - clock.millis());
        timer.schedule(() -> expire(record.trial()), delayMs, TimeUnit.MILLISECONDS);
    }

    /** Runs {@code task} on the timer every {@link #RECHECK_INTERVAL} (putting a device right). */
    public void everyRecheck(Runnable task) {
        timer.scheduleWithFixedDelay(task, RECHECK_INTERVAL.toMillis(), RECHECK_INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** The deadline of trial {@code change} passed; never blocks the timer. */
    private void expire(String change) {
        resolveUndecided();
        boolean pendingHere = change.equals(trials.pending());
        if (!pendingHere && trials.undecided().isEmpty()) {
            return;
        }
        if (pendingHere && reverting.compareAndSet(false, true)) {
            Thread.ofVirtual().name("trial-revert-" + name).start(() -> revert(change));
        }
        timer.schedule(() -> expire(change), RECHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
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
            reverting.set(false);
        }
    }

    /** Stops the timer; a restarted service schedules its pending trial again from its journal. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
