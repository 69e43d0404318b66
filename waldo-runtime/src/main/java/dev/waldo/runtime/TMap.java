package dev.waldo.runtime;

import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.core.LockMode;
import dev.waldo.runtime.lang.Delta;
import dev.waldo.runtime.lang.Values;
import dev.waldo.runtime.lang.WMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A transactional {@code Map} variable of an endpoint or service, locked per
 * key: transactions touching different keys do not conflict. Each key is
 * locked by what is done to it (Claret's abstract locks, see {@link LockMode}):
 * reads ({@link #read}, {@link #containsKey}) share it, {@link #get} (to mutate
 * in place), {@link #put} and {@link #remove} take it exclusively, and
 * {@link #addAt} ({@code m[k] += n}) takes the commuting ADD mode. Operations
 * that see the whole key set (size, iteration, whole-map read) read-lock the
 * whole map, and whole assignment write-locks it; a whole lock conflicts with
 * every key lock it is not compatible with. A map bound to a {@link Binding}
 * is locked as a whole and exclusively, unless its binding locks it per key
 * ({@link Binding#keyed}: reads of a key shared, every other use exclusive);
 * a host with abstract locks off ({@link Host#useAbstractLocks}) locks keys
 * exclusively.
 */
public final class TMap<K, V> implements Cell {
    /** Marks a key the transaction found absent or removed. */
    private static final Object ABSENT = new Object();

    /**
     * One transaction's view of the map: the keys it touched (their values,
     * {@code ABSENT}, or the {@link Delta} of a key it only added to), or, once
     * it locked the whole map, a whole working copy. For a bound map its binding
     * loaded, {@code base} is that load: what an untouched key holds for the
     * transaction, instead of the committed value.
     */
    private static final class Working<K, V> {
        final Map<K, Object> touched = new LinkedHashMap<>();
        WMap<K, V> base;
        WMap<K, V> whole;

        /** What an untouched key reads: the binding's load if there is one, else the committed map. */
        WMap<K, V> startingFrom(WMap<K, V> committed) {
            return base != null ? base : committed;
        }
    }

    private final WaldoObject owner;
    private final String name;
    private final List<Annotation> annotations;
    /** Replaced, never mutated, once published, so readers of other keys need no lock. */
    private volatile WMap<K, V> committed = new WMap<>();

    TMap(WaldoObject owner, String name, Annotation... annotations) {
        this.owner = owner;
        this.name = name;
        this.annotations = List.of(annotations);
    }

    /**
     * Locks {@code key} exclusively and returns this transaction's working
     * value for it, which may be mutated in place.
     *
     * @throws ApplicationException if the key is absent
     */
    public V get(Ctx ctx, K key) {
        return present(key, lookUp(ctx, key, LockMode.WRITE));
    }

    /**
     * Locks {@code key} for reading, shared with other readers, and returns
     * this transaction's working value for it (not to be mutated: use
     * {@link #get} for that).
     *
     * @throws ApplicationException if the key is absent
     */
    public V read(Ctx ctx, K key) {
        return present(key, lookUp(ctx, key, LockMode.READ));
    }

    /** Locks {@code key} exclusively and stores an (already copied) value under it. */
    public void put(Ctx ctx, K key, V value) {
        Working<K, V> working = lockKey(ctx, key, LockMode.WRITE);
        if (working.whole != null) {
            working.whole.put(key, value);
        } else {
            working.touched.put(key, value);
        }
    }

    /** Locks {@code key} for reading and tells whether it is present. */
    public boolean containsKey(Ctx ctx, K key) {
        return lookUp(ctx, key, LockMode.READ) != ABSENT;
    }

    /** Locks {@code key} exclusively and removes it; removing an absent key does nothing. */
    public void remove(Ctx ctx, K key) {
        Working<K, V> working = lockKey(ctx, key, LockMode.WRITE);
        if (working.whole != null) {
            working.whole.remove(key);
        } else {
            working.touched.put(key, ABSENT);
        }
    }

    /**
     * {@code m[key].append(element)} on a map of Lists, with an element the
     * transaction owns (already copied), without reading the list (APPEND
     * mode, exclusive: see {@link dev.waldo.runtime.core.LockMode}); the
     * element is appended at install.
     *
     * @throws ApplicationException if the key is absent
     */
    public void appendAt(Ctx ctx, K key, Object element) {
        commute(ctx, key, LockMode.APPEND, new Delta.Append(List.of(element)));
    }

    /**
     * {@code m[key] += amount} on a map of Numbers: commutes with other
     * transactions' additions to the key (ADD mode), so it records the amount,
     * added to the committed value at install.
     *
     * @throws ApplicationException if the key is absent
     */
    public void addAt(Ctx ctx, K key, double amount) {
        commute(ctx, key, LockMode.ADD, new Delta.Add(amount));
    }

    /**
     * Records a commuting update of {@code key}. Whether the key is present is
     * settled here: a commuting mode excludes every put and remove of the key
     * until the transaction ends.
     */
    private void commute(Ctx ctx, K key, LockMode mode, Delta delta) {
        Working<K, V> working = lockKey(ctx, key, mode);
        if (working.whole != null) {
            working.whole.put(key, added(key, working.whole.containsKey(key) ? working.whole.get(key) : ABSENT, delta));
            return;
        }
        Object current = working.touched.get(key);
        if (current instanceof Delta pending) {
            working.touched.put(key, pending.then(delta));
        } else if (current != null) {
            working.touched.put(key, added(key, current, delta));
        } else if (working.base != null) {
            // A bound map locks the key exclusively: the value it loaded is final until the end.
            working.touched.put(key, added(key, working.base.containsKey(key)
                    ? Values.copy(working.base.get(key)) : ABSENT, delta));
        } else if (committed.containsKey(key)) {
            working.touched.put(key, delta);
        } else {
            throw missing(key);
        }
    }

    @SuppressWarnings("unchecked")
    private V added(K key, Object current, Delta delta) {
        return (V) delta.applyTo(present(key, current));
    }

    /** Locks the whole map for reading and returns its number of entries. */
    public int size(Ctx ctx) {
        return lockWhole(ctx, LockMode.READ).whole.size();
    }

    /** Locks the whole map for reading and returns a copy of it, in insertion order. */
    public WMap<K, V> whole(Ctx ctx) {
        return Values.copy(lockWhole(ctx, LockMode.READ).whole);
    }

    /** Locks the whole map exclusively and replaces its contents with {@code value}'s. */
    public void setWhole(Ctx ctx, WMap<K, V> value) {
        Working<K, V> working = lockWhole(ctx, LockMode.WRITE);
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

    /** The map the transaction leaves: its whole copy, or what it started from with the keys it touched applied. */
    @Override
    @SuppressWarnings("unchecked")
    public Object afterValue(Object working) {
        Working<K, V> view = (Working<K, V>) working;
        return Values.copy(view.whole != null ? view.whole
                : withTouched(new WMap<>(view.startingFrom(committed)), view));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object workingFrom(Object loaded) {
        Working<K, V> working = new Working<>();
        working.base = Values.copy((WMap<K, V>) loaded);
        return working;
    }

    /**
     * Installs the transaction's whole copy, or the keys it touched onto the committed map (not the
     * binding's load: other keys may have been committed since, by transactions that held them).
     */
    @Override
    @SuppressWarnings("unchecked")
    public void install(Object working) {
        Working<K, V> view = (Working<K, V>) working;
        // Shallow is enough: committed values are never mutated, touched ones belong to the transaction.
        committed = view.whole != null ? view.whole : withTouched(new WMap<>(committed), view);
    }

    @SuppressWarnings("unchecked")
    private V present(K key, Object value) {
        if (value == ABSENT) {
            throw missing(key);
        }
        return (V) value;
    }

    private ApplicationException missing(K key) {
        return new ApplicationException("missing map key " + Values.toText(key) + " in " + name);
    }

    /**
     * The transaction's value for {@code key} (or {@code ABSENT}) after locking
     * it in {@code mode}, a READ or WRITE mode that no other attempt's delta on
     * the key is compatible with, so a pending delta of its own can be applied
     * to the committed value now.
     */
    private Object lookUp(Ctx ctx, K key, LockMode mode) {
        Working<K, V> working = lockKey(ctx, key, mode);
        if (working.whole != null) {
            return working.whole.containsKey(key) ? working.whole.get(key) : ABSENT;
        }
        Object current = working.touched.get(key);
        if (current == null || current instanceof Delta) {
            WMap<K, V> now = working.startingFrom(committed);
            Object base = now.containsKey(key) ? Values.copy(now.get(key)) : ABSENT;
            current = current == null ? base : ((Delta) current).applyTo(base);
            working.touched.put(key, current);
        }
        return current;
    }

    private Working<K, V> lockKey(Ctx ctx, K key, LockMode mode) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        // A bound map is read from its outside system and pushed to it as a whole, so it is locked as
        // one, unless its binding locks it per key; a snapshot reader loads nothing, so it reads the
        // key alone.
        txn.acquire(txn.bound(this) && !txn.keyed(this) && !txn.snapshot ? LockId.whole(owner.objectId(), name)
                : LockId.key(owner.objectId(), name, key, txn.mapMode(this, mode)));
        return working(txn);
    }

    private Working<K, V> lockWhole(Ctx ctx, LockMode mode) {
        LocalTxn txn = LocalTxn.on(ctx, owner);
        txn.acquire(LockId.whole(owner.objectId(), name, txn.mapMode(this, mode)));
        Working<K, V> working = working(txn);
        if (working.whole == null) {
            // Deep: the transaction may mutate values in place.
            WMap<K, V> whole = Values.copy(working.startingFrom(committed));
            working.whole = withTouched(whole, working);
            working.touched.clear();
        }
        return working;
    }

    @SuppressWarnings("unchecked")
    private Working<K, V> working(LocalTxn txn) {
        return (Working<K, V>) txn.working(this, Working::new);
    }

    /**
     * {@code result} with the touched keys applied: values replace, absent
     * keys are removed, deltas are applied to the value there (present: the
     * transaction's ADD lock has kept every put and remove of the key out).
     */
    @SuppressWarnings("unchecked")
    private WMap<K, V> withTouched(WMap<K, V> result, Working<K, V> working) {
        for (Map.Entry<K, Object> entry : working.touched.entrySet()) {
            Object value = entry.getValue();
            if (value == ABSENT) {
                result.remove(entry.getKey());
            } else if (value instanceof Delta delta) {
                result.put(entry.getKey(), (V) delta.applyTo(result.get(entry.getKey())));
            } else {
                result.put(entry.getKey(), (V) value);
            }
        }
        return result;
    }
}
