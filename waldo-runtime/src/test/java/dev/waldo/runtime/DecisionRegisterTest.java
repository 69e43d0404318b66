package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.testing.Node;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hosts whose outcomes a {@link DecisionRegister} settles: a participant whose coordinator died
 * after every vote was yes does not stay in doubt (as {@link InDoubtTest}'s does) but learns the
 * outcome from the register, with its locks released and its binding told. The register here is
 * one map in this JVM; waldo-decisions replicates it with Raft.
 */
@Timeout(60)
class DecisionRegisterTest {
    /** The first proposal per attempt; {@code onCommitAsked} runs when a coordinator asks to commit. */
    private static final class MapRegister implements DecisionRegister {
        final Map<String, Long> settled = new ConcurrentHashMap<>();
        volatile Runnable onCommitAsked = () -> { };

        @Override
        public CompletableFuture<Long> settle(String attempt, long commitStamp) {
            long outcome = settled.computeIfAbsent(attempt, a -> commitStamp);
            if (commitStamp == 0) {
                return CompletableFuture.completedFuture(outcome);
            }
            return CompletableFuture.supplyAsync(() -> {
                onCommitAsked.run();
                return outcome;
            });
        }
    }

    private final InMemoryNetwork network = new InMemoryNetwork();
    private final MapRegister register = new MapRegister();
    private final Host coordinatorHost = Host.inMemory(network, "coordinator", new InMemoryStorage(), register);
    private final Host participantHost = Host.inMemory(network, "participant", new InMemoryStorage(), register);
    private final AtomicReference<String> preparedId = new AtomicReference<>();
    /** The coordinator dies as the participant votes, before it can ask the register. */
    private volatile boolean coordinatorDiesAtTheVote;
    private final RecordingBinding binding = new RecordingBinding() {
        @Override
        public Vote prepare(BoundTransaction transaction) {
            super.prepare(transaction);
            preparedId.set(transaction.id());
            if (coordinatorDiesAtTheVote) {
                coordinatorHost.close();
            }
            return Vote.yes();
        }
    };
    private Node coordinator;
    private Node participant;

    @AfterEach
    void close() {
        network.close();
    }

    private void connect() {
        Host.Connection<Node, Node> pair = coordinatorHost.connect(Node::create, participantHost, Node::create);
        coordinator = pair.local();
        participant = pair.remote();
        participantHost.bind("test", binding);
    }

    /** Runs a transaction that adds 7 to the participant's bound variable, from a thread the coordinator's death may strand. */
    private void addSevenFromTheCoordinator() {
        Thread.ofVirtual().start(() -> {
            try {
                coordinator.atomically("strand", ctx -> ctx.call(participant.ref(), "add", "bound", 7.0));
            } catch (RuntimeException expected) {
                // The coordinator's own host closed under it.
            }
        });
    }

    @Test
    void aParticipantLearnsACommitTheCoordinatorDidNotLiveToSend() {
        connect();
        // The register settles the commit, and the coordinator dies before it hears so.
        register.onCommitAsked = coordinatorHost::close;
        addSevenFromTheCoordinator();

        // Idle before the transaction reaches it too: wait for its binding to hear an outcome first.
        Awaiting.until(() -> binding.events().size() == 2 && participantHost.liveTransactions() == 0
                && participantHost.lockedVariables() == 0, "the participant learned the outcome from the register");
        assertThat(register.settled.values()).as("a commit, with its stamp").anyMatch(stamp -> stamp > 0);
        assertThat(participant.committedValue("bound")).isEqualTo(7.0);
        Awaiting.until(() -> binding.events().size() == 2, "the binding hears the outcome");
        assertThat(binding.events()).last().asString().startsWith("commit");
    }

    @Test
    void aParticipantWhoseCoordinatorDiedBeforeDecidingBacksOutThroughTheRegister() {
        connect();
        coordinatorDiesAtTheVote = true;
        addSevenFromTheCoordinator();

        Awaiting.until(() -> preparedId.get() != null && participantHost.liveTransactions() == 0
                && participantHost.lockedVariables() == 0, "the participant settled the attempt through the register");
        assertThat(register.settled).as("a backout").containsValue(0L);
        assertThat(participant.committedValue("bound")).isEqualTo(0.0);
        Awaiting.until(() -> binding.events().size() == 2, "the binding hears the outcome");
        assertThat(binding.events()).last().asString().startsWith("abort");
    }
}
