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
            assertThat(settle(participant, "h1#7", false)).isFalse();
            assertThat(settle(coordinator, "h1#7", true)).as("a commit asked after a backout settled").isFalse();
            assertThat(settle(coordinator, "h1#8", true)).isTrue();
            assertThat(settle(participant, "h1#8", false)).as("a backout asked after a commit settled").isTrue();
        }
    }

    @Test
    void itAnswersWithoutItsLeaderAndRemembersAcrossRestarts() throws Exception {
        try (LoopbackReplicas replicas = LoopbackReplicas.start(3, dir)) {
            try (RatisDecisionRegister register = RatisDecisionRegister.connect(replicas.group)) {
                assertThat(settle(register, "h1#1", true)).isTrue();
                replicas.stopReplica(replicas.leader());
                assertThat(settle(register, "h1#1", false)).as("settled before the leader stopped").isTrue();
                assertThat(settle(register, "h1#2", false)).isFalse();
            }
            replicas.close();
            for (int i = 0; i < 3; i++) {
                replicas.startReplica(i);
            }
            try (RatisDecisionRegister register = RatisDecisionRegister.connect(replicas.group)) {
                assertThat(settle(register, "h1#1", false)).as("kept in the replicas' logs").isTrue();
                assertThat(settle(register, "h1#2", true)).isFalse();
            }
        }
    }

    /** Asks until answered, as a host does on its ticks: an ask made during an election may fail. */
    private static boolean settle(RatisDecisionRegister register, String attempt, boolean commit) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return register.settle(attempt, commit).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }
}
