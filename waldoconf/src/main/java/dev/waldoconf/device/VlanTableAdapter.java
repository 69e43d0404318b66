package dev.waldoconf.device;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.WaldoObject;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.service.DeviceAdapter;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.service.TrialRecord;
import dev.waldoconf.service.WaldoState;
import dev.waldoconf.services.VlanSwitch;
import java.util.List;

/**
 * The {@link DeviceAdapter} of a switch's Q-BRIDGE VLAN table and PVIDs, over a {@link VlanDevice}
 * (SNMP or in memory), for the VlanSwitch service ({@code vlan_switch.wld}). Its undo data is the
 * switch's whole VLAN state, as the transaction read it.
 *
 * <ul>
 *   <li><b>load</b>: {@code @snmp(qbridge: 'vlans')} reads the switch (both tables at once);
 *       {@code pvids}, always touched after {@code vlans} in the same transaction, starts from that
 *       same read. The trial fields start from their committed values.</li>
 *   <li><b>plan</b>: the record the service holds if the transaction commits (the tables it sets,
 *       or else the switch as the transaction read it, and the service's trial fields, read as typed
 *       values); it writes the switch if the transaction changed {@code vlans} or {@code pvids}.</li>
 *   <li><b>push</b>: the whole intended state, phase by phase, read back by the device; what the
 *       switch held just before is returned, so a change made since the transaction's read votes no.</li>
 *   <li><b>undo</b>: pushes the state the switch held before.</li>
 * </ul>
 * Only the transaction that holds the service's {@code vlans} lock loads, and it keeps that lock
 * through prepare, so a transaction finds its own read as the last one.
 */
public final class VlanTableAdapter implements DeviceAdapter<SwitchState> {
    /** The annotation argument that names a Q-BRIDGE table. */
    private static final String TABLE = "qbridge";

    private final VlanDevice device;
    /** The switch as last known: as the last load read it, or as the last push or undo left it. */
    private volatile SwitchState lastRead = SwitchState.empty();

    /** An adapter onto {@code device}; the service that mounts it closes the device. */
    public VlanTableAdapter(VlanDevice device) {
        this.device = device;
    }

    @Override
    public String deviceName() {
        return device.name();
    }

    @Override
    public DeviceJournal.StateFormat<SwitchState> format() {
        return VlanStateFormat.INSTANCE;
    }

    /** Reads the switch as it is now (for adopting it at first start). */
    public SwitchState read() throws DeviceException {
        SwitchState read = device.read();
        lastRead = read;
        return read;
    }

    @Override
    public Object load(Annotation annotation) throws DeviceException {
        Object table = annotation.arguments().get(TABLE);
        if ("vlans".equals(table)) {
            return WaldoState.vlans(read());
        }
        return "pvids".equals(table) ? WaldoState.pvids(lastRead) : null;
    }

    /** A change in doubt may hold any part of the switch's state, and the service's trial too. */
    @Override
    public boolean covers(SwitchState undo, Annotation annotation) {
        return true;
    }

    @Override
    public DeviceAdapter.Change<SwitchState> plan(BoundTransaction transaction,
            TrialRecord<SwitchState> committed) {
        WaldoObject service = transaction.changes().get(0).owner();
        SwitchState read = lastRead;
        TrialRecord<SwitchState> record = record(transaction, service, read);
        boolean writes = transaction.changed(service, VlanSwitch.VLANS)
                || transaction.changed(service, VlanSwitch.PVIDS);
        return new DeviceAdapter.Change<>() {
            @Override
            public boolean writes() {
                return writes;
            }

            @Override
            public TrialRecord<SwitchState> record() {
                return record;
            }

            @Override
            public SwitchState read() {
                return read;  // the transaction's own read: what it resolved its change against
            }

            @Override
            public SwitchState push(SwitchState undo) throws DeviceException {
                SwitchState held = device.push(record.intended());
                if (held.equals(undo)) {
                    lastRead = record.intended();
                }
                return held;
            }
        };
    }

    /**
     * What {@code service} holds once {@code transaction} commits: the tables it sets, or else the
     * switch as the transaction read it ({@code read}), and the trial fields.
     */
    private static TrialRecord<SwitchState> record(BoundTransaction transaction, WaldoObject service,
            SwitchState read) {
        Object vlans = transaction.change(service, VlanSwitch.VLANS).<Object>map(VlanSwitch.VLANS::after)
                .orElseGet(() -> WaldoState.vlans(read));
        Object pvids = transaction.change(service, VlanSwitch.PVIDS).<Object>map(VlanSwitch.PVIDS::after)
                .orElseGet(() -> WaldoState.pvids(read));
        return new TrialRecord<>(transaction.id(),
                WaldoState.state(vlans, pvids),
                transaction.valueAfter(service, VlanSwitch.TRIAL),
                Math.round(transaction.valueAfter(service, VlanSwitch.TRIAL_DEADLINE)),
                List.of(),  // a VLAN trial keeps no list of its change's switches (vlan_switch.wld)
                WaldoState.state(transaction.valueAfter(service, VlanSwitch.BEFORE_VLANS),
                        transaction.valueAfter(service, VlanSwitch.BEFORE_PVIDS)));
    }

    @Override
    public void undo(SwitchState undo) throws DeviceException {
        device.push(undo);
        lastRead = undo;
    }

    /** The undo data is the switch's whole state: an older entry's stays whole. */
    @Override
    public SwitchState trim(SwitchState older, SwitchState committed) {
        return older;
    }

    /** Two whole states always share the switch. */
    @Override
    public boolean overlaps(SwitchState newer, SwitchState older) {
        return true;
    }
}
