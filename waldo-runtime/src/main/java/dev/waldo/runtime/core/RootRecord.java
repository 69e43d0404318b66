package dev.waldo.runtime.core;

import java.util.HashSet;
import java.util.Set;

/** A root transaction started on this host: its attempts and, per attempt, the coordinator's state. */
final class RootRecord {
    /** Where the current attempt's commit stands. */
    enum Phase {
        /** The body runs. */
        RUNNING,
        /** Prepare sent; collecting votes. */
        VOTING,
        /**
         * Decided; collecting acknowledgements of commit or backout. A commit
         * is reported to the root's caller as soon as no host whose bindings
         * took part still owes its acknowledgement: the others' acks only
         * free this record.
         */
        DECIDED
    }

    final long serial;
    final long object;
    /** Lamport time of the first attempt's start; every retry keeps it. */
    final long startedAt;
    TxnId attempt;
    Phase phase = Phase.RUNNING;
    /** The hosts other than this one that take part in the attempt's commit. */
    Set<Integer> participants = Set.of();
    /** Hosts whose vote (in VOTING) or acknowledgement (in DECIDED) is missing; may include this host. */
    final Set<Integer> awaiting = new HashSet<>();
    /** Hosts (this one included) that voted yes with bindings taking part: the caller waits for their acks. */
    final Set<Integer> bound = new HashSet<>();
    /** The root's caller was told the outcome ({@link Decision.RootDone}); acks may still be missing. */
    boolean reported;
    Decision.Result result;
    String reason;
    long committedAt;
    int ticksSinceSend;

    RootRecord(long serial, long object, long startedAt) {
        this.serial = serial;
        this.object = object;
        this.startedAt = startedAt;
    }
}
