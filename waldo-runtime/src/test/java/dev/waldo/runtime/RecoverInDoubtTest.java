package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.testing.Node;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A host that restarted with a transaction its binding journaled as voted yes
 * asks the other participants for the outcome ({@link Host#recoverInDoubt}).
 * Here h1 coordinates a transaction on h2 and h3; h2's binding journals what
 * it was given, and a fresh host stands in for h2's next run.
 */
@Timeout(60)
class RecoverInDoubtTest {
    private InMemoryNetwork network;
    private Host h1;
    private Host h2;
    private Host h3;
    private Node onH1;
    private Node onH2;
    private Node onH3;
    private final AtomicReference<BoundTransaction> journaled = new AtomicReference<>();

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        h1 = Host.inMemory(network, "h1");
        h2 = Host.inMemory(network, "h2");
        h3 = Host.inMemory(network, "h3");
        Host.Connection<Node, Node> toH2 = h1.connect(Node::create, h2, Node::create);
        onH1 = toH2.local();
        onH2 = toH2.remote();
        onH3 = h1.connect(Node::create, h3, Node::create).remote();
        h2.bind("test", new RecordingBinding() {
            @Override
            public Vote prepare(BoundTransaction transaction) {
                journaled.set(transaction);
                return super.prepare(transaction);
            }
        });
    }

    @AfterEach
    void close() {
        network.close();
    }

    private void addOnBothParticipants() {
        onH1.atomically("addBoth", ctx -> {
            ctx.call(onH2.ref(), "add", "bound", 7.0);
            return ctx.call(onH3.ref(), "add", "bound", 7.0);
        });
    }

    @Test
    void theBindingIsToldWhomToAskTheOtherParticipantAndTheCoordinator() {
        addOnBothParticipants();

        assertThat(journaled.get().peers()).containsExactlyInAnyOrder("h1", "h3");
    }

    @Test
    void aRestartedParticipantLearnsThatTheTransactionCommitted() throws Exception {
        h3.bind("test", new RecordingBinding());
        addOnBothParticipants();
        Host restarted = Host.inMemory(network, "h2-next-run");

        var outcome = restarted.recoverInDoubt(journaled.get().id(), journaled.get().peers());
        var askedAgain = restarted.recoverInDoubt(journaled.get().id(), journaled.get().peers());

        assertThat(outcome.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(askedAgain.get(30, TimeUnit.SECONDS)).as("a second ask learns the same").isTrue();
        assertThat(restarted.liveTransactions()).isZero();
    }

    @Test
    void aRestartedParticipantLearnsThatAnotherParticipantsNoBackedItOut() throws Exception {
        h3.bind("test", new RecordingBinding() {
            @Override
            public Vote prepare(BoundTransaction transaction) {
                return Vote.no("h3's device refused");
            }
        });
        assertThatThrownBy(this::addOnBothParticipants).isInstanceOf(TransactionAbortedException.class);
        Host restarted = Host.inMemory(network, "h2-next-run");

        // Only h3 is asked by name; h1, the coordinator, is asked because the id names it.
        var outcome = restarted.recoverInDoubt(journaled.get().id(), List.of("h3", "no-such-host"));

        assertThat(outcome.get(30, TimeUnit.SECONDS)).isFalse();
        assertThat(restarted.liveTransactions()).isZero();
    }

    @Test
    void whileEveryoneAskedIsGoneTheTransactionStaysInDoubt() throws Exception {
        addOnBothParticipants();
        h1.close();
        h3.close();
        Host restarted = Host.inMemory(network, "h2-next-run");

        var outcome = restarted.recoverInDoubt(journaled.get().id(), journaled.get().peers());

        Thread.sleep(300); // several resend intervals: nobody answers, so nothing is decided
        assertThat(outcome).isNotDone();
        assertThat(restarted.liveTransactions()).isEqualTo(1);
    }

    @Test
    void anIdThatIsNotHostDotSerialIsRefusedWithWhatItShouldLookLike() {
        Host restarted = Host.inMemory(network, "h2-next-run");

        assertThatThrownBy(() -> restarted.recoverInDoubt("not-an-id", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host.serial");
    }

    @Test
    void aCoordinatorThatNoIdNamesIsRefused() {
        Host restarted = Host.inMemory(network, "h2-next-run");

        assertThatThrownBy(() -> restarted.recoverInDoubt("99.1", List.of("h3")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("coordinator, host number 99");
    }
}
