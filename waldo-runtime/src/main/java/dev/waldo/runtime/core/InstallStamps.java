package dev.waldo.runtime.core;

import java.util.HashMap;
import java.util.Map;

/**
 * Which piece of a host's state an install changed last, as a count of the installs: what a
 * validation at prepare compares a use against. {@link Optimistic} checks every piece an attempt
 * used, {@link SnapshotReads} every piece a read-only attempt read. Only stamps newer than a live
 * attempt's uses matter, so the owner {@link #forget}s them whenever no attempt uses anything.
 */
final class InstallStamps {
    /** What an install's stamp on a {@link Part} records. */
    private enum Change {
        /** Any change to the variable, as a whole or to a key: what a whole read checks. */
        ANY,
        /** A change to one key. */
        KEY,
        /** A change to the variable as a whole: every key read checks it. */
        WHOLE,
        /**
         * A WRITE to one key, or to the whole variable (no key): what adds and appends check. They
         * read nothing but whether the key is there, which only a put or remove changes.
         */
        REPLACED
    }

    /** A piece of state an install changed, stamped with the install in {@link #changedAt}. */
    private record Part(long object, String variable, Object key, Change change) {
        static Part of(LockId lock, Change change) {
            return new Part(lock.object(), lock.variable(), change == Change.KEY ? lock.key() : null, change);
        }

        static Part replaced(LockId lock) {
            return new Part(lock.object(), lock.variable(), lock.isWhole() ? null : lock.key(), Change.REPLACED);
        }

        static Part wholeReplaced(LockId lock) {
            return new Part(lock.object(), lock.variable(), null, Change.REPLACED);
        }
    }

    /** The number of installs stamped so far: the stamp of the newest. */
    private long installs;
    /** The stamp of the last install that changed each part. */
    private final Map<Part, Long> changedAt = new HashMap<>();

    /** The stamp a use made now compares against: the newest install's. */
    long now() {
        return installs;
    }

    /** Stamps what {@code record} changes (every lock it holds but a READ) with a new install. */
    void installed(TxnRecord record) {
        long stamp = ++installs;
        for (LockId lock : record.held) {
            if (lock.mode() == LockMode.READ) {
                continue;
            }
            changedAt.put(Part.of(lock, Change.ANY), stamp);
            changedAt.put(Part.of(lock, lock.isWhole() ? Change.WHOLE : Change.KEY), stamp);
            if (lock.mode() == LockMode.WRITE) {
                changedAt.put(Part.replaced(lock), stamp);
            }
        }
    }

    /**
     * How the piece a use saw changed since {@code stamp} (" was changed", " was replaced"), or
     * null if it did not. A read or write saw the value, so any change counts. An add or append
     * commutes with other adds and appends, but found the key there (or, for a map, missing, and
     * created it with a put): a put or remove since would make the attempt act on what is no
     * longer so, for example replace a list another attempt created meanwhile.
     */
    String changeSince(LockId lock, long stamp) {
        if (lock.mode() == LockMode.READ || lock.mode() == LockMode.WRITE) {
            boolean changed = lock.isWhole() ? after(Part.of(lock, Change.ANY), stamp)
                    : after(Part.of(lock, Change.KEY), stamp) || after(Part.of(lock, Change.WHOLE), stamp);
            return changed ? " was changed" : null;
        }
        boolean replaced = after(Part.replaced(lock), stamp) || after(Part.wholeReplaced(lock), stamp);
        return replaced ? " was replaced" : null;
    }

    private boolean after(Part part, long stamp) {
        return changedAt.getOrDefault(part, 0L) > stamp;
    }

    /** Drops every stamp: no live use is older than the next install. */
    void forget() {
        changedAt.clear();
    }

    /** How a message names the piece of state {@code lock} is on. */
    static String describe(LockId lock) {
        return "variable '" + lock.variable() + "'" + (lock.isWhole() ? "" : " key " + lock.key())
                + " of object " + lock.object();
    }
}
