package dev.waldoconf.service;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.lang.WList;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.services.VlanSwitch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WaldoConf service for one switch: the VlanSwitch Waldo service on a
 * host, bound to the switch through {@link SwitchBinding}, with a durable
 * journal in its state directory and a {@link TrialTimer} that reverts a pending trial at
 * its deadline — after a restart too, and without any peer.
 */
public final class SwitchService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SwitchService.class);
    private final String name;
    private final VlanDevice device;
    private final TrialJournal<SwitchState> journal;
    private final TrialTimer timer;
    private final SwitchBinding binding;
    private final VlanSwitch service;

    private SwitchService(String name, Host host, VlanDevice device, TrialJournal<SwitchState> journal, Clock clock) {
        this.name = name;
        this.device = device;
        this.journal = journal;
        this.timer = new TrialTimer(name, host, clock, new VlanTrials());
        this.binding = new SwitchBinding(device, journal, timer::checkAtDeadline);
        host.bind("snmp", binding);
        this.service = VlanSwitch.create(host, name);
        timer.everyRecheck(this::reconcileIfOwed);
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
        SwitchService started = new SwitchService(name, host, device, new TrialJournal<>(stateDir, VlanStateFormat.INSTANCE), clock);
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
        TrialRecord<SwitchState> record = recoveredRecord();
        if (record == null) {
            SwitchState found = device.read();
            // The adopted state is the committed record: a staging that dies half-pushed before any
            // change committed here is undone back to it at the next start. (Restoring it changes no
            // bound variable, since each transaction starts from the switch's own state, so the
            // binding would not journal it.)
            journal.replaceCommitted(new TrialRecord<>("adopted", found, "", 0, java.util.List.of(),
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
     * as {@link TrialTimer}: a staging is taken as backed out (the committed record
     * stands, and restoring it puts back whatever part of the change reached the
     * switch), a confirm or revert as committed.
     */
    private TrialRecord<SwitchState> recoveredRecord() throws IOException {
        TrialRecord<SwitchState> prepared = journal.prepared();
        if (prepared != null && !prepared.hasTrial()) {
            journal.replaceCommitted(prepared);
            return prepared;
        }
        if (prepared != null) {
            journal.abort();
        }
        return journal.committed();
    }

    /** The timer's view of this service: its pending trial, its undecided transactions, its revert. */
    private final class VlanTrials implements TrialTimer.Trials {
        @Override
        public String pending() {
            return service.committed(VlanSwitch.TRIAL);
        }

        @Override
        public Map<String, Boolean> undecided() {
            Map<String, Boolean> undecided = new HashMap<>();
            binding.prepared().forEach((transaction, record) -> undecided.put(transaction, !record.hasTrial()));
            return undecided;
        }

        @Override
        public boolean revert(String change) {
            return service.revert(change);
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
        timer.close();
    }
}
