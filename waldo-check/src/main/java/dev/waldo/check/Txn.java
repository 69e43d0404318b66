package dev.waldo.check;

import java.util.List;

/**
 * One transaction of a history, as its client saw it.
 *
 * @param id unique in the history
 * @param process the client thread that ran it (a client runs one transaction at a time)
 * @param invokedAt when the client called it, in nanoseconds of one clock shared by every client of the history
 * @param completedAt when the call returned or failed, same clock; {@link Long#MAX_VALUE} when unknown
 * @param outcome committed, backed out, or unknown
 * @param ops its operations in program order, reads with what they returned (for committed transactions)
 */
public record Txn(int id, int process, long invokedAt, long completedAt, Outcome outcome, List<MicroOp> ops) {
    /** The completion time of a transaction whose outcome is unknown: it may take effect at any later time. */
    public static final long NEVER = Long.MAX_VALUE;

    public Txn {
        ops = List.copyOf(ops);
        if (outcome == Outcome.UNKNOWN) {
            completedAt = NEVER;
        }
        if (completedAt < invokedAt) {
            throw new IllegalArgumentException("transaction " + id + " completed at " + completedAt
                    + " before it was invoked at " + invokedAt);
        }
    }

    @Override
    public String toString() {
        return "T" + id + " " + outcome + " " + ops;
    }
}
