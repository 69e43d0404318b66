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
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WaldoConf service for one switch: the VlanSwitch Waldo service on a
 * host, bound to the switch through {@link SwitchBinding}, with a durable
 * journal in its state directory and a {@link TrialTimer} that reverts a pending trial at
 * its deadline — after a restart too, and without any peer. A transaction a
 * previous run left in doubt is ended as its peers say ({@link InDoubtRecovery}).
 */
public final class SwitchService implements AutoCloseable {
    /** The annotation of the variables the service's binding mirrors onto the switch. */
    public static final String ANNOTATION = "snmp";
    private static final Logger LOG = LoggerFactory.getLogger(SwitchService.class);
    private final String name;
    private final VlanDevice device;
    private final DeviceJournal<SwitchState> journal;
    private final TrialTimer timer;
    private final SwitchBinding binding;
    private final VlanSwitch service;
    /** The previous run's in-doubt transaction until its outcome is applied, else null. */
    private volatile DeviceJournal.Entry<SwitchState> inDoubt;
    /** The record the in-doubt transaction's outcome left, journaled but not yet restored. Guarded by this. */
    private TrialRecord<SwitchState> resumed;

    private SwitchService(String name, Host host, VlanDevice device, DeviceJournal<SwitchState> journal, Clock clock) {
        this.name = name;
        this.device = device;
        this.journal = journal;
        this.timer = new TrialTimer(name, host, clock, new VlanTrials());
        this.binding = new SwitchBinding(device, journal, timer::checkAtDeadline);
        host.bind(ANNOTATION, binding);
        this.service = VlanSwitch.create(host, name);
        timer.everyRecheck(this::reconcileIfOwed);
    }

    /**
     * Starts the service for switch {@code name} on {@code host}, as {@link #mount} does, and
     * recovers a transaction its previous run left in doubt through a host that reaches every other
     * host without dialing (an in-memory network). {@link SwitchServer} mounts it on a networked
     * host instead and recovers through the inventory's other services.
     */
    public static SwitchService start(String name, Host host, VlanDevice device, Path stateDir, Clock clock)
            throws IOException, DeviceException {
        SwitchService started = mount(name, host, device, stateDir, clock);
        InDoubtRecovery.start(name, host, started.recovery(), InDoubtRecovery.NO_DIALING, List.of());
        return started;
    }

    /**
     * Puts the service for switch {@code name} on {@code host}: recovers a pending trial from the
     * journal in {@code stateDir}, or adopts the switch's current state, and schedules the trial's
     * expiry. A transaction the previous run voted yes on and never learned the outcome of is in
     * doubt: until {@link #recovery()} is told its outcome, the service is not restored and no
     * transaction reads the switch; then it keeps the change if it committed, or puts the switch's
     * undo data back.
     *
     * @throws IOException if the journal cannot be read or written, or {@code stateDir} holds a
     *     journal of an earlier version (see {@link DeviceJournal#open})
     * @throws DeviceException if the switch cannot be read when there is nothing to recover
     */
    public static SwitchService mount(String name, Host host, VlanDevice device, Path stateDir, Clock clock)
            throws IOException, DeviceException {
        SwitchService started = new SwitchService(name, host, device,
                DeviceJournal.open(stateDir, VlanStateFormat.INSTANCE), clock);
        started.recover();
        return started;
    }

    /** The transaction the previous run left in doubt (if any), for {@link InDoubtRecovery} to ask about and end. */
    public InDoubtRecovery.Participant recovery() {
        return new Recovery();
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

    /** Takes up what the journal holds; a transaction in doubt waits for {@link #recovery()}. */
    private void recover() throws IOException, DeviceException {
        for (DeviceJournal.Entry<SwitchState> entry : journal.entries()) {
            if (entry.stage() == DeviceJournal.Stage.BACKED_OUT) {
                journal.remove(entry.key());  // restoring the committed record below pushes it again
            } else if (entry.record() != null) {
                awaitOutcome(entry);  // a switch service prepares one transaction at a time
                return;
            }
        }
        TrialRecord<SwitchState> record = journal.committed();
        if (record == null) {
            SwitchState found = device.read();
            // The adopted state is the committed record: a staging that dies half-pushed before any
            // change committed here is undone back to it at the next start. (Restoring it changes no
            // bound variable, since each transaction starts from the switch's own state, so the
            // binding would not journal it.)
            journal.settle(null, new TrialRecord<>("adopted", found, "", 0, List.of(), SwitchState.empty()));
            restore(new TrialRecord<>("adopted", found, "", 0, List.of(), SwitchState.empty()));
            LOG.info("{}: adopted the switch's current state ({} VLANs)", name, found.vlans().size());
            return;
        }
        restore(record);
    }

    /**
     * The previous run stopped inside two-phase commit, after journaling {@code prepared}: it may
     * have voted yes, and only the transaction's peers know the outcome. Until {@link Recovery}
     * learns it, the service is not restored and nothing reads the switch; the trial deadlines
     * involved are checked meanwhile, so a coordinator gone with every peer still ends it.
     */
    private void awaitOutcome(DeviceJournal.Entry<SwitchState> prepared) {
        inDoubt = prepared;
        binding.awaitOutcomeOf(prepared.record().transaction());
        LOG.warn("{}: transaction {} was being decided when the service stopped; asking its peers for the outcome"
                + " before the switch is used again", name, prepared.record().transaction());
        if (prepared.record().hasTrial()) {
            timer.checkAtDeadline(prepared.record());
        }
        TrialRecord<SwitchState> committed = journal.committed();
        if (committed != null && committed.hasTrial()) {
            timer.checkAtDeadline(committed);
        }
    }

    /** Makes {@code record} the service's state, in one transaction (the binding pushes it if the switch differs). */
    private void restore(TrialRecord<SwitchState> record) {
        service.restore(WaldoState.vlans(record.intended()), WaldoState.pvids(record.intended()), record.trial(),
                record.deadlineEpochSeconds(), new WList<>(record.switches()),
                WaldoState.vlans(record.before()), WaldoState.pvids(record.before()));
        if (record.hasTrial()) {
            LOG.info("{}: recovered pending trial {} (deadline {})", name, record.trial(),
                    Instant.ofEpochSecond(record.deadlineEpochSeconds()));
        }
    }

    /** The in-doubt transaction of the previous run, as {@link InDoubtRecovery} asks about it and ends it. */
    private final class Recovery implements InDoubtRecovery.Participant {
        @Override
        public List<InDoubtRecovery.InDoubt> inDoubt() {
            DeviceJournal.Entry<SwitchState> prepared = inDoubt;
            return prepared == null ? List.of() : List.of(new InDoubtRecovery.InDoubt(
                    prepared.record().transaction(), prepared.record().transaction()));
        }

        @Override
        public void resolve(InDoubtRecovery.InDoubt transaction, boolean committed) throws IOException {
            resolveInDoubt(committed);
        }
    }

    /**
     * Ends the in-doubt transaction: journals the record it leaves (the prepared one if it
     * committed; else the committed one, with the switch's undo data as its intended state), then
     * restores the service from it, which puts the switch back if it backed out. Safe to call
     * again after a failed restore: the journal then already holds the outcome.
     *
     * @throws IllegalStateException if the service could not be restored now (tried again)
     */
    private synchronized void resolveInDoubt(boolean committed) throws IOException {
        DeviceJournal.Entry<SwitchState> prepared = inDoubt;
        if (prepared != null && resumed == null) {
            resumed = committed ? prepared.record() : backedOut(prepared, journal.committed());
            journal.settle(prepared.key(), resumed);
        }
        if (resumed == null) {
            return;
        }
        binding.outcomeApplied();
        try {
            restore(resumed);
        } catch (RuntimeException e) {
            binding.awaitOutcomeOf(resumed.transaction());
            throw new IllegalStateException(name + ": could not restore the service after in-doubt transaction "
                    + prepared.record().transaction() + ": " + e.getMessage(), e);
        }
        inDoubt = null;
        resumed = null;
    }

    /** The record a backed-out transaction leaves: the committed one, holding what the switch held before the push. */
    private static TrialRecord<SwitchState> backedOut(DeviceJournal.Entry<SwitchState> prepared,
            TrialRecord<SwitchState> committed) {
        if (committed == null) {
            SwitchState undo = prepared.undo() != null ? prepared.undo() : prepared.record().before();
            return new TrialRecord<>("adopted", undo, "", 0, List.of(), SwitchState.empty());
        }
        SwitchState intended = prepared.undo() != null ? prepared.undo() : committed.intended();
        return new TrialRecord<>(committed.transaction(), intended, committed.trial(),
                committed.deadlineEpochSeconds(), committed.switches(), committed.before());
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
            DeviceJournal.Entry<SwitchState> recovering = inDoubt;
            if (recovering != null) {
                undecided.put(recovering.record().transaction(), !recovering.record().hasTrial());
            }
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
