package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.core.StorageRecord;
import dev.waldo.runtime.core.TxnId;
import dev.waldo.runtime.storage.FileStorage;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.testing.Node;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hosts keep their transaction records in a {@link dev.waldo.runtime.storage.Storage}:
 * what a participant logs around a commit, and a host started on a log that
 * holds a prepared attempt, which it takes up and settles by asking.
 */
@Timeout(60)
class HostStorageTest {
    private final InMemoryNetwork network = new InMemoryNetwork();

    @TempDir
    Path directory;

    @AfterEach
    void close() {
        network.close();
    }

    @Test
    void aParticipantLogsItsYesVoteThenItsEndAndForgetsItOnceAcknowledged() {
        InMemoryStorage storage = new InMemoryStorage();
        Host h1 = Host.inMemory(network, "h1");
        Host h2 = Host.inMemory(network, "h2", storage);
        Host h3 = Host.inMemory(network, "h3");
        Host.Connection<Node, Node> toH2 = h1.connect(Node::create, h2, Node::create);
        Node onH3 = h1.connect(Node::create, h3, Node::create).remote();
        h2.bind("test", new RecordingBinding());

        toH2.local().atomically("addBoth", ctx -> {
            ctx.call(toH2.remote().ref(), "add", "bound", 7.0);
            return ctx.call(onH3.ref(), "add", "bound", 7.0);
        });
        h2.close(); // nothing more is appended

        List<StorageRecord> log = storage.load();
        assertThat(log).hasSize(3);
        StorageRecord.Prepared prepared = (StorageRecord.Prepared) log.get(0);
        assertThat(prepared.coordinator()).as("h1's number").isEqualTo(1);
        assertThat(prepared.peers()).as("h3's number").containsExactly(3);
        assertThat(new String(prepared.payload(), java.nio.charset.StandardCharsets.UTF_8))
                .as("whom to ask, by host id, so a restarted wire transport can name them").isEqualTo("h1\nh3");
        assertThat(log.subList(1, 3)).containsExactly(new StorageRecord.Ended(prepared.txn(), true),
                new StorageRecord.Forgotten(prepared.txn()));
    }

    @Test
    void aHostStartedOnALogWithAPreparedAttemptAsksAndLogsTheOutcome() throws Exception {
        Host h1 = Host.inMemory(network, "h1");
        Host.inMemory(network, "h2");
        // The previous run of this host voted yes on h1's attempt 1.100000 and died. h1 never
        // logged a commit for it, so h1 answers backed out (presumed abort).
        TxnId lost = new TxnId(1, 100_000);
        try (FileStorage earlierRun = FileStorage.open(directory)) {
            earlierRun.load();
            earlierRun.append(List.of(new StorageRecord.Prepared(lost, 1, Set.of(2),
                    List.of(LockId.whole(1, "bound")), new byte[0])));
        }

        Host restarted = Host.inMemory(network, "h3-next-run", FileStorage.open(directory));
        var outcome = restarted.recoverInDoubt(lost.toString(), List.of("h1", "h2"));

        assertThat(outcome.get(30, TimeUnit.SECONDS)).isFalse();
        Awaiting.until(() -> restarted.liveTransactions() == 0, "the attempt is settled on the restarted host");
        restarted.close();
        try (FileStorage reopened = FileStorage.open(directory)) {
            assertThat(reopened.load()).last().isEqualTo(new StorageRecord.Ended(lost, false));
        }
        assertThat(h1.liveTransactions()).isZero();
    }

    /**
     * A restarted host lists what its log holds in doubt, with the peers the prepare was logged
     * with, so bindings need not journal peers; and a binding attaches to it by id alone. The
     * peers are down, so the attempt stays in doubt while the test looks (the outcome itself is
     * {@link #aHostStartedOnALogWithAPreparedAttemptAsksAndLogsTheOutcome}'s).
     */
    @Test
    void aRestartedHostListsItsInDoubtAttemptsWithTheLoggedPeersAndAttachesToThemByIdAlone() throws Exception {
        Host.inMemory(network, "h1").close();
        Host.inMemory(network, "h2").close();
        TxnId lost = new TxnId(1, 100_000);
        TxnId ended = new TxnId(1, 100_001);
        try (FileStorage earlierRun = FileStorage.open(directory)) {
            earlierRun.load();
            earlierRun.append(List.of(
                    new StorageRecord.Prepared(lost, 1, Set.of(2), List.of(LockId.whole(1, "bound")), new byte[0]),
                    new StorageRecord.Prepared(ended, 1, Set.of(), List.of(), new byte[0]),
                    new StorageRecord.Ended(ended, true)));
        }

        Host restarted = Host.inMemory(network, "h3-next-run", FileStorage.open(directory));

        assertThat(restarted.restoredInDoubt()).as("only the attempt whose end was not logged")
                .containsExactly(new Host.RestoredInDoubt(lost.toString(), List.of("h1", "h2")));
        var outcome = restarted.recoverInDoubt(lost.toString());
        assertThat(outcome).as("attached, still asking the peers it logged").isNotDone();
        assertThat(restarted.recoverInDoubt(lost.toString())).as("asked twice: one outcome").isSameAs(outcome);
        restarted.close();
    }

    /**
     * A binding journaled its work before its host's yes vote was logged, and the process died in
     * between (WaldoConf's service killed inside its prepare). The log holds no prepare, so the
     * vote never left: the attempt is backed out at once, even when no peer is reachable or every
     * peer has forgotten it (it used to stay in doubt until a trial's deadline).
     */
    @Test
    void anAttemptTheLogNeverPreparedIsBackedOutWithoutAskingAnyone() throws Exception {
        try (FileStorage earlierRun = FileStorage.open(directory)) {
            earlierRun.load(); // the earlier run logged nothing: it died before its vote
        }
        Host restarted = Host.inMemory(network, "h3-next-run", FileStorage.open(directory));
        TxnId neverVoted = new TxnId(1, 100_000);

        var outcome = restarted.recoverInDoubt(neverVoted.toString(), List.of("gone-coordinator", "gone-peer"));

        assertThat(outcome.get(30, TimeUnit.SECONDS)).as("backed out, though nobody answers").isFalse();
        restarted.close();
    }
}
