package dev.waldo.runtime;

import java.util.List;

/**
 * A transactional variable of an endpoint or service, locked as a whole.
 * Values follow Waldo's value semantics: lists, maps and structs are never
 * shared between variables, so generated code copies a value before it stores
 * it with {@link #set}.
 */
public final class TVar<T> {
    TVar() {
        throw new UnsupportedOperationException("created by WaldoObject.var");
    }

    /**
     * Locks the variable for this transaction (waiting or wounding as the
     * scheduler decides) and returns this transaction's working value.
     * Lists, maps and structs returned may be mutated in place; the mutation
     * is part of the transaction and is installed on commit.
     */
    public T get(Ctx ctx) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Locks the variable and replaces this transaction's working value. */
    public void set(Ctx ctx, T value) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** A copy of the last committed value, read outside any transaction (tests, status). */
    public T committed() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** The variable's name in the Waldo source. */
    public String name() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** The annotations written on the variable's declaration. */
    public List<Annotation> annotations() {
        throw new UnsupportedOperationException("TODO runtime");
    }
}
