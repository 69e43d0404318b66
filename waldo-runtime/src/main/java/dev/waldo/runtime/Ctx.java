package dev.waldo.runtime;

/**
 * The running attempt of one transaction on one host, handed to every
 * generated method as its first argument. Generated code never keeps it
 * beyond the call it was given to.
 *
 * <p>Every method may throw an internal, uncatchable backout signal when the
 * transaction was wounded by an older or primary one; generated code lets it
 * propagate (it only catches {@link ApplicationException} and {@link NetworkException}).
 */
public interface Ctx {
    /**
     * Calls Public function {@code function} on the endpoint or service
     * {@code target}, which may live on another host, inside this transaction.
     * Arguments are copied (value semantics) before they travel.
     *
     * @return the function's result, or {@code null} for {@code Nothing}
     * @throws NetworkException if the target's host is unreachable
     * @throws ApplicationException if the target has no such Public function,
     *     or the function raised one
     */
    Object call(EndpointRef target, String function, Object... args);

    /**
     * Calls Public function {@code function} as {@link #call} does, where the caller promises
     * that this is the last call of the transaction's root body: nothing after it calls another
     * host or waits for a lock. When the root body makes it, the call carries the prepare: the
     * callee prepares right after the function ran (if it called no other host from there) and
     * its reply carries the vote, which saves the commit's Prepare round trip to that host; a
     * transaction whose other hosts are all behind this call then commits in one round trip.
     * Made from a served call, the mark is ignored. Should the body call again afterwards (the
     * promise was wrong), that attempt is retried and the root function's later calls on this
     * host go without the prepare, so a wrong mark costs one retry, never correctness.
     *
     * @return the function's result, or {@code null} for {@code Nothing}
     * @throws NetworkException if the target's host is unreachable
     * @throws ApplicationException if the target has no such Public function,
     *     or the function raised one
     */
    Object lastCall(EndpointRef target, String function, Object... args);

    /**
     * Runs step {@code step} of the sequence in {@code frame} on the partner of
     * {@code self}, inside this transaction, and merges the sequence data the
     * partner changed back into {@code frame}. If the step executed
     * {@code return}, {@link SequenceFrame#returned()} is true afterwards.
     *
     * @throws NetworkException if the partner is unreachable or not connected
     */
    void partnerStep(WaldoEndpoint self, SequenceFrame frame, int step);

    /**
     * Runs step {@code step} as {@link #partnerStep} does, where the compiler proved it is the
     * sequence's last partner step and the sequence's own code after it calls no other host.
     * When the transaction's root body runs the sequence, the call carries the prepare: the
     * partner prepares right after the step and its reply carries the vote, which saves the
     * commit's Prepare round trip. Should the body call again afterwards (code after the
     * sequence), that attempt is retried and the function's later calls go without the prepare.
     *
     * @throws NetworkException if the partner is unreachable or not connected
     */
    void lastPartnerStep(WaldoEndpoint self, SequenceFrame frame, int step);

    /**
     * Backs the whole transaction out on every host; the Java caller gets a
     * {@link TransactionAbortedException} with reason ABORT_CALLED. Never
     * returns normally: generated code writes {@code throw ctx.abort();}.
     */
    RuntimeException abort();

    /**
     * Queues output of Waldo's {@code print}; it is written to the host's
     * output only if this attempt commits, so a retried attempt prints once.
     */
    void print(String text);
}
