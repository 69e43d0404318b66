package dev.waldo.decisions;

import dev.waldo.runtime.DecisionRegister;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.util.TimeDuration;

/**
 * A {@link DecisionRegister} replicated with Apache Ratis: each proposal is a Raft log entry of
 * the {@link DecisionGroup}, and the register's answer is what the replicas' state machine made
 * of it (the first proposal for the attempt). It answers while a majority of the replicas runs,
 * whichever host asks and whichever replica leads. One per host: pass it to
 * {@code Host.create(id, transport, storage, register)}.
 */
public final class RatisDecisionRegister implements DecisionRegister, AutoCloseable {
    /** How often a proposal is tried (a leader change or a replica going away) before the ask fails. */
    private static final int TRIES = 50;
    private static final TimeDuration BETWEEN_TRIES = TimeDuration.valueOf(200, TimeUnit.MILLISECONDS);
    private static final TimeDuration REQUEST_TIMEOUT = TimeDuration.valueOf(3, TimeUnit.SECONDS);

    private final RaftClient client;

    private RatisDecisionRegister(RaftClient client) {
        this.client = client;
    }

    /** A register whose proposals go to the replicas of {@code group}. */
    public static RatisDecisionRegister connect(DecisionGroup group) {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties, REQUEST_TIMEOUT);
        RaftClient client = RaftClient.newBuilder()
                .setProperties(properties)
                .setParameters(new Parameters())
                .setRaftGroup(group.raftGroup())
                // A failed ask is asked again by the host on a later tick: no need to retry forever here.
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(TRIES, BETWEEN_TRIES))
                .build();
        return new RatisDecisionRegister(client);
    }

    /**
     * Sends the proposal from a virtual thread of its own, with the client's blocking call: each
     * ask is retried on its own (a leader change, a replica gone) until it is answered or its
     * tries are spent, whatever became of earlier asks. (Ratis's asynchronous calls from one
     * client are ordered, so one ask that failed for good held back every later one.)
     */
    @Override
    public CompletableFuture<Long> settle(String attempt, long commitStamp) {
        CompletableFuture<Long> outcome = new CompletableFuture<>();
        Thread.ofVirtual().name("waldo-decision-register").start(() -> {
            try {
                outcome.complete(outcome(client.io().send(new Proposal(attempt, commitStamp).toMessage())));
            } catch (IOException | RuntimeException e) {
                outcome.completeExceptionally(e);
            }
        });
        return outcome;
    }

    private static long outcome(RaftClientReply reply) {
        if (!reply.isSuccess()) {
            throw new IllegalStateException("the decision register did not settle the attempt: " + reply.getException());
        }
        return Proposal.settled(reply.getMessage());
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the decision register's client: " + e.getMessage(), e);
        }
    }
}
