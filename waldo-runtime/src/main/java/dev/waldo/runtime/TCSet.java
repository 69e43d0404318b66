package dev.waldo.runtime;

import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.core.LockMode;
import dev.waldo.runtime.lang.WCSet;
import dev.waldo.runtime.lang.WList;
import java.util.List;

/**
 * A transactional {@code CSet} variable (a {@link WCSet counting set}) of an endpoint or
 * service. {@link #add} and {@link #rem} commute, so they take the set's lock in the commuting
 * {@link LockMode#ADD} mode: any number of transactions add and remove at
 * once, none waits for or wounds another, and each one's changes are kept as a delta that is
 * added to the committed counts when it installs (whatever the order of the installs, the counts
 * end the same). Reading ({@link #count}, {@link #elements}, {@link #whole}) or assigning the set
 * takes its whole lock, which conflicts with every adder: a reader sees every add that committed
 * before it and none that commits after, so strict serializability holds.
 */
public final class TCSet<E> implements Cell {
    /**
     * One transaction's changes: while it only adds and removes, the {@code delta} of its counts;
     * once it read or assigned the set (whole lock held), the {@code whole} set it sees.
     */
    private static final class Working<E> {
        final WCSet<E> delta = new WCSet<>();
        WCSet<E> whole;

        /** The set as this transaction's adds and removes go: into the whole set once there is one. */
        WCSet<E> target() {
            return whole != null ? whole : delta;
        }
    }

    private final WaldoObject owner;
    private final String name;
    private final List<Annotation> annotations;
    private final LockId wholeLock;
    /** Replaced, never mutated, once published: readers outside a transaction copy it. */
    private volatile WCSet<E> committed = new WCSet<>();

    TCSet(WaldoObject owner, String name, Annotation... annotations) {
        this.owner = owner;
        this.name = name;
        this.annotations = List.of(annotations);
        this.wholeLock = LockId.whole(owner.objectId(), name);
    }

    /** Raises {@code element}'s count by one; commutes with every other transaction's adds and removes. */
    public void add(Ctx ctx, E element) {
        commuting(ctx).target().add(element);
    }

    /** Lowers {@code element}'s count by one (below zero: an anti-element); commutes like {@link #add}. */
    public void rem(Ctx ctx, E element) {
        commuting(ctx).target().rem(element);
    }

    /** Locks the whole set and returns {@code element}'s count, this transaction's changes included. */
    public double count(Ctx ctx, E element) {
        return lockWhole(ctx, LockMode.READ).whole.count(element);
    }

    /** Locks the whole set and returns the elements whose count is positive, in natural order. */
    public WList<E> elements(Ctx ctx) {
        return lockWhole(ctx, LockMode.READ).whole.elements();
    }

    /** Locks the whole set and returns a copy of it. */
    public WCSet<E> whole(Ctx ctx) {
        return lockWhole(ctx, LockMode.READ).whole.copy();
    }

    /** Locks the whole set and replaces its counts with {@code value}'s. */
    public void setWhole(Ctx ctx, WCSet<E> value) {
        Working<E> working = lockWhole(ctx, LockMode.WRITE);
        working.whole = value.copy();
    }

    /** A copy of the last committed set, read outside any transaction. */
    public WCSet<E> committed() {
        owner.host().awaitUndecidedWriters(owner.objectId(), name);
        return committed.copy();
    }

    private Working<E> commuting(Ctx ctx) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        // A bound set is read from and pushed to its outside system as a whole, so it is locked as one.
        txn.acquire(txn.bound(this) ? wholeLock : LockId.whole(owner.objectId(), name, LockMode.ADD));
        return working(txn);
    }

    /**
     * Locks the whole set for a use in {@code mode}: exclusively, as every whole use of a set
     * does (so that a reader waits for open adders and sees exactly the adds committed before
     * it), except for a read-only attempt's reads, which read a snapshot.
     */
    private Working<E> lockWhole(Ctx ctx, LockMode mode) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        txn.acquire(txn.snapshot ? wholeLock.inMode(mode) : wholeLock);
        Working<E> working = working(txn);
        if (working.whole == null) {
            working.whole = committed.copy(); // no adder holds the set now: the committed counts are final
            working.whole.addAll(working.delta);
        }
        return working;
    }

    @SuppressWarnings("unchecked")
    private Working<E> working(LocalTxn txn) {
        return (Working<E>) txn.working(this, Working::new);
    }

    @Override
    public String name() {
        return name;
    }

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
        return committed.copy(); // the runtime's own read, under the host's lock: it must not wait
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object afterValue(Object working) {
        return applied((Working<E>) working).copy();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object workingFrom(Object loaded) {
        Working<E> working = new Working<>();
        working.whole = ((WCSet<E>) loaded).copy();
        return working;
    }

    /**
     * Installs under the host's lock: a whole set replaces the committed one; a delta is added to
     * the counts committed now, which may include other adders' deltas installed since this
     * transaction began (that is why adds commute).
     */
    @Override
    @SuppressWarnings("unchecked")
    public void install(Object working) {
        committed = applied((Working<E>) working);
    }

    private WCSet<E> applied(Working<E> working) {
        if (working.whole != null) {
            return working.whole;
        }
        WCSet<E> result = committed.copy();
        result.addAll(working.delta);
        return result;
    }
}
