package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.testing.Node;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A commit returns to the root's caller at the decision, before the
 * participants installed it; what a caller can observe right after the return
 * must still include the transaction's writes. The coordinator's host holds
 * back its Commit messages here, so the participant has voted yes but not
 * installed when the call returns.
 */
class CommitReturnTest {
    private InMemoryNetwork network;
    private CommitHoldingTransport coordinatorLink;
    private Host participantHost;
    private Node coordinator;
    private Node participant;

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        coordinatorLink = new CommitHoldingTransport(network.attach("coordinator"));
        Host coordinatorHost = Host.create("coordinator", coordinatorLink);
        participantHost = Host.inMemory(network, "participant");
        Host.Connection<Node, Node> pair = coordinatorHost.connect(Node::create, participantHost, Node::create);
        coordinator = pair.local();
        participant = pair.remote();
    }

    @AfterEach
    void close() {
        network.close();
    }

    /** The call returns before the participant installs; a committed() read there waits for the install. */
    @Test
    void aCommittedReadAfterTheCallReturnedSeesItsWriteOnAParticipantThatHasNotInstalledYet() throws Exception {
        coordinatorLink.holdCommits(true);
        CompletableFuture<Object> call = CompletableFuture.supplyAsync(
                () -> coordinator.atomically("add", ctx -> ctx.call(participant.ref(), "add", "x", 5.0)));
        Awaiting.until(call::isDone, "the call returns at the decision, its Commit not delivered");
        // The call returned; the Commit leaves after the decision is applied, and is held back.
        Awaiting.until(() -> coordinatorLink.heldCommits() == 1, "the coordinator's Commit is held back");

        CompletableFuture<Double> read = new CompletableFuture<>();
        Thread reader = Thread.ofVirtual().start(() -> read.complete(participant.x.committed()));
        Awaiting.until(() -> reader.getState() == Thread.State.WAITING, "the committed() read waits for the writer");
        assertThat(read).isNotDone();

        coordinatorLink.holdCommits(false);
        assertThat(read.get()).isEqualTo(5.0);
        assertThat(participant.committedValue("x")).isEqualTo(5.0);
    }

    /**
     * A committed() read waits for a yes-voter; then the coordinator is lost before its Commit
     * arrives, so the attempt goes in doubt here. The read must not wait for good: it reads the
     * value from before the attempt, as a read started now would. (It once waited until the
     * outcome arrived, which never did while the coordinator stayed away: a service's trial timer
     * blocked in such a read and never reverted its trial.)
     */
    @Test
    void aCommittedReadWaitingForAnAttemptThatGoesInDoubtReadsTheValueFromBeforeIt() throws Exception {
        double before = participant.x.committed();
        coordinatorLink.holdCommits(true);
        CompletableFuture<Object> call = CompletableFuture.supplyAsync(
                () -> coordinator.atomically("add", ctx -> ctx.call(participant.ref(), "add", "x", 5.0)));
        Awaiting.until(() -> coordinatorLink.heldCommits() == 1, "the coordinator decided and its Commit is held");
        CompletableFuture<Double> read = new CompletableFuture<>();
        Thread reader = Thread.ofVirtual().start(() -> read.complete(participant.x.committed()));
        Awaiting.until(() -> reader.getState() == Thread.State.WAITING, "the committed() read waits for the writer");

        network.cut("coordinator", "participant");

        Awaiting.until(read::isDone, "the read ends once the attempt is in doubt here");
        assertThat(read.get()).isEqualTo(before);
    }

    /** Bindings took part on the participant: the caller returns only after they committed there. */
    @Test
    void aCallWhoseParticipantHasBindingsReturnsOnlyAfterTheyCommitted() throws Exception {
        RecordingBinding binding = new RecordingBinding();
        participantHost.bind("test", binding);
        coordinatorLink.holdCommits(true);
        CompletableFuture<Object> call = CompletableFuture.supplyAsync(
                () -> coordinator.atomically("bind", ctx -> ctx.call(participant.ref(), "add", "bound", 7.0)));
        Awaiting.until(() -> coordinatorLink.heldCommits() == 1, "the coordinator decided and its Commit is held");
        assertThat(call).as("the participant's bindings have not committed yet").isNotDone();

        coordinatorLink.holdCommits(false);
        call.get();
        assertThat(binding.events()).last().asString().startsWith("commit");
    }
}
