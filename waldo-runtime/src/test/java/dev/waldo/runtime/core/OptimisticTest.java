package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tribune's optimistic concurrency control in one host's core: bodies take no
 * locks and never wait; at the vote an attempt whose reads were overwritten
 * since is refused with a retry, disjoint attempts both commit, commuting adds
 * need no read validation, and a body that touches what a prepared attempt
 * is still committing waits for that attempt's end. The host layer is played by hand:
 * a root ends with {@link HostCore#finishRoot}, the bindings vote yes.
 */
class OptimisticTest {
    private final HostCore core = new HostCore(1);
    /** Every decision {@link #commit} drained, for tests that look for a grant among them. */
    private final List<Decision> decided = new ArrayList<>();

    @BeforeEach
    void optimistic() {
        core.useOptimisticConcurrency();
    }

    private static LockId x(LockMode mode) {
        return LockId.whole(1, "x", mode);
    }

    private static LockId key(String key, LockMode mode) {
        return LockId.key(1, "m", key, mode);
    }

    /**
     * Ends the root body of {@code txn} as done, votes yes when asked to prepare (bindings
     * finish later if {@code finishLater}) and returns how the root ended with the reason, or
     * "undecided".
     */
    private String commit(TxnId txn, boolean finishLater) {
        core.finishRoot(txn, HostCore.Ending.DONE);
        List<Decision> decisions = new ArrayList<>(core.drain().decisions());
        if (decisions.stream().anyMatch(d -> d instanceof Decision.PrepareLocal p && p.txn().equals(txn))) {
            core.vote(txn, true, null, finishLater);
            decisions.addAll(core.drain().decisions());
        }
        decided.addAll(decisions);
        for (Decision decision : decisions) {
            if (decision instanceof Decision.RootDone done && done.txn().equals(txn)) {
                return done.result() + (done.reason() == null ? "" : ": " + done.reason());
            }
        }
        return "undecided";
    }

    private String commit(TxnId txn) {
        return commit(txn, false);
    }

    @Test
    void bodiesTakeNoLocksAndNeverWait() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        assertThat(core.lock(t1, x(LockMode.WRITE))).isTrue();
        assertThat(core.lock(t2, x(LockMode.WRITE))).isTrue();
        assertThat(core.waitingRequests()).isZero();
        assertThat(core.drain().decisions()).isEmpty();
    }

    @Test
    void aReadOverwrittenBeforeTheVoteIsRefusedWithARetry() {
        TxnId reader = core.begin(1);
        TxnId writer = core.begin(1);
        assertThat(core.lock(reader, x(LockMode.READ))).isTrue();
        assertThat(core.lock(writer, x(LockMode.WRITE))).isTrue();
        assertThat(commit(writer)).isEqualTo("COMMITTED");
        assertThat(commit(reader)).startsWith("RETRY: optimistic validation failed: variable 'x' of object 1"
                + " was changed by a transaction that committed after attempt " + reader + " read it");
        TxnId retried = core.retry(reader);
        assertThat(core.lock(retried, x(LockMode.READ))).isTrue();
        assertThat(commit(retried)).isEqualTo("COMMITTED");
        assertThat(core.busyVariables()).isZero();
        assertThat(core.liveAttempts()).isZero();
    }

    @Test
    void twoReadModifyWritesOfOneVariableCannotBothCommit() {
        // The lost update: both read x, both write it; only the first to vote may commit.
        TxnId first = core.begin(1);
        TxnId second = core.begin(1);
        assertThat(core.lock(first, x(LockMode.WRITE))).isTrue();
        assertThat(core.lock(second, x(LockMode.WRITE))).isTrue();
        assertThat(commit(second)).isEqualTo("COMMITTED");
        assertThat(commit(first)).startsWith("RETRY: optimistic validation failed");
    }

    @Test
    void disjointAttemptsBothCommit() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        assertThat(core.lock(t1, x(LockMode.READ))).isTrue();
        assertThat(core.lock(t1, key("a", LockMode.WRITE))).isTrue();
        assertThat(core.lock(t2, LockId.whole(1, "y", LockMode.WRITE))).isTrue();
        assertThat(core.lock(t2, key("b", LockMode.WRITE))).isTrue();
        assertThat(commit(t2)).isEqualTo("COMMITTED");
        assertThat(commit(t1)).isEqualTo("COMMITTED");
    }

    @Test
    void aKeyReadFailsOnlyForItsKeyOrAWholeWrite() {
        TxnId keyReader = core.begin(1);
        TxnId otherKey = core.begin(1);
        assertThat(core.lock(keyReader, key("a", LockMode.READ))).isTrue();
        assertThat(core.lock(otherKey, key("b", LockMode.WRITE))).isTrue();
        assertThat(commit(otherKey)).isEqualTo("COMMITTED");
        TxnId wholeWriter = core.begin(1);
        assertThat(core.lock(wholeWriter, LockId.whole(1, "m", LockMode.WRITE))).isTrue();
        assertThat(commit(wholeWriter)).isEqualTo("COMMITTED");
        assertThat(commit(keyReader)).startsWith("RETRY: optimistic validation failed: variable 'm' key a");
    }

    @Test
    void aWholeReadFailsWhenAnyKeyChanged() {
        TxnId wholeReader = core.begin(1);
        TxnId keyWriter = core.begin(1);
        assertThat(core.lock(wholeReader, LockId.whole(1, "m", LockMode.READ))).isTrue();
        assertThat(core.lock(keyWriter, key("b", LockMode.WRITE))).isTrue();
        assertThat(commit(keyWriter)).isEqualTo("COMMITTED");
        assertThat(commit(wholeReader)).startsWith("RETRY: optimistic validation failed: variable 'm' of object 1");
    }

    @Test
    void commutingAddsNeedNoReadValidation() {
        TxnId t1 = core.begin(1);
        TxnId t2 = core.begin(1);
        assertThat(core.lock(t1, x(LockMode.ADD))).isTrue();
        assertThat(core.lock(t2, x(LockMode.ADD))).isTrue();
        assertThat(commit(t2)).isEqualTo("COMMITTED");
        assertThat(commit(t1)).isEqualTo("COMMITTED");
    }

    /**
     * The lost append waldo-check's list-append run found: an append finds its key missing (the
     * use is an APPEND, which reads nothing but the key's presence) and creates the list with a
     * put. Another attempt created the same list and committed in between, so the later put,
     * though made after that commit, would replace the list that commit made.
     */
    @Test
    void anAppendWhoseKeyWasReplacedSinceIsRefused() {
        TxnId late = core.begin(1);
        TxnId early = core.begin(1);
        assertThat(core.lock(late, key("a", LockMode.APPEND))).isTrue();
        assertThat(core.lock(early, key("a", LockMode.APPEND))).isTrue();
        assertThat(core.lock(early, key("a", LockMode.WRITE))).isTrue();
        assertThat(commit(early)).isEqualTo("COMMITTED");
        assertThat(core.lock(late, key("a", LockMode.WRITE))).isTrue();
        assertThat(commit(late)).startsWith("RETRY: optimistic validation failed: variable 'm' key a of object 1"
                + " was replaced by a transaction that committed after attempt " + late + " appended or added to it");
    }

    @Test
    void anAppendWhoseWholeVariableWasReplacedSinceIsRefused() {
        TxnId appender = core.begin(1);
        TxnId replacer = core.begin(1);
        assertThat(core.lock(appender, key("a", LockMode.APPEND))).isTrue();
        assertThat(core.lock(replacer, LockId.whole(1, "m", LockMode.WRITE))).isTrue();
        assertThat(commit(replacer)).isEqualTo("COMMITTED");
        assertThat(commit(appender)).startsWith("RETRY: optimistic validation failed: variable 'm' key a");
    }

    @Test
    void appendsCommitTogetherWhateverElseChangedTheVariable() {
        TxnId appender = core.begin(1);
        TxnId otherAppender = core.begin(1);
        TxnId otherKeyWriter = core.begin(1);
        assertThat(core.lock(appender, key("a", LockMode.APPEND))).isTrue();
        assertThat(core.lock(otherAppender, key("a", LockMode.APPEND))).isTrue();
        assertThat(core.lock(otherKeyWriter, key("b", LockMode.WRITE))).isTrue();
        assertThat(commit(otherAppender)).isEqualTo("COMMITTED");
        assertThat(commit(otherKeyWriter)).isEqualTo("COMMITTED");
        assertThat(commit(appender)).isEqualTo("COMMITTED");
    }

    /**
     * The starvation the Waldo paper argues about, and its cure: a root whose read of x is
     * overwritten by a short writer before each of its votes is refused three times; its fourth
     * attempt runs pessimistically, so a short writer that used x before it fails its own
     * validation, one that comes after waits, and the long root commits.
     */
    @Test
    void aRootRefusedThreeTimesLocksAndCommitsWhileShortWritersKeepComing() {
        core.useOptimisticConcurrencyLockingAfter(3);
        TxnId attempt = core.begin(1);
        for (int refusal = 1; refusal <= 3; refusal++) {
            assertThat(core.lock(attempt, x(LockMode.READ))).isTrue();
            TxnId shortWriter = core.begin(1);
            assertThat(core.lock(shortWriter, x(LockMode.WRITE))).isTrue();
            assertThat(commit(shortWriter)).isEqualTo("COMMITTED");
            assertThat(commit(attempt)).startsWith("RETRY: optimistic validation failed: variable 'x'");
            attempt = core.retry(attempt);
        }
        assertThat(core.pessimisticAttempts()).isZero();

        TxnId early = core.begin(1);
        assertThat(core.lock(early, x(LockMode.WRITE))).isTrue();
        assertThat(core.lock(attempt, x(LockMode.READ))).isTrue();
        assertThat(core.pessimisticAttempts()).isEqualTo(1);
        assertThat(commit(early)).startsWith("RETRY: optimistic validation failed: variable 'x' of object 1"
                + " is locked by attempt " + attempt + ", which runs pessimistically here after repeated refusals,");

        TxnId late = core.begin(1);
        assertThat(core.lock(late, x(LockMode.WRITE))).isFalse();
        assertThat(core.drain().decisions()).as("the younger writer waits, wounding no one").isEmpty();
        assertThat(core.lock(attempt, LockId.whole(1, "total", LockMode.WRITE))).isTrue();
        assertThat(commit(attempt)).isEqualTo("COMMITTED");
        assertThat(decided).contains(new Decision.Granted(late, x(LockMode.WRITE)));
        assertThat(commit(late)).isEqualTo("COMMITTED");
        assertThat(core.busyVariables()).isZero();
        assertThat(core.liveAttempts()).isZero();
    }

    /** With the fallback off (plain OCC) the same root is refused every time: it never locks. */
    @Test
    void withoutTheFallbackTheRootIsRefusedEveryTime() {
        core.useOptimisticConcurrencyLockingAfter(0);
        TxnId attempt = core.begin(1);
        for (int refusal = 1; refusal <= 6; refusal++) {
            assertThat(core.lock(attempt, x(LockMode.READ))).isTrue();
            TxnId shortWriter = core.begin(1);
            assertThat(core.lock(shortWriter, x(LockMode.WRITE))).isTrue();
            assertThat(commit(shortWriter)).isEqualTo("COMMITTED");
            assertThat(commit(attempt)).startsWith("RETRY: optimistic validation failed: variable 'x'");
            attempt = core.retry(attempt);
        }
        assertThat(core.pessimisticAttempts()).isZero();
    }

    /**
     * Two roots that run pessimistically order by priority as under wound-wait: the older one,
     * asking for what the younger holds, wounds it and is granted at its backout; the younger's
     * retry then gets through too.
     */
    @Test
    void pessimisticAttemptsOrderByPriorityAsUnderWoundWait() {
        core.useOptimisticConcurrencyLockingAfter(1);
        TxnId older = core.begin(1);
        TxnId younger = core.begin(1);
        assertThat(core.lock(older, x(LockMode.READ))).isTrue();
        assertThat(core.lock(younger, x(LockMode.READ))).isTrue();
        TxnId writer = core.begin(1);
        assertThat(core.lock(writer, x(LockMode.WRITE))).isTrue();
        assertThat(commit(writer)).isEqualTo("COMMITTED");
        assertThat(commit(older)).startsWith("RETRY");
        assertThat(commit(younger)).startsWith("RETRY");
        TxnId olderAgain = core.retry(older);
        TxnId youngerAgain = core.retry(younger);

        assertThat(core.lock(youngerAgain, x(LockMode.WRITE))).isTrue();
        assertThat(core.lock(olderAgain, x(LockMode.WRITE))).isFalse();
        assertThat(core.drain().decisions()).contains(new Decision.Wounded(youngerAgain));
        core.finishRoot(youngerAgain, HostCore.Ending.WOUNDED);
        assertThat(core.drain().decisions()).contains(new Decision.Granted(olderAgain, x(LockMode.WRITE)));
        assertThat(commit(olderAgain)).isEqualTo("COMMITTED");

        TxnId youngerThird = core.retry(youngerAgain);
        assertThat(core.lock(youngerThird, x(LockMode.WRITE))).isTrue();
        assertThat(commit(youngerThird)).isEqualTo("COMMITTED");
        assertThat(core.pessimisticAttempts()).isEqualTo(3);
        assertThat(core.busyVariables()).isZero();
    }

    /**
     * A pessimistic reader does not join a read lock ahead of an older pessimistic writer that
     * waits for it, so a stream of readers cannot starve the writer: the writer is granted when
     * the holder ends, the reader after the writer.
     */
    @Test
    void aPessimisticReaderDoesNotOvertakeAnOlderWaitingWriter() {
        core.useOptimisticConcurrencyLockingAfter(1);
        List<TxnId> roots = List.of(core.begin(1), core.begin(1), core.begin(1));
        for (TxnId root : roots) {
            assertThat(core.lock(root, x(LockMode.READ))).isTrue();
        }
        TxnId writer = core.begin(1);
        assertThat(core.lock(writer, x(LockMode.WRITE))).isTrue();
        assertThat(commit(writer)).isEqualTo("COMMITTED");
        List<TxnId> retried = new ArrayList<>();
        for (TxnId root : roots) {
            assertThat(commit(root)).startsWith("RETRY");
            retried.add(core.retry(root));
        }
        TxnId holder = retried.get(0);
        TxnId olderWriter = retried.get(1);
        TxnId youngerReader = retried.get(2);

        assertThat(core.lock(holder, x(LockMode.READ))).isTrue();
        assertThat(core.lock(olderWriter, x(LockMode.WRITE))).isFalse();
        assertThat(core.lock(youngerReader, x(LockMode.READ))).as("it would share with the holder").isFalse();
        assertThat(core.drain().decisions()).as("nobody outranks the holder: no wound").isEmpty();
        assertThat(commit(holder)).isEqualTo("COMMITTED");
        assertThat(decided).contains(new Decision.Granted(olderWriter, x(LockMode.WRITE)))
                .doesNotContain(new Decision.Granted(youngerReader, x(LockMode.READ)));
        assertThat(commit(olderWriter)).isEqualTo("COMMITTED");
        assertThat(decided).contains(new Decision.Granted(youngerReader, x(LockMode.READ)));
        assertThat(commit(youngerReader)).isEqualTo("COMMITTED");
        assertThat(core.busyVariables()).isZero();
    }

    @Test
    void aNegativeFallbackSettingIsRefusedWithWhereItCameFrom() {
        assertThatThrownBy(() -> core.useOptimisticConcurrencyLockingAfter(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("host 1: the refusals after which a root locks (HostCore.useOptimisticConcurrencyLockingAfter,"
                        + " or the system property waldo.occ.lockAfterRefusals) must be 0 (never lock) or more, not -1");
    }

    @Test
    void aBodyTouchingWhatAPreparedAttemptIsCommittingWaitsForItsEnd() {
        TxnId writer = core.begin(1);
        assertThat(core.lock(writer, x(LockMode.WRITE))).isTrue();
        // Its bindings took part: installed, but it holds x until they finished (the root waits for them).
        assertThat(commit(writer, true)).isEqualTo("undecided");
        TxnId reader = core.begin(1);
        assertThat(core.lock(reader, x(LockMode.READ))).isFalse();
        assertThat(core.waitingRequests()).isEqualTo(1);
        assertThat(core.drain().decisions()).isEmpty();
        core.finished(writer);
        assertThat(core.drain().decisions()).contains(new Decision.Granted(reader, x(LockMode.READ)));
        // It read after the install: nothing it read changed since, so it commits.
        assertThat(commit(reader)).isEqualTo("COMMITTED");
        assertThat(core.busyVariables()).isZero();
    }

    @Test
    void aPreparedWriterIsAnUndecidedWriterForReadsOutsideTransactions() {
        HostCore participant = new HostCore(2);
        participant.useOptimisticConcurrency();
        TxnId txn = new TxnId(1, 1);
        participant.step(new Envelope(1, 2, 1, new Message.Call(txn, new Priority(false, 1, 1, 1), 7, "w", null)));
        participant.drain();
        assertThat(participant.lock(txn, x(LockMode.WRITE))).isTrue();
        participant.finishCall(txn, 7, "done", false);
        participant.step(new Envelope(1, 2, 2, new Message.Prepare(txn, java.util.Set.of(2))));
        participant.drain();
        participant.vote(txn, true, null);
        assertThat(participant.undecidedWriters(x(LockMode.WRITE))).containsExactly(txn);
        participant.step(new Envelope(1, 2, 3, new Message.Commit(txn)));
        assertThat(participant.undecidedWriters(x(LockMode.WRITE))).isEmpty();
    }

    @Test
    void theChoiceIsMadeBeforeTransactionsRun() {
        HostCore busy = new HostCore(3);
        busy.begin(1);
        assertThatThrownBy(busy::useOptimisticConcurrency)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("choose its concurrency control before transactions run");
    }
}
