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

    /**
     * The attempt id that {@link #toString()} wrote, as bindings journal it.
     *
     * @throws IllegalArgumentException if {@code text} is not of the form "host.serial"
     */
    public static TxnId parse(String text) {
        int dot = text.indexOf('.');
        try {
            return new TxnId(Integer.parseInt(text.substring(0, dot)), Long.parseLong(text.substring(dot + 1)));
        } catch (RuntimeException malformed) {
            throw new IllegalArgumentException("transaction id '" + text
                    + "' is not of the form host.serial (as BoundTransaction.id() gives it)", malformed);
        }
    }
}
