package dev.waldo.runtime;

import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.lang.Values;
import dev.waldo.runtime.lang.WMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A transactional {@code Map} variable of an endpoint or service, locked per
 * key: transactions touching different keys do not conflict. Operations that
 * see the whole key set (size, iteration, whole-map read or assignment)
 * lock the whole map and conflict with every key lock. A map bound to a
 * {@link Binding} is always locked as a whole.
 */
public final class TMap<K, V> implements Cell {
    /** Marks a key the transaction found absent or removed. */
    private static final Object ABSENT = new Object();

    /**
     * One transaction's view of the map: the keys it touched, or, once it
     * locked the whole map, a whole working copy.
     */
    private static final class Working<K, V> {
        final Map<K, Object> touched = new LinkedHashMap<>();
        WMap<K, V> whole;
    }

    private final WaldoObject owner;
    private final String name;
    private final List<Annotation> annotations;
    private final LockId wholeLock;
    /** Replaced, never mutated, once published, so readers of other keys need no lock. */
    private volatile WMap<K, V> committed = new WMap<>();

    TMap(WaldoObject owner, String name, Annotation... annotations) {
        this.owner = owner;
        this.name = name;
        this.annotations = List.of(annotations);
        this.wholeLock = LockId.whole(owner.objectId(), name);
    }

    /**
     * Locks {@code key} and returns this transaction's working value for it.
     * The value may be mutated in place.
     *
     * @throws ApplicationException if the key is absent
     */
    @SuppressWarnings("unchecked")
    public V get(Ctx ctx, K key) {
        Object value = lookUp(ctx, key);
        if (value == ABSENT) {
            throw new ApplicationException("missing map key " + Values.toText(key) + " in " + name);
        }
        return (V) value;
    }

    /** Locks {@code key} and stores an (already copied) value under it. */
    public void put(Ctx ctx, K key, V value) {
        Working<K, V> working = lockKey(ctx, key);
        if (working.whole != null) {
            working.whole.put(key, value);
        } else {
            working.touched.put(key, value);
        }
    }

    /** Locks {@code key} and tells whether it is present. */
    public boolean containsKey(Ctx ctx, K key) {
        return lookUp(ctx, key) != ABSENT;
    }

    /** Locks {@code key} and removes it; removing an absent key does nothing. */
    public void remove(Ctx ctx, K key) {
        Working<K, V> working = lockKey(ctx, key);
        if (working.whole != null) {
            working.whole.remove(key);
        } else {
            working.touched.put(key, ABSENT);
        }
    }

    /** Locks the whole map and returns its number of entries. */
    public int size(Ctx ctx) {
        return lockWhole(ctx).whole.size();
    }

    /** Locks the whole map and returns a copy of it, in insertion order. */
    public WMap<K, V> whole(Ctx ctx) {
        return Values.copy(lockWhole(ctx).whole);
    }

    /** Locks the whole map and replaces its contents with {@code value}'s. */
    public void setWhole(Ctx ctx, WMap<K, V> value) {
        Working<K, V> working = lockWhole(ctx);
        working.whole = new WMap<>(value);
        working.touched.clear();
    }

    /** A copy of the last committed map, read outside any transaction. */
    public WMap<K, V> committed() {
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
        return Values.copy(committed); // the runtime's own read, under the host's lock: it must not wait
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object afterValue(Object working) {
        return Values.copy(applied((Working<K, V>) working));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object workingFrom(Object loaded) {
        Working<K, V> working = new Working<>();
        working.whole = Values.copy((WMap<K, V>) loaded);
        return working;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void install(Object working) {
        committed = applied((Working<K, V>) working);
    }

    private Object lookUp(Ctx ctx, K key) {
        Working<K, V> working = lockKey(ctx, key);
        if (working.whole != null) {
            return working.whole.containsKey(key) ? working.whole.get(key) : ABSENT;
        }
        return working.touched.computeIfAbsent(key, k -> {
            WMap<K, V> current = committed;
            return current.containsKey(k) ? Values.copy(current.get(k)) : ABSENT;
        });
    }

    private Working<K, V> lockKey(Ctx ctx, K key) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        // A bound map is read from its outside system and pushed to it as a whole, so it is locked as one.
        txn.acquire(txn.bound(this) ? wholeLock : LockId.key(owner.objectId(), name, key));
        return working(txn);
    }

    private Working<K, V> lockWhole(Ctx ctx) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        txn.acquire(wholeLock);
        Working<K, V> working = working(txn);
        if (working.whole == null) {
            WMap<K, V> whole = Values.copy(committed); // deep: the transaction may mutate values in place
            working.whole = withTouched(whole, working);
            working.touched.clear();
        }
        return working;
    }

    @SuppressWarnings("unchecked")
    private Working<K, V> working(LocalTxn txn) {
        return (Working<K, V>) txn.working(this, Working::new);
    }

    /** The map as {@code working} would leave it: the committed map with the touched keys applied. */
    @SuppressWarnings("unchecked")
    private WMap<K, V> applied(Working<K, V> working) {
        if (working.whole != null) {
            return working.whole;
        }
        // Shallow is enough: committed values are never mutated, touched ones belong to the transaction.
        return withTouched(new WMap<>(committed), working);
    }

    @SuppressWarnings("unchecked")
    private WMap<K, V> withTouched(WMap<K, V> result, Working<K, V> working) {
        for (Map.Entry<K, Object> entry : working.touched.entrySet()) {
            if (entry.getValue() == ABSENT) {
                result.remove(entry.getKey());
            } else {
                result.put(entry.getKey(), (V) entry.getValue());
            }
        }
        return result;
    }
}
