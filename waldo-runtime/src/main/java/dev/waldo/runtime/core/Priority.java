package dev.waldo.runtime.core;

/**
 * The rank of a transaction in wound-wait: a primary beats a standard, then an
 * older timestamp beats a younger one, then a lower host number, then a lower
 * root serial. Every attempt of one root transaction has the same priority
 * (until the root is promoted to primary), so a retry neither beats nor is
 * beaten by its own stale attempt.
 *
 * @param primary whether the root is its endpoint's primary (paper §4.3)
 * @param timestamp a standard root's Lamport start time; a primary's is the time
 *     its endpoint's previous primary committed, which makes primaries of
 *     different endpoints take turns
 * @param host the number of the root's host
 * @param root the root's serial on that host
 */
public record Priority(boolean primary, long timestamp, int host, long root) {
    /** True if a transaction of this priority wounds one of {@code other} when they conflict. */
    public boolean beats(Priority other) {
        if (primary != other.primary) {
            return primary;
        }
        if (timestamp != other.timestamp) {
            return timestamp < other.timestamp;
        }
        if (host != other.host) {
            return host < other.host;
        }
        return root < other.root;
    }
}
