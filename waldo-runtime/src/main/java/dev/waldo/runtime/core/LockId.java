package dev.waldo.runtime.core;

/**
 * A lockable piece of state on one host: a whole variable, or one key of a map
 * variable. Locks are exclusive. A whole lock on a map conflicts with every key
 * lock of that map; key locks conflict only with the same key. One exception
 * commutes: the {@linkplain #commuting commuting} locks that counting-set adds
 * and removes take conflict with the whole lock (reads) and not with each other.
 *
 * @param object the id of the endpoint or service that owns the variable
 * @param variable the variable's name
 * @param key the map key, or null for the whole variable
 */
public record LockId(long object, String variable, Object key) {
    /** The lock on a whole variable (or a whole map). */
    public static LockId whole(long object, String variable) {
        return new LockId(object, variable, null);
    }

    /** The lock on one key of a map variable. */
    public static LockId key(long object, String variable, Object key) {
        if (key == null) {
            throw new IllegalArgumentException("a map key lock needs a key");
        }
        return new LockId(object, variable, key);
    }

    /**
     * The lock that {@code txn}'s adds and removes on counting set {@code variable} take: they
     * commute, so it conflicts with the set's whole lock (which reads of a count take) and with
     * no other transaction's commuting lock. Its key names the transaction, so the lock table,
     * which keeps one holder per lock, sees a distinct lock per adder.
     */
    public static LockId commuting(long object, String variable, TxnId txn) {
        return new LockId(object, variable, new Commuting(txn));
    }

    /** The key of a {@linkplain #commuting commuting} lock. */
    public record Commuting(TxnId txn) {
    }

    /** True for a whole-variable lock. */
    public boolean isWhole() {
        return key == null;
    }

    /** The whole-variable lock that covers this one. */
    public LockId wholeLock() {
        return isWhole() ? this : whole(object, variable);
    }

    /** True if two different transactions cannot hold both locks at once. */
    public boolean conflictsWith(LockId other) {
        return object == other.object && variable.equals(other.variable)
                && (isWhole() || other.isWhole() || key.equals(other.key))
                && !(key instanceof Commuting && other.key instanceof Commuting);
    }
}
