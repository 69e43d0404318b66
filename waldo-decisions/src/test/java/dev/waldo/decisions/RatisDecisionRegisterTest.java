package dev.waldo.decisions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The register replicated by three Ratis replicas: the first proposal for an attempt is its
 * outcome, whoever asks; it keeps answering when its leader stops; and what it settled survives
 * every replica stopping and starting again on its log.
 */
@Timeout(120)
class RatisDecisionRegisterTest {
    @TempDir
    Path dir;

    @Test
    void theFirstProposalIsTheOutcomeForEveryAsker() throws Exception {
        try (LoopbackReplicas replicas = LoopbackReplicas.start(3, dir);
             RatisDecisionRegister coordinator = RatisDecisionRegister.connect(replicas.group);
             RatisDecisionRegister participant = RatisDecisionRegister.connect(replicas.group)) {
            assertThat(settle(participant, "h1#7", 0)).isZero();
            assertThat(settle(coordinator, "h1#7", 41)).as("a commit asked after a backout settled").isZero();
            assertThat(settle(coordinator, "h1#8", 42)).isEqualTo(42);
            assertThat(settle(participant, "h1#8", 0)).as("a backout asked after a commit settled: its stamp")
                    .isEqualTo(42);
        }
    }

    @Test
    void itAnswersWithoutItsLeaderAndRemembersAcrossRestarts() throws Exception {
        try (LoopbackReplicas replicas = LoopbackReplicas.start(3, dir)) {
            try (RatisDecisionRegister register = RatisDecisionRegister.connect(replicas.group)) {
                assertThat(settle(register, "h1#1", 7)).isEqualTo(7);
                replicas.stopReplica(replicas.leader());
                assertThat(settle(register, "h1#1", 0)).as("settled before the leader stopped").isEqualTo(7);
                assertThat(settle(register, "h1#2", 0)).isZero();
            }
            replicas.close();
            for (int i = 0; i < 3; i++) {
                replicas.startReplica(i);
            }
            try (RatisDecisionRegister register = RatisDecisionRegister.connect(replicas.group)) {
                assertThat(settle(register, "h1#1", 0)).as("kept in the replicas' logs").isEqualTo(7);
                assertThat(settle(register, "h1#2", 9)).isZero();
            }
        }
    }

    /** Asks until answered, as a host does on its ticks: an ask made during an election may fail. */
    private static long settle(RatisDecisionRegister register, String attempt, long commitStamp) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return register.settle(attempt, commitStamp).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }
}
