package dev.waldo.runtime;

import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.core.LockMode;
import dev.waldo.runtime.lang.Delta;
import dev.waldo.runtime.lang.Values;
import java.util.List;

/**
 * A transactional variable of an endpoint or service. Values follow Waldo's
 * value semantics: lists, maps and structs are never shared between
 * variables, so generated code copies a value before it stores it with
 * {@link #set}.
 *
 * <p>Locks follow what the transaction does (Claret's abstract locks, see
 * {@link LockMode}): {@link #read} shares the variable with other readers,
 * {@link #get} and {@link #set} take it exclusively, {@link #add} on a Number
 * and {@link #append} on a List take commuting modes that other adders (or
 * appenders) share, and record a delta that is applied to the committed value
 * at install. A variable bound to a {@link Binding}, or on a host with
 * abstract locks off ({@link Host#useAbstractLocks}), is always locked
 * exclusively.
 */
public final class TVar<T> implements Cell {
    /**
     * One transaction's working state: the whole value once it read or
     * replaced it, else only the delta of its commuting updates.
     */
    private static final class Slot {
        Object value;
        boolean full;
        Delta delta;
    }

    private final WaldoObject owner;
    private final String name;
    private final List<Annotation> annotations;
    /** Replaced, never mutated, once published: readers outside a transaction copy it. */
    private volatile T committed;

    TVar(WaldoObject owner, String name, T initial, Annotation... annotations) {
        this.owner = owner;
        this.name = name;
        this.annotations = List.of(annotations);
        this.committed = initial;
    }

    /**
     * Locks the variable exclusively for this transaction (waiting or wounding
     * as the scheduler decides) and returns this transaction's working value.
     * Lists, maps and structs returned may be mutated in place; the mutation
     * is part of the transaction and is installed on commit.
     */
    @SuppressWarnings("unchecked")
    public T get(Ctx ctx) {
        return (T) fullSlot(ctx, LockMode.WRITE).value;
    }

    /**
     * Locks the variable for reading, shared with other readers, and returns
     * this transaction's working value. Generated code only reads it (it
     * copies before storing it anywhere); to mutate in place, use {@link #get}.
     */
    @SuppressWarnings("unchecked")
    public T read(Ctx ctx) {
        return (T) fullSlot(ctx, LockMode.READ).value;
    }

    /** Locks the variable exclusively and replaces this transaction's working value. */
    public void set(Ctx ctx, T value) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        Slot slot = slot(txn, LockMode.WRITE);
        slot.value = value;
        slot.full = true;
        slot.delta = null;
    }

    /**
     * {@code x += amount} on a Number variable: commutes with other
     * transactions' additions, so it takes the shared ADD mode and records the
     * amount, which is added to the committed value at install.
     */
    public void add(Ctx ctx, double amount) {
        commute(ctx, LockMode.ADD, new Delta.Add(amount));
    }

    /**
     * {@code x.append(element)} on a List variable, with an element the
     * transaction owns (already copied), without reading the list (APPEND
     * mode, exclusive: see {@link dev.waldo.runtime.core.LockMode}); the
     * element is appended at install.
     */
    public void append(Ctx ctx, Object element) {
        commute(ctx, LockMode.APPEND, new Delta.Append(List.of(element)));
    }

    private void commute(Ctx ctx, LockMode mode, Delta delta) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        Slot slot = slot(txn, mode);
        if (!txn.boosted(this)) {
            fill(slot); // an exclusive lock: the value is known, update it in place
        }
        if (slot.full) {
            slot.value = delta.applyTo(slot.value);
        } else {
            slot.delta = slot.delta == null ? delta : slot.delta.then(delta);
        }
    }

    /** A copy of the last committed value, read outside any transaction (tests, status). */
    public T committed() {
        owner.host().awaitUndecidedWriters(owner.objectId(), name);
        return Values.copy(committed);
    }

    /** The variable's name in the Waldo source. */
    @Override
    public String name() {
        return name;
    }

    /** The annotations written on the variable's declaration. */
    @Override
    public List<Annotation> annotations() {
        return annotations;
    }

    @Override
    public WaldoObject owner() {
        return owner;
    }

    @Override
    public Object committedCopy() {
        return Values.copy(committed);
    }

    @Override
    public Object afterValue(Object working) {
        return Values.copy(after((Slot) working));
    }

    @Override
    public Object workingFrom(Object loaded) {
        Slot slot = new Slot();
        slot.value = Values.copy(loaded);
        slot.full = true;
        return slot;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void install(Object working) {
        committed = (T) after((Slot) working);
    }

    /** What {@code slot} commits: its value, or the committed value with its delta applied. */
    private Object after(Slot slot) {
        if (slot.full) {
            return slot.value;
        }
        return slot.delta == null ? committed : slot.delta.applyTo(committed);
    }

    private Slot fullSlot(Ctx ctx, LockMode mode) {
        Slot slot = slot(LocalTxn.on(ctx, owner), mode);
        fill(slot);
        return slot;
    }

    /**
     * Makes {@code slot} hold the whole value. Its transaction holds a READ or
     * WRITE lock now, which no other attempt's delta is compatible with, so
     * the committed value cannot change under it until it ends.
     */
    private void fill(Slot slot) {
        if (!slot.full) {
            Object base = Values.copy(committed);
            slot.value = slot.delta == null ? base : slot.delta.applyTo(base);
            slot.delta = null;
            slot.full = true;
        }
    }

    /** Locks the variable in {@code mode} (see {@link LocalTxn#modeFor}) and returns the transaction's slot. */
    private Slot slot(LocalTxn txn, LockMode mode) {
        txn.acquire(LockId.whole(owner.objectId(), name, txn.modeFor(this, mode)));
        return (Slot) txn.working(this, Slot::new);
    }
}
