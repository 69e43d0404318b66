package dev.waldo.runtime;

import dev.waldo.runtime.lang.WMap;
import java.util.List;

/**
 * A transactional {@code Map} variable of an endpoint or service, locked per
 * key: transactions touching different keys do not conflict. Operations that
 * see the whole key set (size, iteration, whole-map read or assignment)
 * lock the whole map and conflict with every key lock.
 */
public final class TMap<K, V> {
    TMap() {
        throw new UnsupportedOperationException("created by WaldoObject.mapVar");
    }

    /**
     * Locks {@code key} and returns this transaction's working value for it.
     * The value may be mutated in place.
     *
     * @throws ApplicationException if the key is absent
     */
    public V get(Ctx ctx, K key) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Locks {@code key} and stores an (already copied) value under it. */
    public void put(Ctx ctx, K key, V value) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Locks {@code key} and tells whether it is present. */
    public boolean containsKey(Ctx ctx, K key) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Locks {@code key} and removes it; removing an absent key does nothing. */
    public void remove(Ctx ctx, K key) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Locks the whole map and returns its number of entries. */
    public int size(Ctx ctx) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Locks the whole map and returns a copy of it, in insertion order. */
    public WMap<K, V> whole(Ctx ctx) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Locks the whole map and replaces its contents with {@code value}'s. */
    public void setWhole(Ctx ctx, WMap<K, V> value) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** A copy of the last committed map, read outside any transaction. */
    public WMap<K, V> committed() {
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
