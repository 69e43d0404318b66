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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
    /** How long to wait before trying a failed revert again (the switch may be back by then). */
    static final Duration REVERT_RETRY = Duration.ofSeconds(5);

    private final String name;
    private final VlanDevice device;
    private final TrialJournal journal;
    private final Clock clock;
    private final ScheduledExecutorService timer;
    private final VlanSwitch service;
    private ScheduledFuture<?> expiry;

    private SwitchService(String name, Host host, VlanDevice device, TrialJournal journal, Clock clock) {
        this.name = name;
        this.device = device;
        this.journal = journal;
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("trial-expiry-" + name).factory());
        host.bind("snmp", new SwitchBinding(device, journal, this::committed));
        this.service = VlanSwitch.create(host, name);
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
            service.restore(WaldoState.vlans(found), WaldoState.pvids(found));
            LOG.info("{}: adopted the switch's current state ({} VLANs)", name, found.vlans().size());
            return;
        }
        service.restore(WaldoState.vlans(record.intended()), WaldoState.pvids(record.intended()));
        if (record.hasTrial()) {
            WList<String> switches = new WList<>(record.switches());
            service.restore_trial(record.trial(), record.deadlineEpochSeconds(), switches,
                    WaldoState.vlans(record.before()), WaldoState.pvids(record.before()));
            LOG.info("{}: recovered pending trial {} (deadline {})", name, record.trial(),
                    java.time.Instant.ofEpochSecond(record.deadlineEpochSeconds()));
        }
    }

    /**
     * The record to resume from. A prepared record without an outcome means the
     * service stopped inside two-phase commit. If it staged a trial, the switch
     * may hold the new state: resume it as a pending trial, which reverts at its
     * deadline unless the change committed everywhere and gets confirmed.
     * Otherwise (an uncertain confirm or revert) keep the committed record, whose
     * trial is still pending and so still reverts unless confirmed.
     */
    private TrialRecord recoveredRecord() throws IOException {
        TrialRecord prepared = journal.prepared();
        TrialRecord committed = journal.committed();
        if (prepared != null && prepared.hasTrial()) {
            journal.replaceCommitted(prepared);
            return prepared;
        }
        if (prepared != null) {
            journal.abort();
        }
        return committed;
    }

    /** Called by the binding after each commit: (re)schedule or cancel the trial's expiry. */
    private synchronized void committed(TrialRecord record) {
        if (expiry != null) {
            expiry.cancel(false);
            expiry = null;
        }
        if (record.hasTrial()) {
            long delayMs = Math.max(0, record.deadlineEpochSeconds() * 1000 - clock.millis());
            expiry = timer.schedule(() -> expire(record.trial()), delayMs, TimeUnit.MILLISECONDS);
        }
    }

    /** The deadline passed: revert the trial on this switch alone, retrying until it is done. */
    private void expire(String change) {
        try {
            boolean reverted = service.revert(change);
            LOG.info("{}: trial {} {}", name, change, reverted ? "expired and was reverted" : "was no longer pending");
        } catch (TransactionAbortedException | WaldoException e) {
            LOG.warn("{}: reverting expired trial {} failed ({}); trying again in {} s", name, change,
                    e.getMessage(), REVERT_RETRY.toSeconds());
            synchronized (this) {
                expiry = timer.schedule(() -> expire(change), REVERT_RETRY.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
