package dev.waldo.runtime.core;

/**
 * Identifies one attempt of a root transaction: the number of the host that
 * started it and a serial unique on that host. A retry after a backout is a
 * new attempt with a new id but the same {@link Priority}, so stale messages
 * of a backed-out attempt can never be mistaken for the retry's.
 *
 * @param host the number of the root's host, which coordinates the attempt's commit
 * @param serial unique among the attempts started on that host
 */
public record TxnId(int host, long serial) {
    @Override
    public String toString() {
        return host + "." + serial;
    }
}
