package dev.waldo.runtime.core;

/**
 * How an attempt uses what it locks. Claret's abstract locks (Holt et al.):
 * operations that commute under their type's meaning take modes that are
 * compatible with each other, so two transactions incrementing one counter hold
 * it at once instead of one waiting for (or wounding) the other. Each add or append is
 * recorded as a delta and applied to the committed value at install, so both count.
 *
 * <p>Compatibility (two different attempts, overlapping locks):
 * <pre>
 *            READ  WRITE  ADD  APPEND
 *   READ      yes    -     -     -
 *   WRITE      -     -     -     -
 *   ADD        -     -    yes    -
 *   APPEND     -     -     -    yes
 * </pre>
 * A read of the value conflicts with the commuting modes: the value it would
 * see depends on which of the concurrent deltas were installed first.
 *
 * <p>A sum is the same whatever order its adds were installed in; a list is not. Two
 * transactions that both append to lists on two hosts must land in the same order on both,
 * so shared appends install in the order of their commits' stamps ({@link AppendOrder}),
 * not in the order their commits arrive (which may differ between the hosts: waldo-check's
 * list-append run found such a G0 cycle under delayed links when appends shared without it).
 * With stamps that follow real time and a commit wait, that keeps the lists strictly serializable
 * (see {@link AppendOrder}). A host takes APPEND only if it shares appends
 * ({@code Host.useSharedAppends}, off by default), and WRITE for an append otherwise.
 */
public enum LockMode {
    /** Reads the value: shared with other readers. */
    READ,
    /** Replaces or mutates the value in place: exclusive. */
    WRITE,
    /** Adds to a Number ({@code +=}, {@code -=}) without reading it. */
    ADD,
    /** Appends to a List without reading it: shared, installed in commit-stamp order (see above). */
    APPEND;

    /**
     * A deliberately broken matrix, for waldo-check's test that its checker
     * catches one: with the system property {@code waldo.test.readsCommute=true}
     * (read once, when the class loads) reads are compatible with the commuting
     * modes, so a read can miss a concurrent, later-committed add or append.
     * Never set it elsewhere.
     */
    private static final boolean READS_COMMUTE = Boolean.getBoolean("waldo.test.readsCommute");

    /** True if two different attempts may hold overlapping locks in these modes at once. */
    public boolean compatibleWith(LockMode other) {
        if (READS_COMMUTE && this != WRITE && other != WRITE && (this == READ || other == READ)) {
            return true;
        }
        return this == other && this != WRITE;
    }

    /** True if holding this mode makes a request for {@code requested} on the same lock unnecessary. */
    public boolean covers(LockMode requested) {
        return this == WRITE || this == requested;
    }
}
