package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Read-only attempts that read a snapshot ({@link HostCore#readSnapshot}, {@link SnapshotReads}):
 * no lock taken, so no wait for and no wound of a writer that is running or preparing; a read
 * waits only for a writer that voted yes and is undecided; validation at prepare refuses an
 * attempt whose read was installed over, or voted on, since; nothing is logged. Scenarios as
 * scripts with their exact traces ({@link ScriptedCore}), and the refusals' reasons on one core.
 */
class SnapshotReadsTest {
    /** An older snapshot reader neither wounds the younger writer holding x nor waits for it. */
    @Test
    void aReaderTakesNoLockSoItNeitherWoundsNorWaitsForARunningWriter() {
        String trace = new ScriptedCore("a").run("""
            begin a R
            snapshot a R
            begin a W            # younger: an ordinary older reader would wound it
            lock a W x
            lock a R x read
            locks a              # W alone holds x, and nobody waits
            done a R
            vote a R yes
            done a W
            vote a W yes
            log a
            """);
        assertThat(trace).isEqualTo("""
            > begin a R
            > snapshot a R
            > begin a W
            > lock a W x
              granted
            > lock a R x read
              granted
            > locks a
              1.x: held W/ACTIVE/WRITE; waiting; overtakes 0, phase age 0
            > done a R
              a: prepare R
            > vote a R yes
              a: install R
              a: root R COMMITTED
            > done a W
              a: prepare W
            > vote a W yes
              a: install W
              a: root W COMMITTED
            > log a""");
    }

    /**
     * A writer committed at its coordinator, whose caller may have returned, and not yet installed
     * on b (its Commit was lost and is re-sent later). A snapshot reader on b reads around it, and
     * b's validation asks the writer's coordinator: committed, so the reader is refused; its next
     * attempt's read waits for the writer's install, and sees it.
     */
    @Test
    void aWriterCommittedAtItsCoordinatorRefusesTheReaderAndItsRetryWaitsForTheInstall() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a W
            call a W b
            deliver a b
            serve b W x
            deliver b a
            done a W
            deliver a b
            vote b W yes
            deliver b a
            vote a W yes         # committed, the caller returns
            drop a b             # the Commit to b is lost: a re-sends it later
            begin b R
            snapshot b R
            lock b R x read      # reads around W: no wait
            done b R             # b asks W's coordinator before it votes
            vote b R yes
            deliver b a
            deliver a b
            retry b R
            snapshot b R'
            lock b R' x read
            locks b
            tick a 2
            deliver a b
            done b R'
            vote b R' yes
            """);
        assertThat(trace).isEqualTo("""
            > begin a W
            > call a W b
              a -> b: Call W (primary)
            > deliver a b
              b: run call of W
            > serve b W x
              granted
              b -> a: Reply W
            > deliver b a
              a: reply to W
            > done a W
              a: prepare W
              a -> b: Prepare W
            > deliver a b
              b: prepare W
            > vote b W yes
              b -> a: Vote W YES
            > deliver b a
            > vote a W yes
              a: install W
              a: root W COMMITTED
              a -> b: Commit W
            > drop a b
              lost Commit W
            > begin b R
            > snapshot b R
            > lock b R x read
              granted
            > done b R
              b: prepare R
              b -> a: Query W
            > vote b R yes
            > deliver b a
              a -> b: Answer W COMMITTED
            > deliver a b
              b: discard R (prepared)
              b: root R RETRY
            > retry b R
            > snapshot b R'
            > lock b R' x read
              waiting
            > locks b
              1.x: held W/PREPARED/WRITE; waiting; overtakes 0, phase age 0
              1.x: snapshot read waiting R'
            > tick a 2
              a -> b: Commit W
            > deliver a b
              b: install W
              b: granted R' x
              b -> a: Ack W
            > done b R'
              b: prepare R'
            > vote b R' yes
              b: install R'
              b: root R' COMMITTED""");
    }

    /**
     * A writer that voted yes on b while c still prepares (a slow device push there) is undecided:
     * a snapshot reader on b reads around it, b's validation asks its coordinator, which answers
     * undecided, and the reader commits with the value from before the writer, which commits later.
     */
    @Test
    void aWriterStillUndecidedAtItsCoordinatorNeitherHoldsUpNorFailsAReader() {
        String trace = new ScriptedCore("a", "b", "c").run("""
            begin a W
            call a W b
            deliver a b
            serve b W x
            deliver b a
            call a W c
            deliver a c
            serve c W y
            deliver c a
            done a W
            vote a W yes
            deliver a b
            deliver a c
            vote b W yes         # b voted; c's bindings are still preparing
            deliver b a
            begin b R
            snapshot b R
            lock b R x read
            done b R
            vote b R yes
            deliver b a
            deliver a b
            vote c W yes
            deliver c a
            deliver a b
            """);
        assertThat(trace).endsWith("""
            > begin b R
            > snapshot b R
            > lock b R x read
              granted
            > done b R
              b: prepare R
              b -> a: Query W
            > vote b R yes
            > deliver b a
              a -> b: Answer W UNDECIDED
            > deliver a b
              b: install R
              b: root R COMMITTED
            > vote c W yes
              c -> a: Vote W YES
            > deliver c a
              a: install W
              a: root W COMMITTED
              a -> b: Commit W
              a -> c: Commit W
            > deliver a b
              b: install W
              b -> a: Ack W""");
    }

    /** A writer still preparing (its bindings pushing to a device) cannot be committed yet: the read neither waits nor fails. */
    @Test
    void aWriterThatHasNotVotedYetNeitherHoldsUpNorFailsARead() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a W
            call a W b
            deliver a b
            serve b W x
            deliver b a
            done a W
            deliver a b          # b's bindings prepare W, slowly
            begin b R
            snapshot b R
            lock b R x read
            done b R
            vote b R yes
            vote b W yes
            deliver b a
            vote a W yes
            deliver a b
            """);
        assertThat(trace).contains("""
            > lock b R x read
              granted
            > done b R
              b: prepare R
            > vote b R yes
              b: install R
              b: root R COMMITTED
            > vote b W yes""").endsWith("""
              a: root W COMMITTED
              a -> b: Commit W
            > deliver a b
              b: install W
              b -> a: Ack W""");
    }

    /**
     * A distributed snapshot reader whose read on b a writer installed over before b validated it:
     * b votes WOUNDED and the root backs it out, to run it again.
     */
    @Test
    void aReadInstalledOverBeforeTheValidationIsRefused() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a R
            snapshot a R
            call a R b
            deliver a b
            serve b R x read
            deliver b a
            begin b W
            lock b W x
            done b W
            vote b W yes
            done a R
            vote a R yes
            deliver a b
            deliver b a
            deliver a b
            deliver b a
            """);
        assertThat(trace).endsWith("""
            > done a R
              a: prepare R
              a -> b: Prepare R
            > vote a R yes
            > deliver a b
              b: wounded R
              b: discard R
              b -> a: Vote R WOUNDED
            > deliver b a
              a: discard R (prepared)
              a -> b: Backout R
            > deliver a b
              b -> a: Ack R
            > deliver b a
              a: root R RETRY""");
    }

    /**
     * The last call carries the prepare, so its callee validates at once; a read on the root's host
     * after it would escape that validation, so the attempt is retried with its calls unmarked.
     * Neither attempt logs anything: a read-only attempt installs nothing.
     */
    @Test
    void aReadAfterTheLastCallRetriesWithoutThePrepareAndNothingIsLogged() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a R
            snapshot a R
            last a R b
            deliver a b
            serve b R x read
            vote b R yes
            deliver b a
            lock a R y read
            done a R
            deliver a b all
            deliver b a
            retry a R
            snapshot a R'
            last a R' b
            deliver a b
            serve b R' x read
            deliver b a
            lock a R' y read
            done a R'
            vote a R' yes
            deliver a b
            vote b R' yes
            deliver b a
            log a
            log b
            """);
        assertThat(trace).isEqualTo("""
            > begin a R
            > snapshot a R
            > last a R b
              a -> b: Call R (primary) (snapshot) + Prepare
            > deliver a b
              b: run call of R
            > serve b R x read
              granted
              b: prepare R
            > vote b R yes
              b -> a: Reply R + Vote YES
            > deliver b a
              a: reply to R
            > lock a R y read
              waiting
              a: wounded R
              a -> b: Wound R
            > done a R
              a: discard R
              a: root R RETRY
              a -> b: Backout R
            > deliver a b all
              b: discard R (prepared)
              b -> a: Ack R
            > deliver b a
            > retry a R
            > snapshot a R'
            > last a R' b
              a -> b: Call R' (primary) (snapshot)
            > deliver a b
              b: run call of R'
            > serve b R' x read
              granted
              b -> a: Reply R'
            > deliver b a
              a: reply to R'
            > lock a R' y read
              granted
            > done a R'
              a: prepare R'
              a -> b: Prepare R'
            > vote a R' yes
            > deliver a b
              b: prepare R'
            > vote b R' yes
              b -> a: Vote R' YES
            > deliver b a
              a: install R'
              a: root R' COMMITTED
              a -> b: Commit R'
            > log a
            > log b""");
    }

    // ---- on one core: the refusals' reasons ---------------------------------------------------

    private final HostCore core = new HostCore(1);

    private static LockId x(LockMode mode) {
        return LockId.whole(1, "x", mode);
    }

    private static LockId key(String key, LockMode mode) {
        return LockId.key(1, "m", key, mode);
    }

    private TxnId reader() {
        TxnId reader = core.begin(1);
        core.readSnapshot(reader);
        return reader;
    }

    /** Ends {@code txn}'s root body, votes yes when asked to prepare, and returns how the root ended, with the reason. */
    private String commit(TxnId txn) {
        core.finishRoot(txn, HostCore.Ending.DONE);
        List<Decision> decisions = new ArrayList<>(core.drain().decisions());
        if (decisions.stream().anyMatch(d -> d instanceof Decision.PrepareLocal p && p.txn().equals(txn))) {
            core.vote(txn, true, null);
            decisions.addAll(core.drain().decisions());
        }
        return decisions.stream().filter(d -> d instanceof Decision.RootDone done && done.txn().equals(txn))
                .map(d -> (Decision.RootDone) d).map(done -> done.result() + (done.reason() == null ? "" : ": " + done.reason()))
                .findFirst().orElse("undecided");
    }

    @Test
    void aReadInstalledOverIsRefusedNamingTheVariable() {
        TxnId reader = reader();
        assertThat(core.lock(reader, key("a", LockMode.READ))).isTrue();
        TxnId writer = core.begin(1);
        assertThat(core.lock(writer, key("a", LockMode.WRITE))).isTrue();
        assertThat(commit(writer)).isEqualTo("COMMITTED");
        assertThat(commit(reader)).isEqualTo("RETRY: snapshot validation failed: variable 'm' key a of object 1 was"
                + " changed by a transaction that committed after read-only attempt " + reader + " read it (host 1)");
    }

    @Test
    void aWriteToAnotherKeyLeavesAKeyReadValid() {
        TxnId reader = reader();
        assertThat(core.lock(reader, key("a", LockMode.READ))).isTrue();
        TxnId writer = core.begin(1);
        assertThat(core.lock(writer, key("b", LockMode.WRITE))).isTrue();
        assertThat(commit(writer)).isEqualTo("COMMITTED");
        assertThat(commit(reader)).isEqualTo("COMMITTED");
    }

    @Test
    void aWholeReadIsRefusedWhenAnyKeyChanged() {
        TxnId reader = reader();
        assertThat(core.lock(reader, LockId.whole(1, "m", LockMode.READ))).isTrue();
        TxnId adder = core.begin(1);
        assertThat(core.lock(adder, key("b", LockMode.ADD))).isTrue();
        assertThat(commit(adder)).isEqualTo("COMMITTED");
        assertThat(commit(reader)).startsWith("RETRY: snapshot validation failed: variable 'm' of object 1 was changed");
    }

    /**
     * A writer coordinated by host 2 votes yes on host 1 after a reader read there. Asked, host 2
     * says it committed (its Commit to host 1 is lost): host 1 refuses the reader, naming the writer.
     */
    @Test
    void aReadThatAWriterCommittedSinceIsRefusedNamingTheWriter() {
        HostCore coordinator = new HostCore(2);
        TxnId reader = reader();
        assertThat(core.lock(reader, x(LockMode.READ))).isTrue();
        TxnId writer = coordinator.begin(1);
        coordinator.call(writer, 1, "write x");
        deliver(coordinator, core);
        Decision.RunCall run = (Decision.RunCall) core.drain().decisions().getFirst();
        assertThat(core.lock(writer, x(LockMode.WRITE))).isTrue();
        core.finishCall(writer, run.callId(), "done", false);
        deliver(core, coordinator);
        coordinator.finishRoot(writer, HostCore.Ending.DONE);
        deliver(coordinator, core);
        core.drain();
        core.vote(writer, true, null);
        deliver(core, coordinator);
        coordinator.vote(writer, true, null); // committed at host 2
        coordinator.drain(); // its Commit to host 1 is lost
        core.finishRoot(reader, HostCore.Ending.DONE); // validated: host 1 asks host 2 about the writer
        core.vote(reader, true, null); // held until host 2 answered
        deliver(core, coordinator);
        deliver(coordinator, core);
        assertThat(core.drain().decisions()).filteredOn(d -> d instanceof Decision.RootDone)
                .extracting(d -> ((Decision.RootDone) d).reason())
                .containsExactly("snapshot validation failed: attempt " + writer + ", which wrote what read-only"
                        + " attempt " + reader + " read, is committed at its coordinator (host 1)");
    }

    /** Steps every message {@code from} has drained for {@code to} into it. */
    private static void deliver(HostCore from, HostCore to) {
        for (Envelope envelope : from.drain().messages()) {
            if (envelope.to() == to.host()) {
                to.step(envelope);
            }
        }
    }

    @Test
    void aReadOnlyAttemptMayOnlyRead() {
        TxnId reader = reader();
        assertThatThrownBy(() -> core.lock(reader, x(LockMode.WRITE))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("read-only attempt " + reader + " asked for variable 'x' of object 1 in mode WRITE: it may"
                        + " only read");
    }

    @Test
    void onlyAnAttemptThatHasNotRunYetCanBecomeASnapshotReader() {
        TxnId writer = core.begin(1);
        assertThat(core.lock(writer, x(LockMode.WRITE))).isTrue();
        assertThatThrownBy(() -> core.readSnapshot(writer)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not a root attempt of host 1 that has not run yet");
    }

    @Test
    void installStampsAreKeptOnlyWhileAReaderNeedsThem() {
        TxnId reader = reader();
        assertThat(core.lock(reader, x(LockMode.READ))).isTrue();
        assertThat(commit(reader)).isEqualTo("COMMITTED");
        // No reader is live: an install now is not remembered, and a reader that starts after it is valid.
        TxnId writer = core.begin(1);
        assertThat(core.lock(writer, x(LockMode.WRITE))).isTrue();
        assertThat(commit(writer)).isEqualTo("COMMITTED");
        TxnId later = reader();
        assertThat(core.lock(later, x(LockMode.READ))).isTrue();
        assertThat(commit(later)).isEqualTo("COMMITTED");
        assertThat(core.liveAttempts()).isZero();
    }
}
