package dev.waldo.runtime;

import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.lang.Values;
import java.util.List;

/**
 * A transactional variable of an endpoint or service, locked as a whole.
 * Values follow Waldo's value semantics: lists, maps and structs are never
 * shared between variables, so generated code copies a value before it stores
 * it with {@link #set}.
 */
public final class TVar<T> implements Cell {
    private final WaldoObject owner;
    private final String name;
    private final List<Annotation> annotations;
    private final LockId lock;
    /** Replaced, never mutated, once published: readers outside a transaction copy it. */
    private volatile T committed;

    TVar(WaldoObject owner, String name, T initial, Annotation... annotations) {
        this.owner = owner;
        this.name = name;
        this.annotations = List.of(annotations);
        this.lock = LockId.whole(owner.objectId(), name);
        this.committed = initial;
    }

    /**
     * Locks the variable for this transaction (waiting or wounding as the
     * scheduler decides) and returns this transaction's working value.
     * Lists, maps and structs returned may be mutated in place; the mutation
     * is part of the transaction and is installed on commit.
     */
    @SuppressWarnings("unchecked")
    public T get(Ctx ctx) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        txn.acquire(lock);
        return (T) txn.working(this, () -> Values.copy(committed));
    }

    /** Locks the variable and replaces this transaction's working value. */
    public void set(Ctx ctx, T value) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        txn.acquire(lock);
        txn.setWorking(this, value);
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
        return Values.copy(working);
    }

    @Override
    public Object workingFrom(Object loaded) {
        return Values.copy(loaded);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void install(Object working) {
        committed = (T) working;
    }
}
