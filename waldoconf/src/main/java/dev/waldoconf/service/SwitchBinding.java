package dev.waldoconf.service;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.WaldoObject;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.services.VlanSwitch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mirrors a VlanSwitch service's {@code @snmp} variables onto its switch
 * inside two-phase commit (DESIGN.md "Bound state").
 *
 * <ul>
 *   <li><b>load</b>: when a transaction first touches {@code vlans}, read the
 *       switch (both tables at once; {@code pvids}, always touched after
 *       {@code vlans} in the same transaction, starts from that same read).</li>
 *   <li><b>prepare</b>: journal, durably, in the service's {@link DeviceJournal}, the record the
 *       service holds if the transaction commits, with the switch's undo
 *       data (the state it read, which the push replaces), then push the new
 *       VLAN state to the switch (the device sends it phase by phase and reads it
 *       back). If the switch no longer holds what the transaction read, the
 *       push is undone and the vote is no; a refusal, timeout or wrong
 *       read-back votes no too. A yes marks the entry prepared. The vote itself is the runtime's to keep (its
 *       storage logs it before it leaves): a restarted service asks it for the
 *       outcome, and it asks the peers it logged with the vote ({@link InDoubtRecovery}).</li>
 *   <li><b>commit</b>: the entry's record becomes the committed one;
 *       the trial deadline (if any) is handed to the expiry timer.</li>
 *   <li><b>abort</b>: push the state the switch held before prepare, and
 *       forget the entry.</li>
 * </ul>
 * The runtime calls it on one thread per host, in transaction order.
 */
public final class SwitchBinding implements Binding {
    private static final Logger LOG = LoggerFactory.getLogger(SwitchBinding.class);

    private final VlanDevice device;
    private final DeviceJournal<SwitchState> journal;
    private final Consumer<TrialRecord<SwitchState>> onDeadline;

    /** What the switch held before each transaction that pushed here and has not ended. Guarded by this. */
    private final Map<String, SwitchState> pushedOver = new HashMap<>();
    /**
     * The switch as last known: as the last load read it, or as the last push
     * or undo left it. Only the transaction that holds the service's
     * {@code vlans} lock loads, and it keeps that lock through prepare, so a
     * transaction that touched {@code vlans} finds its own read here.
     */
    private volatile SwitchState lastRead = SwitchState.empty();
    /** Prepared and not yet ended; read by the expiry timer, hence concurrent. */
    private final Map<String, TrialRecord<SwitchState>> preparedRecords = new ConcurrentHashMap<>();

    /**
     * @param onDeadline told of every prepared and every committed record that
     *     carries a trial, so the service checks it at its deadline
     */
    public SwitchBinding(VlanDevice device, DeviceJournal<SwitchState> journal,
            Consumer<TrialRecord<SwitchState>> onDeadline) {
        this.device = device;
        this.journal = journal;
        this.onDeadline = onDeadline;
    }

    /**
     * Transactions that prepared here and have not ended, by id: if the
     * coordinator is gone, these are in doubt.
     */
    public Map<String, TrialRecord<SwitchState>> prepared() {
        return Map.copyOf(preparedRecords);
    }

    /**
     * The transaction a previous run of the service left in doubt, while its outcome is being
     * learned; null otherwise. No transaction reads the switch meanwhile: it may hold a change
     * that is about to be undone.
     */
    private volatile String awaitingOutcome;

    /** Refuses every read of the switch until {@link #outcomeApplied()}: {@code transaction} is in doubt. */
    public void awaitOutcomeOf(String transaction) {
        awaitingOutcome = transaction;
    }

    /** The in-doubt transaction's outcome is applied: transactions may read the switch again. */
    public void outcomeApplied() {
        awaitingOutcome = null;
    }

    /** True while an undo failed and the switch may hold a change that did not commit. */
    private volatile boolean undoOwed;

    /** Whether an undo failed and {@link #reconcile} still has to put the switch right. */
    public boolean undoOwed() {
        return undoOwed;
    }

    /**
     * Pushes {@code intended} (the last committed state) to the switch if an
     * undo is owed and no transaction is between prepare and its decision
     * here. Synchronized with prepare, commit and abort, so it never undoes a
     * change that is being voted on.
     *
     * @return true once nothing is owed any more
     */
    public synchronized boolean reconcile(SwitchState intended) {
        if (!undoOwed || !preparedRecords.isEmpty()) {
            return !undoOwed;
        }
        try {
            device.push(intended);
            undoOwed = false;
            LOG.info("{}: put the switch back to its intended state after a failed undo", device.name());
        } catch (DeviceException e) {
            LOG.warn("{}: the switch still holds part of a backed-out change: {}", device.name(), e.getMessage());
        }
        return !undoOwed;
    }

    /**
     * Reads the switch for a transaction that first touches {@code vlans}
     * (annotated {@code qbridge: 'vlans'}), and hands {@code pvids} the PVIDs
     * of that same read. The trial variables start from their committed values.
     */
    @Override
    public Object load(WaldoObject owner, String variable, Annotation annotation) throws DeviceException {
        Object table = annotation.arguments().get("qbridge");
        String inDoubt = awaitingOutcome;
        if (inDoubt != null) {
            throw new DeviceException(device.name() + ": the service restarted while transaction " + inDoubt
                    + " was being decided and is still asking its peers for the outcome, so the switch cannot be"
                    + " read yet; try again in a few seconds", true);
        }
        if ("vlans".equals(table)) {
            SwitchState read = read();
            lastRead = read;
            return WaldoState.vlans(read);
        }
        return "pvids".equals(table) ? WaldoState.pvids(lastRead) : null;
    }

    @Override
    public synchronized Vote prepare(BoundTransaction transaction) throws Exception {
        WaldoObject service = transaction.changes().get(0).owner();
        SwitchState read = lastRead;
        TrialRecord<SwitchState> record = record(transaction, service, read);
        boolean pushes = transaction.changed(service, VlanSwitch.VLANS) || transaction.changed(service, VlanSwitch.PVIDS);
        DeviceJournal.Entry<SwitchState> entry = new DeviceJournal.Entry<>(transaction.id(),
                pushes ? DeviceJournal.Stage.PREPARING : DeviceJournal.Stage.PREPARED, pushes ? read : null, record);
        journal.put(entry);
        preparedRecords.put(transaction.id(), record);
        if (record.hasTrial()) {
            onDeadline.accept(record);  // even if no decision ever arrives, the deadline is checked
        }
        if (!pushes) {
            return Vote.yes();  // nothing to do on the switch: journaled as prepared at once
        }
        try {
            SwitchState held = device.push(record.intended());
            pushedOver.put(transaction.id(), held);
            if (!held.equals(read)) {
                // Someone changed the switch between this transaction's read and its push: what it
                // resolved may no longer fit. Abort undoes the push (to what the switch held).
                LOG.warn("{}: changed outside WaldoConf during the change; voting no", device.name());
                return Vote.no(device.name() + ": the switch was changed by someone else while this change was"
                        + " being made (between its read and its push); nothing was changed. Run the command again.");
            }
            lastRead = record.intended();
            journal.put(entry.at(DeviceJournal.Stage.PREPARED));
            return Vote.yes();
        } catch (DeviceException e) {
            if (!e.undone()) {
                undoOwed = true;  // part of the change may be on the switch (it may have died mid-push)
            }
            LOG.warn("{}: voting no: {}", device.name(), e.getMessage());
            return Vote.no(e.getMessage());
        }
    }

    /**
     * What {@code service} holds once {@code transaction} commits: the tables it sets, or else
     * the switch as the transaction read it ({@code read}), and the trial variables.
     */
    private static TrialRecord<SwitchState> record(BoundTransaction transaction, WaldoObject service, SwitchState read) {
        Object vlans = transaction.change(service, VlanSwitch.VLANS).<Object>map(VlanSwitch.VLANS::after)
                .orElseGet(() -> WaldoState.vlans(read));
        Object pvids = transaction.change(service, VlanSwitch.PVIDS).<Object>map(VlanSwitch.PVIDS::after)
                .orElseGet(() -> WaldoState.pvids(read));
        return new TrialRecord<>(transaction.id(),
                WaldoState.state(vlans, pvids),
                transaction.valueAfter(service, VlanSwitch.TRIAL),
                Math.round(transaction.valueAfter(service, VlanSwitch.TRIAL_DEADLINE)),
                List.copyOf(transaction.valueAfter(service, VlanSwitch.TRIAL_SWITCHES)),
                WaldoState.state(transaction.valueAfter(service, VlanSwitch.BEFORE_VLANS),
                        transaction.valueAfter(service, VlanSwitch.BEFORE_PVIDS)));
    }

    /**
     * Reads the switch. No change pushed here can still be on it undecided: the runtime keeps a
     * transaction's locks until this binding's commit or abort has returned, so a transaction that
     * loads {@code vlans} runs only after the previous one's undo pushed the old state back.
     * Synchronized with {@link #reconcile}, which may push at any time.
     */
    private synchronized SwitchState read() throws DeviceException {
        return device.read();
    }

    @Override
    public synchronized void commit(BoundTransaction transaction) throws Exception {
        pushedOver.remove(transaction.id());
        TrialRecord<SwitchState> record = preparedRecords.remove(transaction.id());
        // The switch's undo data is its whole state: an older entry's stays whole.
        journal.commit(transaction.id(), (older, committed) -> older);
        if (record != null && record.hasTrial()) {
            onDeadline.accept(record);
        }
    }

    @Override
    public synchronized void abort(BoundTransaction transaction) throws Exception {
        preparedRecords.remove(transaction.id());
        SwitchState before = pushedOver.remove(transaction.id());
        try {
            if (before != null) {
                device.push(before);
                lastRead = before;
            }
        } catch (DeviceException e) {
            // The switch holds part of a change that did not commit (it may be
            // down). The service keeps trying to put it right (reconcile).
            // Whatever the failed push left, it is not the intended state.
            undoOwed = true;
            LOG.error("{}: could not undo a backed-out change (will keep trying): {}", device.name(),
                    e.getMessage());
        } finally {
            // Even after a failed undo: the service reconciles the switch to its committed state,
            // now and (restoring it) at the next start.
            journal.remove(transaction.id());
        }
    }
}
