package dev.waldoconf.service;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.BoundTransaction;
import dev.waldoconf.device.DeviceException;

/**
 * The device-specific half of the one {@link DeviceBinding}: how one kind of device is read, how a
 * transaction's changes become writes on it, and how they are undone. The binding does the rest
 * once for every kind (two-phase commit, the {@link DeviceJournal}, votes while an undo is owed,
 * in-doubt recovery, trial records and their deadlines).
 *
 * <p>Two adapters ship: {@link dev.waldoconf.device.VlanTableAdapter} (a switch's Q-BRIDGE VLAN
 * table and PVIDs, over any {@link dev.waldoconf.device.VlanDevice}) and
 * {@link dev.waldoconf.snmp.ScalarOidAdapter} (scalar objects named by {@code @snmp(oid: ...)}).
 *
 * <p><b>Adding one</b>: pick the undo data {@code S} (what the device held before a change, enough
 * to put it back; it is also the state kept in {@link TrialRecord}s), give it a
 * {@link DeviceJournal.StateFormat}, and implement the methods below; then mount it with
 * {@link DeviceService#mount}. The binding calls an adapter under its own lock, one call at a time.
 * An adapter must never write the device outside {@link Change#push} and {@link #undo}, so that the
 * journal always holds what puts it back.
 *
 * @param <S> the device's undo data, and the state its trial records keep
 */
public interface DeviceAdapter<S> {
    /** The device's inventory name, which every message of the binding starts with. */
    String deviceName();

    /** How the journal writes {@code S}. */
    DeviceJournal.StateFormat<S> format();

    /**
     * The device's current value of the variable annotated {@code annotation}, read when
     * transaction {@code transaction} first touches it; null for a variable that is not on the
     * device (a trial field), which then starts from its committed value. An adapter may serve the
     * variables one transaction touches from one read of the device.
     *
     * @throws DeviceException if the device does not answer (the transaction fails with the message)
     */
    Object load(Annotation annotation, String transaction) throws DeviceException;

    /**
     * Whether the Map variable annotated {@code annotation} is locked per key (see the runtime's
     * {@code Binding.keyed}: the program then keeps what it relies on stable itself); false, the
     * default, locks a bound map as a whole.
     */
    default boolean keyed(Annotation annotation) {
        return false;
    }

    /**
     * The committed record once a transaction commits whose journal entry holds {@code change}
     * (see {@link TrialRecord}): the adapter's way to fold what one transaction leaves into what
     * the transactions before it left.
     *
     * @param committed the committed record so far, or null before any
     */
    TrialRecord<S> committedAfter(TrialRecord<S> committed, TrialRecord<S> change);

    /**
     * Whether a transaction left in doubt with undo data {@code undo} (null: it wrote nothing) may
     * have changed what the variable annotated {@code annotation} reads: such a load waits until
     * the outcome is known.
     */
    boolean covers(S undo, Annotation annotation);

    /**
     * What {@code transaction} does to the device, planned in prepare before anything is written.
     *
     * @param committed the committed trial record (the pending trial, if any)
     * @throws DeviceException if the change cannot be made as asked (the vote is no with its message,
     *     which names the device, and the variable and object where it applies)
     */
    Change<S> plan(BoundTransaction transaction, TrialRecord<S> committed) throws DeviceException;

    /**
     * Puts {@code undo} back, newest first, writing only what differs from it, and reads it back.
     * Goes on past a failure, so as much as possible is put back.
     *
     * @throws DeviceException naming the first part that could not be put back (the undo is owed)
     */
    void undo(S undo) throws DeviceException;

    /**
     * What is left of an older unfinished transaction's undo data once a newer one committed with
     * undo data {@code committed}: a committed value overrides what the older one would put back on
     * the same part of the device. Null when nothing is left.
     */
    S trim(S older, S committed);

    /** Whether undo data {@code newer} and {@code older} put back a part of the device in common. */
    boolean overlaps(S newer, S older);

    /**
     * One transaction's change on the device, as {@link #plan} made it.
     *
     * @param <S> the adapter's undo data
     */
    interface Change<S> {
        /** Whether the change writes the device at all (false: only a trial record changes). */
        boolean writes();

        /** The record the service keeps if the transaction commits, or null to keep the committed one. */
        TrialRecord<S> record();

        /**
         * Reads what the device holds of what {@link #push} will write: the undo data, journaled
         * before the first write.
         */
        S read() throws DeviceException;

        /**
         * Writes the change, reading each part back to check it took.
         *
         * @param undo what {@link #read} returned
         * @return what the device held just before the write: {@code undo}, unless someone changed
         *     the device since the read (the binding then votes no and undoes to the returned value)
         * @throws DeviceException naming the part and object that failed (the vote is no; abort undoes)
         */
        S push(S undo) throws DeviceException;
    }
}
