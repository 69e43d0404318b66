package dev.waldo.runtime.core;

import java.util.Objects;

/**
 * A lock request on one host: a whole variable or one key of a map variable,
 * in a {@link LockMode}. Two locks overlap when they name the same variable and
 * either is whole or both name the same key; overlapping locks of different
 * attempts conflict unless their modes are compatible (shared reads, commuting
 * adds or appends). So a whole lock on a map in mode WRITE conflicts with every
 * key lock of that map, and key locks only ever conflict with the same key or
 * the whole map.
 *
 * @param object the id of the endpoint or service that owns the variable
 * @param variable the variable's name
 * @param key the map key, or null for the whole variable
 * @param mode how the lock is used
 */
public record LockId(long object, String variable, Object key, LockMode mode) {
    /** Checks the parts. */
    public LockId {
        Objects.requireNonNull(variable, "variable");
        Objects.requireNonNull(mode, "mode");
    }

    /** The exclusive lock on a whole variable (or a whole map). */
    public static LockId whole(long object, String variable) {
        return new LockId(object, variable, null, LockMode.WRITE);
    }

    /** The lock on a whole variable (or a whole map) in {@code mode}. */
    public static LockId whole(long object, String variable, LockMode mode) {
        return new LockId(object, variable, null, mode);
    }

    /** The exclusive lock on one key of a map variable. */
    public static LockId key(long object, String variable, Object key) {
        return key(object, variable, key, LockMode.WRITE);
    }

    /** The lock on one key of a map variable in {@code mode}. */
    public static LockId key(long object, String variable, Object key, LockMode mode) {
        if (key == null) {
            throw new IllegalArgumentException("a map key lock on " + variable + " needs a key");
        }
        return new LockId(object, variable, key, mode);
    }

    /**
     * Written out rather than generated: lock ids are hashed on every lock request and release
     * (held sets, the lock table's indexes), and the record's generated hashCode and equals cost
     * more than 5% of a 1,000-switch site agent's CPU during an apply. The mode hashes by its
     * ordinal, so hash order is the same in every run.
     */
    @Override
    public int hashCode() {
        int hash = 31 * Long.hashCode(object) + variable.hashCode();
        hash = 31 * hash + Objects.hashCode(key);
        return 31 * hash + mode.ordinal();
    }

    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof LockId that && object == that.object && mode == that.mode
                && variable.equals(that.variable) && Objects.equals(key, that.key);
    }

    /** True for a whole-variable lock. */
    public boolean isWhole() {
        return key == null;
    }

    /** The exclusive whole-variable lock that covers this one (what a prepared attempt logs). */
    public LockId wholeLock() {
        return whole(object, variable);
    }

    /** The same piece of state in another mode. */
    public LockId inMode(LockMode other) {
        return other == mode ? this : new LockId(object, variable, key, other);
    }

    /** True if both locks name the same variable and the same key, or either names the whole variable. */
    public boolean overlaps(LockId other) {
        return object == other.object && variable.equals(other.variable)
                && (isWhole() || other.isWhole() || key.equals(other.key));
    }

    /** True if two different attempts cannot hold both locks at once. */
    public boolean conflictsWith(LockId other) {
        return overlaps(other) && !mode.compatibleWith(other.mode);
    }

    /**
     * The locks any one of which, held by an attempt, makes a request for this
     * one unnecessary: this lock, the same state exclusively, and the whole
     * variable in this mode or exclusively (a whole lock covers every key).
     */
    public LockId[] coveredBy() {
        LockId exclusive = inMode(LockMode.WRITE);
        if (isWhole()) {
            return new LockId[] {this, exclusive};
        }
        return new LockId[] {this, exclusive, whole(object, variable, mode), wholeLock()};
    }
}
