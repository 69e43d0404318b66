package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.testing.Node;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A participant that voted yes and then lost its coordinator is in doubt: it
 * keeps the transaction's locks until told the decision, or until the program
 * resolves it alone with {@link Host#resolveInDoubt}.
 */
@Timeout(60)
class InDoubtTest {
    private InMemoryNetwork network;
    private Host coordinatorHost;
    private Host participantHost;
    private Node coordinator;
    private Node participant;
    private final AtomicReference<String> preparedId = new AtomicReference<>();
    private final RecordingBinding binding = new RecordingBinding() {
        @Override
        public Vote prepare(BoundTransaction transaction) {
            super.prepare(transaction);
            preparedId.set(transaction.id());
            coordinatorHost.close();  // the coordinator dies before it can decide
            return Vote.yes();
        }
    };

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        coordinatorHost = Host.inMemory(network, "coordinator");
        participantHost = Host.inMemory(network, "participant");
        Host.Connection<Node, Node> pair = coordinatorHost.connect(Node::create, participantHost, Node::create);
        coordinator = pair.local();
        participant = pair.remote();
        participantHost.bind("test", binding);
    }

    @AfterEach
    void close() {
        network.close();
    }

    /** Starts a transaction that changes the participant's bound variable and loses its coordinator. */
    private void leaveInDoubt() {
        Thread.ofVirtual().start(() -> {
            try {
                coordinator.atomically("strand", ctx -> ctx.call(participant.ref(), "add", "bound", 7.0));
            } catch (RuntimeException expected) {
                // The coordinator's own host closed under it.
            }
        });
        Awaiting.until(() -> preparedId.get() != null && !participantHost.canReach("coordinator")
                && participantHost.lockedVariables() > 0, "the participant is prepared and cut off");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void theParticipantResolvesAloneAndReleasesItsLocks(boolean commit) {
        leaveInDoubt();

        assertThat(participantHost.resolveInDoubt(preparedId.get(), commit)).isTrue();

        Awaiting.until(() -> participantHost.lockedVariables() == 0 && participantHost.liveTransactions() == 0,
                "the in-doubt transaction's locks are released");
        assertThat(participant.committedValue("bound")).isEqualTo(commit ? 7.0 : 0.0);
        Awaiting.until(() -> binding.events().size() == 2, "the binding hears the outcome");
        assertThat(binding.events()).last().asString().startsWith(commit ? "commit" : "abort");
        assertThat(participantHost.heuristicHazards()).isZero();
    }

    @Test
    void aTransactionWhoseCoordinatorIsReachableIsNotInDoubt() {
        assertThat(participantHost.resolveInDoubt("no-such-transaction", false)).isFalse();
        participant.add("bound", 1.0);  // committed normally; nothing is left to resolve
        assertThat(participantHost.resolveInDoubt(preparedId.get(), false)).isFalse();
        assertThat(participant.committedValue("bound")).isEqualTo(1.0);
    }
}
