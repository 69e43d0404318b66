package dev.waldo.check;

import java.util.List;
import java.util.Objects;

/**
 * One operation inside a list-append transaction: an append of a unique
 * value to a key's list, or a read of the key's whole list.
 *
 * @param append true for an append, false for a read
 * @param key the key
 * @param value the appended value (appends only)
 * @param read the list the read returned, or null when unknown (a read of a transaction that did not report back)
 */
public record MicroOp(boolean append, String key, long value, List<Long> read) {
    public MicroOp {
        Objects.requireNonNull(key, "key");
        read = read == null ? null : List.copyOf(read);
    }

    /** An append of {@code value} to {@code key}. */
    public static MicroOp append(String key, long value) {
        return new MicroOp(true, key, value, null);
    }

    /** A read of {@code key} that returned {@code list} (null: unknown). */
    public static MicroOp read(String key, List<Long> list) {
        return new MicroOp(false, key, 0, list);
    }

    @Override
    public String toString() {
        return append ? "append(" + key + ", " + value + ")" : "read(" + key + ") = " + (read == null ? "?" : read);
    }
}
