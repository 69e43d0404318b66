package dev.waldoconf.device;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.WaldoObject;
import dev.waldo.runtime.lang.WMap;
import dev.waldoconf.model.SwitchPart;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.service.DeviceAdapter;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.service.TrialRecord;
import dev.waldoconf.service.WaldoState;
import dev.waldoconf.services.Trial;
import dev.waldoconf.services.VlanSwitch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@link DeviceAdapter} of a switch's Q-BRIDGE VLAN table and PVIDs, over a {@link VlanDevice}
 * (SNMP or in memory), for the VlanSwitch service ({@code vlan_switch.wld}). Its state is a
 * {@link SwitchPart}: the keys a transaction sets, with their values before as undo data; a
 * trial's values before; the whole configuration the service intends.
 *
 * <ul>
 *   <li><b>load</b>: every {@code @snmp(qbridge: ...)} map of one transaction comes from one read
 *       of the switch (the read is kept for the transaction that made it): the views
 *       {@code seen-vlans} and {@code seen-pvids}, and the per-key maps {@code names},
 *       {@code members} ('VLAN/PORT') and {@code pvids}. All are locked per key ({@link #keyed}):
 *       the service takes the abstract locks of what a change depends on before its first touch,
 *       so that read is what holds until the change ends. The trial map starts from its committed
 *       value.</li>
 *   <li><b>plan</b>: the keys the transaction sets (where its {@code names}, {@code members} and
 *       {@code pvids} after differ from their load), their values before, and the trials it starts
 *       or ends; it writes the switch if it sets a key.</li>
 *   <li><b>push</b>: reads the switch, checks that it still holds the values before on those keys
 *       (else someone changed them since the read: the vote is no), and pushes only those keys onto
 *       what it holds, phase by phase, read back by the device. Another transaction's prepared
 *       change on other keys stays.</li>
 *   <li><b>undo</b>: puts the values before back on those keys, onto what the switch holds.</li>
 * </ul>
 */
public final class VlanTableAdapter implements DeviceAdapter<SwitchPart> {
    /** The annotation argument that names a Q-BRIDGE table. */
    private static final String TABLE = "qbridge";

    private final VlanDevice device;
    /** The last read of the switch, and the transaction it was made for; guarded by this. */
    private String readFor;
    private SwitchState lastRead = SwitchState.empty();

    /** An adapter onto {@code device}; the service that mounts it closes the device. */
    public VlanTableAdapter(VlanDevice device) {
        this.device = device;
    }

    @Override
    public String deviceName() {
        return device.name();
    }

    @Override
    public DeviceJournal.StateFormat<SwitchPart> format() {
        return VlanStateFormat.INSTANCE;
    }

    /** Reads the switch as it is now (for adopting it at first start). */
    public synchronized SwitchState read() throws DeviceException {
        return device.read();
    }

    @Override
    public Object load(Annotation annotation, String transaction) throws DeviceException {
        Object table = annotation.arguments().get(TABLE);
        if (table == null) {
            return null;  // a trial field: it starts from its committed value
        }
        SwitchState read = readFor(transaction);
        return switch ((String) table) {
            case "seen-vlans" -> WaldoState.vlans(read);
            case "seen-pvids", "pvids" -> WaldoState.pvids(read);
            case "names" -> WaldoState.names(read);
            case "members" -> WaldoState.members(read);
            default -> throw new DeviceException(device.name() + ": no Q-BRIDGE table '" + table + "' (known: names,"
                    + " members, pvids, seen-vlans, seen-pvids)", true);
        };
    }

    /** The switch as read for {@code transaction}: read now, unless this transaction read it last. */
    private synchronized SwitchState readFor(String transaction) throws DeviceException {
        if (!transaction.equals(readFor)) {
            lastRead = device.read();
            readFor = transaction;
        }
        return lastRead;
    }

    /** Every map of the service is locked per key; the service keeps what a change relies on stable (see its source). */
    @Override
    public boolean keyed(Annotation annotation) {
        return true;
    }

    /** A change in doubt may hold any part of the switch's state, and the service's trials too. */
    @Override
    public boolean covers(SwitchPart undo, Annotation annotation) {
        return true;
    }

    @Override
    public DeviceAdapter.Change<SwitchPart> plan(BoundTransaction transaction, TrialRecord<SwitchPart> committed) {
        WaldoObject service = transaction.changes().get(0).owner();
        SwitchPart before = WaldoState.part(side(transaction, service, VlanSwitch.NAMES, true),
                side(transaction, service, VlanSwitch.MEMBERS, true), side(transaction, service, VlanSwitch.PVIDS, true));
        SwitchPart after = WaldoState.part(side(transaction, service, VlanSwitch.NAMES, false),
                side(transaction, service, VlanSwitch.MEMBERS, false), side(transaction, service, VlanSwitch.PVIDS, false));
        SwitchPart set = SwitchPart.changes(before, after);
        List<TrialRecord.Trial<SwitchPart>> trials = trialsChanged(transaction, service);
        TrialRecord<SwitchPart> record = set.isEmpty() && trials.isEmpty() ? null
                : new TrialRecord<>(transaction.id(), set, trials);
        return new KeyChange(set, set.valuesIn(before), record);
    }

    /**
     * One of the maps the transaction changed, before (as loaded) or after it; an empty map for one
     * it left alone (it sets none of its keys).
     */
    private static <K, V> WMap<K, V> side(BoundTransaction transaction, WaldoObject service,
            dev.waldo.runtime.Variable<WMap<K, V>> variable, boolean before) {
        return transaction.change(service, variable).map(change -> before ? variable.before(change)
                : variable.after(change)).orElseGet(WMap::new);
    }

    /** The trials the transaction starts (with their values before) and ends (at deadline 0). */
    private static List<TrialRecord.Trial<SwitchPart>> trialsChanged(BoundTransaction transaction,
            WaldoObject service) {
        List<TrialRecord.Trial<SwitchPart>> trials = new ArrayList<>();
        Optional<BoundTransaction.Change> change = transaction.change(service, VlanSwitch.TRIALS);
        if (change.isEmpty()) {
            return trials;
        }
        WMap<String, Trial> before = VlanSwitch.TRIALS.before(change.get());
        WMap<String, Trial> after = VlanSwitch.TRIALS.after(change.get());
        after.forEach((id, trial) -> {
            if (!before.containsKey(id)) {
                trials.add(new TrialRecord.Trial<>(id, Math.round(trial.deadline), List.of(),
                        WaldoState.part(trial.before)));
            }
        });
        before.keySet().stream().filter(id -> !after.containsKey(id)).forEach(id ->
                trials.add(new TrialRecord.Trial<>(id, 0, List.of(), SwitchPart.empty())));
        return trials;
    }

    /** One transaction's keys on the switch: set them if the switch still holds their values before. */
    private final class KeyChange implements DeviceAdapter.Change<SwitchPart> {
        private final SwitchPart set;
        private final SwitchPart undo;
        private final TrialRecord<SwitchPart> record;

        KeyChange(SwitchPart set, SwitchPart undo, TrialRecord<SwitchPart> record) {
            this.set = set;
            this.undo = undo;
            this.record = record;
        }

        @Override
        public boolean writes() {
            return !set.isEmpty();
        }

        @Override
        public TrialRecord<SwitchPart> record() {
            return record;
        }

        @Override
        public SwitchPart read() {
            return undo;  // what the transaction's own read held on its keys
        }

        /**
         * Pushes the keys onto the switch as it is now, read once: if it still holds their values
         * before, they are set onto everything else it holds (writes someone made elsewhere since
         * the transaction's read stay); if not, nothing is sent, and what it holds on those keys is
         * returned, so the vote is no.
         */
        @Override
        public SwitchPart push(SwitchPart before) throws DeviceException {
            synchronized (VlanTableAdapter.this) {
                SwitchState found = device.push(now -> before.valuesIn(now).equals(before) ? set.appliedTo(now) : now);
                return before.valuesIn(found);
            }
        }
    }

    @Override
    public synchronized void undo(SwitchPart undo) throws DeviceException {
        device.push(undo::appliedTo);
    }

    /**
     * The committed record once a transaction commits whose entry holds {@code change}: the keys it
     * set on the intended configuration, its new trials added and its ended ones dropped.
     */
    @Override
    public TrialRecord<SwitchPart> committedAfter(TrialRecord<SwitchPart> committed, TrialRecord<SwitchPart> change) {
        SwitchState intended = committed == null ? SwitchState.empty()
                : committed.intended().appliedTo(SwitchState.empty());
        List<TrialRecord.Trial<SwitchPart>> trials = new ArrayList<>();
        if (committed != null) {
            committed.pending().stream().filter(trial -> change.trials().stream()
                    .noneMatch(changed -> changed.change().equals(trial.change()))).forEach(trials::add);
        }
        trials.addAll(change.pending());
        return new TrialRecord<>(change.transaction(), SwitchPart.of(change.intended().appliedTo(intended)), trials);
    }

    /** What is left of an older unfinished transaction's undo once a newer one committed keys of its own. */
    @Override
    public SwitchPart trim(SwitchPart older, SwitchPart committed) {
        SwitchPart left = older.without(committed);
        return left.isEmpty() ? null : left;
    }

    @Override
    public boolean overlaps(SwitchPart newer, SwitchPart older) {
        return newer.overlaps(older);
    }
}
