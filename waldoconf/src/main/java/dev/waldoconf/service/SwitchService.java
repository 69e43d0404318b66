package dev.waldoconf.service;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.WaldoException;
import dev.waldo.runtime.lang.WList;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.services.VlanSwitch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WaldoConf service for one switch: the VlanSwitch Waldo service on a
 * host, bound to the switch through {@link SwitchBinding}, with a durable
 * journal in its state directory and a timer that reverts a pending trial at
 * its deadline — after a restart too, and without any peer.
 */
public final class SwitchService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SwitchService.class);
    /**
     * How often the service looks again at what it must still put right: an
     * expired trial not yet reverted, a transaction left in doubt, an undo owed
     * to a switch that did not answer.
     */
    static final Duration RECHECK_INTERVAL = Duration.ofSeconds(5);

    private final String name;
    private final VlanDevice device;
    private final TrialJournal journal;
    private final Clock clock;
    private final ScheduledExecutorService timer;
    private final Host host;
    private final SwitchBinding binding;
    private final VlanSwitch service;
    private final AtomicBoolean reverting = new AtomicBoolean();

    private SwitchService(String name, Host host, VlanDevice device, TrialJournal journal, Clock clock) {
        this.name = name;
        this.device = device;
        this.journal = journal;
        this.clock = clock;
        this.host = host;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("trial-expiry-" + name).factory());
        this.binding = new SwitchBinding(device, journal, this::checkAtDeadline);
        host.bind("snmp", binding);
        this.service = VlanSwitch.create(host, name);
        timer.scheduleWithFixedDelay(this::reconcileIfOwed, RECHECK_INTERVAL.toMillis(), RECHECK_INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Starts the service for switch {@code name} on {@code host}: recovers a
     * pending trial from the journal in {@code stateDir}, or adopts the
     * switch's current state, and schedules the trial's expiry.
     *
     * @throws IOException if the journal cannot be read or written
     * @throws DeviceException if the switch cannot be read when there is nothing to recover
     */
    public static SwitchService start(String name, Host host, VlanDevice device, Path stateDir, Clock clock)
            throws IOException, DeviceException {
        SwitchService started = new SwitchService(name, host, device, new TrialJournal(stateDir), clock);
        started.recover();
        return started;
    }

    /** The switch's name. */
    public String name() {
        return name;
    }

    /** The Waldo service, whose reference coordinators call. */
    public VlanSwitch service() {
        return service;
    }

    /** The device this service mirrors onto. */
    public VlanDevice device() {
        return device;
    }

    private void recover() throws IOException, DeviceException {
        TrialRecord record = recoveredRecord();
        if (record == null) {
            SwitchState found = device.read();
            // The adopted state is the committed record: a staging that dies half-pushed before any
            // change committed here is undone back to it at the next start. (Restoring it changes no
            // bound variable, since each transaction starts from the switch's own state, so the
            // binding would not journal it.)
            journal.replaceCommitted(new TrialRecord("adopted", found, "", 0, java.util.List.of(),
                    SwitchState.empty()));
            service.restore(WaldoState.vlans(found), WaldoState.pvids(found), "", 0, new WList<>(),
                    WaldoState.vlans(SwitchState.empty()), WaldoState.pvids(SwitchState.empty()));
            LOG.info("{}: adopted the switch's current state ({} VLANs)", name, found.vlans().size());
            return;
        }
        // The binding sees the trial in this transaction and schedules its deadline check.
        service.restore(WaldoState.vlans(record.intended()), WaldoState.pvids(record.intended()), record.trial(),
                record.deadlineEpochSeconds(), new WList<>(record.switches()),
                WaldoState.vlans(record.before()), WaldoState.pvids(record.before()));
        if (record.hasTrial()) {
            LOG.info("{}: recovered pending trial {} (deadline {})", name, record.trial(),
                    Instant.ofEpochSecond(record.deadlineEpochSeconds()));
        }
    }

    /**
     * The record to resume from. A prepared record without an outcome means the
     * service stopped inside two-phase commit; it is resolved by the same rule
     * as {@link #expire}: a staging is taken as backed out (the committed record
     * stands, and restoring it puts back whatever part of the change reached the
     * switch), a confirm or revert as committed.
     */
    private TrialRecord recoveredRecord() throws IOException {
        TrialRecord prepared = journal.prepared();
        if (prepared != null && !prepared.hasTrial()) {
            journal.replaceCommitted(prepared);
            return prepared;
        }
        if (prepared != null) {
            journal.abort();
        }
        return journal.committed();
    }

    /**
     * Called by the binding for each prepared or committed record with a trial:
     * check the trial at its deadline. Checks are idempotent, so scheduling one
     * twice (at prepare and again at commit) is harmless.
     */
    private void checkAtDeadline(TrialRecord record) {
        long delayMs = Math.max(0, record.deadlineEpochSeconds() * 1000 - clock.millis());
        timer.schedule(() -> expire(record.trial()), delayMs, TimeUnit.MILLISECONDS);
    }

    /**
     * The deadline of trial {@code change} passed. This never blocks the
     * timer: it ends what a vanished coordinator left in doubt, starts the
     * revert on a thread of its own (it may wait behind a transaction still
     * being decided), and looks again every few seconds until the trial is
     * gone and nothing it could depend on is left in doubt.
     *
     * <p>In doubt, a staging (it sets a trial) is backed out and a confirm or
     * revert (it ends one) is committed. Both converge: a staged change that
     * some switches did commit reverts on them at this same deadline, since no
     * confirm can succeed without this switch; a confirm or revert in doubt
     * had every participant's yes.
     */
    private void expire(String change) {
        resolveInDoubt();
        boolean pendingHere = change.equals(service.committed(VlanSwitch.TRIAL));
        if (!pendingHere && binding.prepared().isEmpty()) {
            return;
        }
        if (pendingHere && reverting.compareAndSet(false, true)) {
            Thread.ofVirtual().name("trial-revert-" + name).start(() -> revert(change));
        }
        timer.schedule(() -> expire(change), RECHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void resolveInDoubt() {
        for (Map.Entry<String, TrialRecord> inDoubt : binding.prepared().entrySet()) {
            boolean commit = !inDoubt.getValue().hasTrial();
            if (host.resolveInDoubt(inDoubt.getKey(), commit)) {
                LOG.warn("{}: the coordinator of transaction {} is gone; {} it on this switch alone", name,
                        inDoubt.getKey(), commit ? "committed" : "backed out");
            }
        }
    }

    private void revert(String change) {
        try {
            if (service.revert(change)) {
                LOG.info("{}: trial {} expired and was reverted", name, change);
            }
        } catch (TransactionAbortedException | WaldoException e) {
            LOG.warn("{}: reverting expired trial {} failed ({}); trying again", name, change, e.getMessage());
        } finally {
            reverting.set(false);
        }
    }

    /** Puts the switch right after a failed undo, once it answers again. */
    private void reconcileIfOwed() {
        if (binding.undoOwed()) {
            binding.reconcile(WaldoState.state(service.committed(VlanSwitch.VLANS), service.committed(VlanSwitch.PVIDS)));
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
