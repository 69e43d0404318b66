package dev.waldo.runtime;

import java.util.concurrent.CompletableFuture;

/**
 * Where the outcomes of distributed transactions are settled when no single coordinator may
 * decide them alone ({@link Host#create(String, Transport, dev.waldo.runtime.storage.Storage, DecisionRegister)}): a register that keeps, for each attempt,
 * the first outcome proposed for it. A coordinator proposes commit once every participant voted
 * yes and commits only if the register settles commit; a participant that lost its coordinator
 * proposes backout. Replicated across several machines (for example with Raft, as
 * {@code dev.waldo.decisions.RatisDecisionRegister} does), the register outlives any one of them,
 * so a participant never waits on a coordinator that is gone for good.
 *
 * <p>Every host of a network must use the same register.
 */
public interface DecisionRegister {
    /**
     * Settles {@code attempt} unless it is settled already, and returns the outcome it holds.
     * A commit carries its stamp (the order in which participants install shared appends, see
     * {@code Message.Commit}), which a participant that learns the commit from the register needs.
     *
     * @param attempt the attempt's name, unique on the network for good (its coordinator's host id
     *     and the attempt's serial, which no later run of that host reuses)
     * @param commitStamp the outcome proposed: the commit's stamp (above 0) to commit, 0 to back out
     * @return completes with the settled outcome, the first one proposed for {@code attempt}: its
     *     commit's stamp if committed, 0 if backed out; or exceptionally if the register could not
     *     be reached, in which case the host asks again later
     */
    CompletableFuture<Long> settle(String attempt, long commitStamp);
}
