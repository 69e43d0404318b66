package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Scenarios as data: a script of steps against the pure core, and the trace of
 * messages and decisions it must produce (see {@link ScriptedCore} for the
 * commands). A changed trace is a changed protocol: read the diff.
 */
class ScriptedCoreTest {
    /** A prepared attempt holds its lock against an older, even primary, request until commit. */
    @Test
    void preparedParticipantIsNeverWoundedAndTheOlderRequestWaits() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a T1          # older
            begin a T2          # younger
            call a T2 b
            deliver a b
            serve b T2 x
            deliver b a
            done a T2
            deliver a b         # Prepare
            call a T1 b
            deliver a b
            serve b T1 x        # T1 is older but T2 is prepared: T1 waits
            vote b T2 yes
            deliver b a         # Vote
            vote a T2 yes       # the root's own bindings
            deliver a b         # Commit
            deliver b a all
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > begin a T2
            > call a T2 b
              a -> b: Call T2
            > deliver a b
              b: run call of T2
            > serve b T2 x
              granted
              b -> a: Reply T2
            > deliver b a
              a: reply to T2
            > done a T2
              a: prepare T2
              a -> b: Prepare T2
            > deliver a b
              b: prepare T2
            > call a T1 b
              a -> b: Call T1 (primary)
            > deliver a b
              b: run call of T1
            > serve b T1 x
              waiting
            > vote b T2 yes
              b -> a: Vote T2 YES
            > deliver b a
            > vote a T2 yes
              a: install T2
              a: root T2 COMMITTED
              a -> b: Commit T2
            > deliver a b
              b: install T2
              b: granted T1 x
              b -> a: Ack T2
            > deliver b a all""");
    }

    /**
     * A backed-out attempt whose bindings took part keeps its locks until they
     * finished their abort: the next attempt's request waits, and is granted
     * (and T1 acknowledged) only once the undo is done.
     */
    @Test
    void aBackedOutAttemptKeepsItsLocksUntilItsBindingsFinished() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a T1
            call a T1 b
            deliver a b
            serve b T1 x
            deliver b a
            done a T1
            deliver a b         # Prepare
            vote b T1 no bound  # b's bindings changed the device and refuse
            deliver b a
            deliver a b         # Backout: b discards T1; its bindings' abort runs
            begin a T2
            call a T2 b
            deliver a b
            serve b T2 x        # T1 keeps x while the abort runs
            finish b T1         # the abort is done: x goes to T2
            deliver b a
            vote a T1 yes       # the root's own part ends: T1 is refused, T2 becomes a's primary
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > call a T1 b
              a -> b: Call T1 (primary)
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b -> a: Reply T1
            > deliver b a
              a: reply to T1
            > done a T1
              a: prepare T1
              a -> b: Prepare T1
            > deliver a b
              b: prepare T1
            > vote b T1 no bound
              b -> a: Vote T1 REFUSED
            > deliver b a
              a -> b: Backout T1
            > deliver a b
              b: discard T1 (prepared)
            > begin a T2
            > call a T2 b
              a -> b: Call T2
            > deliver a b
              b: run call of T2
            > serve b T2 x
              waiting
            > finish b T1
              b: granted T2 x
              b -> a: Ack T1
            > deliver b a
            > vote a T1 yes
              a: discard T1 (prepared)
              a: root T1 REFUSED
              a -> b: Promote T2""");
    }

    /** A lost vote: the coordinator re-sends Prepare on its ticks and the participant answers again. */
    @Test
    void lostVoteIsRecoveredByTheCoordinatorsResentPrepare() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a T1
            call a T1 b
            deliver a b
            serve b T1 x
            deliver b a
            done a T1
            deliver a b
            vote b T1 yes
            drop b a            # the vote is lost
            vote a T1 yes
            tick a 2            # the coordinator asks again
            deliver a b
            deliver b a
            deliver a b
            deliver b a
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > call a T1 b
              a -> b: Call T1 (primary)
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b -> a: Reply T1
            > deliver b a
              a: reply to T1
            > done a T1
              a: prepare T1
              a -> b: Prepare T1
            > deliver a b
              b: prepare T1
            > vote b T1 yes
              b -> a: Vote T1 YES
            > drop b a
              lost Vote T1 YES
            > vote a T1 yes
            > tick a 2
              a -> b: Prepare T1
            > deliver a b
              b -> a: Vote T1 YES
            > deliver b a
              a: install T1
              a: root T1 COMMITTED
              a -> b: Commit T1
            > deliver a b
              b: install T1
              b -> a: Ack T1
            > deliver b a""");
    }

    /** T2 wounds T1 on b; the wound travels to T1's root and on to c, where T1 waits behind T0. */
    @Test
    void woundReachesTheVictimsWaitOnAnotherHost() {
        String trace = new ScriptedCore("a", "b", "c").run("""
            begin a T0
            call a T0 c
            deliver a c
            serve c T0 z        # T0 holds z on c
            deliver c a
            begin a T2
            begin a T1
            call a T1 b
            deliver a b
            serve b T1 x        # T1 holds x on b
            deliver b a
            call a T1 c
            deliver a c
            serve c T1 z        # T1 waits behind the older T0 on c
            call a T2 b
            deliver a b
            serve b T2 x        # T2 is older than T1: wounds it
            deliver b a all     # the wound reaches T1's root
            deliver a c all     # and from there T1's wait on c
            abandon c T1        # the woken wait unwinds; c backs T1 out
            deliver c a all
            unwind a T1
            deliver a b all
            return b T2
            """);
        assertThat(trace).isEqualTo("""
            > begin a T0
            > call a T0 c
              a -> c: Call T0 (primary)
            > deliver a c
              c: run call of T0
            > serve c T0 z
              granted
              c -> a: Reply T0
            > deliver c a
              a: reply to T0
            > begin a T2
            > begin a T1
            > call a T1 b
              a -> b: Call T1
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b -> a: Reply T1
            > deliver b a
              a: reply to T1
            > call a T1 c
              a -> c: Call T1
            > deliver a c
              c: run call of T1
            > serve c T1 z
              waiting
            > call a T2 b
              a -> b: Call T2
            > deliver a b
              b: run call of T2
            > serve b T2 x
              waiting
              b: wounded T1
              b: discard T1
              b: granted T2 x
              b -> a: Wound T1
            > deliver b a all
              a: wounded T1
              a -> b: Wound T1
              a -> c: Wound T1
            > deliver a c all
              c: wounded T1
              c -> a: Wound T1
            > abandon c T1
              c: discard T1
              c -> a: Reply T1 (wounded)
            > deliver c a all
              a: reply to T1 (wounded)
              a -> c: Backout T1
            > unwind a T1
              a: discard T1
              a: root T1 RETRY
            > deliver a b all
            > return b T2
              b -> a: Reply T2""");
    }

    /** The link drops during voting: the root backs out and retries; b, prepared, learns on heal. */
    @Test
    void linkCutDuringVotingBacksOutAndTheOwedBackoutArrivesOnHeal() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a T1
            call a T1 b
            deliver a b
            serve b T1 x
            deliver b a
            done a T1
            deliver a b
            vote a T1 yes
            vote b T1 yes       # b is prepared; its vote is on the way
            cut a b             # lost with the link: a backs out, b stays prepared (in doubt)
            heal a b            # the owed backout goes out; b asks a, back, what it knows
            deliver a b
            deliver b a all
            deliver a b         # a's answer comes after b learned the outcome: ignored
            tick a 2
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > call a T1 b
              a -> b: Call T1 (primary)
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b -> a: Reply T1
            > deliver b a
              a: reply to T1
            > done a T1
              a: prepare T1
              a -> b: Prepare T1
            > deliver a b
              b: prepare T1
            > vote a T1 yes
            > vote b T1 yes
              b -> a: Vote T1 YES
            > cut a b
              lost Vote T1 YES
              a: discard T1 (prepared)
              a: root T1 RETRY
            > heal a b
              a -> b: Backout T1
              b -> a: Query T1
            > deliver a b
              b: discard T1 (prepared)
              b -> a: Ack T1
            > deliver b a all
              a -> b: Answer T1 BACKED_OUT
            > deliver a b
            > tick a 2""");
    }

    /** Cooperative termination: the coordinator's Commit reached b but not c; c, in doubt, learns the commit from b. */
    @Test
    void inDoubtParticipantLearnsTheCommitFromAPeer() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes
            vote a T1 yes
            deliver b a
            deliver c a          # a decides commit
            deliver a b          # b commits
            cut a c              # the Commit to c is lost with the link: c is in doubt and asks b
            deliver c b
            deliver b c
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > call a T1 b
              a -> b: Call T1 (primary)
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b -> a: Reply T1
            > deliver b a
              a: reply to T1
            > call a T1 c
              a -> c: Call T1 (primary)
            > deliver a c
              c: run call of T1
            > serve c T1 y
              granted
              c -> a: Reply T1
            > deliver c a
              a: reply to T1
            > done a T1
              a: prepare T1
              a -> b: Prepare T1
              a -> c: Prepare T1
            > deliver a b
              b: prepare T1
            > deliver a c
              c: prepare T1
            > vote b T1 yes
              b -> a: Vote T1 YES
            > vote c T1 yes
              c -> a: Vote T1 YES
            > vote a T1 yes
            > deliver b a
            > deliver c a
              a: install T1
              a: root T1 COMMITTED
              a -> b: Commit T1
              a -> c: Commit T1
            > deliver a b
              b: install T1
              b -> a: Ack T1
            > cut a c
              lost Commit T1
              c -> b: Query T1
            > deliver c b
              b -> c: Answer T1 COMMITTED
            > deliver b c
              c: install T1""");
    }

    /** Cooperative termination: c never got the Prepare, so it backs out and vetoes; b, in doubt, learns that from c. */
    @Test
    void aPeerThatNeverVotedYesVetoesAndTheInDoubtParticipantBacksOut() {
        String trace = new ScriptedCore("a", "b", "c").run("""
            begin a T1
            call a T1 b
            deliver a b
            serve b T1 x
            deliver b a
            call a T1 c
            deliver a c
            serve c T1 y
            deliver c a
            done a T1
            deliver a b          # the Prepare to c is still on its way when a crashes
            vote b T1 yes
            vote a T1 yes
            cut a b              # a is cut off: b is in doubt and asks c
            cut a c              # c, never asked to prepare, has already backed out
            deliver b c
            deliver c b
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > call a T1 b
              a -> b: Call T1 (primary)
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b -> a: Reply T1
            > deliver b a
              a: reply to T1
            > call a T1 c
              a -> c: Call T1 (primary)
            > deliver a c
              c: run call of T1
            > serve c T1 y
              granted
              c -> a: Reply T1
            > deliver c a
              a: reply to T1
            > done a T1
              a: prepare T1
              a -> b: Prepare T1
              a -> c: Prepare T1
            > deliver a b
              b: prepare T1
            > vote b T1 yes
              b -> a: Vote T1 YES
            > vote a T1 yes
            > cut a b
              lost Vote T1 YES
              a: discard T1 (prepared)
              a -> c: Backout T1
              b -> c: Query T1
            > cut a c
              lost Prepare T1
              lost Backout T1
              a: root T1 RETRY
              c: wounded T1
              c: discard T1
            > deliver b c
              c -> b: Answer T1 BACKED_OUT
            > deliver c b
              b: discard T1 (prepared)""");
    }

    /** A participant that voted no backs out as soon as it loses the coordinator, and tells b, in doubt, so. */
    @Test
    void aNoVoterBacksOutAloneWhenTheCoordinatorIsLostAndTellsThePeers() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 no
            cut a b              # a is cut off before the votes arrive: b is in doubt and asks c
            cut a c              # c voted no, so a cannot have committed: c backs out alone
            deliver b c
            deliver c b
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > call a T1 b
              a -> b: Call T1 (primary)
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b -> a: Reply T1
            > deliver b a
              a: reply to T1
            > call a T1 c
              a -> c: Call T1 (primary)
            > deliver a c
              c: run call of T1
            > serve c T1 y
              granted
              c -> a: Reply T1
            > deliver c a
              a: reply to T1
            > done a T1
              a: prepare T1
              a -> b: Prepare T1
              a -> c: Prepare T1
            > deliver a b
              b: prepare T1
            > deliver a c
              c: prepare T1
            > vote b T1 yes
              b -> a: Vote T1 YES
            > vote c T1 no
              c -> a: Vote T1 REFUSED
            > cut a b
              lost Vote T1 YES
              a -> c: Backout T1
              b -> c: Query T1
            > cut a c
              lost Backout T1
              lost Vote T1 REFUSED
              c: discard T1 (prepared)
            > deliver b c
              c -> b: Answer T1 BACKED_OUT
            > deliver c b
              b: discard T1 (prepared)""");
    }

    /** Every participant voted yes and none heard the decision: they wait (blocked) until the coordinator's re-sent Commit reaches one, and the other learns it from that one. */
    @Test
    void whenEveryPeerVotedYesTheyWaitForTheDecisionAndShareItOnceOneHasIt() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes
            vote a T1 yes
            deliver b a
            deliver c a          # a decides commit
            cut a b              # both Commits are lost: b and c both voted yes and know nothing
            cut a c
            deliver b c
            deliver c b
            deliver b c
            deliver c b          # each answers undecided: they wait
            heal a b             # a re-sends the Commit it owes b
            deliver a b
            tick c 2             # c asks again; b knows now
            deliver c b
            deliver b c
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > call a T1 b
              a -> b: Call T1 (primary)
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b -> a: Reply T1
            > deliver b a
              a: reply to T1
            > call a T1 c
              a -> c: Call T1 (primary)
            > deliver a c
              c: run call of T1
            > serve c T1 y
              granted
              c -> a: Reply T1
            > deliver c a
              a: reply to T1
            > done a T1
              a: prepare T1
              a -> b: Prepare T1
              a -> c: Prepare T1
            > deliver a b
              b: prepare T1
            > deliver a c
              c: prepare T1
            > vote b T1 yes
              b -> a: Vote T1 YES
            > vote c T1 yes
              c -> a: Vote T1 YES
            > vote a T1 yes
            > deliver b a
            > deliver c a
              a: install T1
              a: root T1 COMMITTED
              a -> b: Commit T1
              a -> c: Commit T1
            > cut a b
              lost Commit T1
              b -> c: Query T1
            > cut a c
              lost Commit T1
              c -> b: Query T1
            > deliver b c
              c -> b: Answer T1 UNDECIDED
            > deliver c b
              b -> c: Answer T1 UNDECIDED
            > deliver b c
            > deliver c b
            > heal a b
              a -> b: Commit T1
              b -> a: Query T1
            > deliver a b
              b: install T1
              b -> a: Ack T1
            > tick c 2
              c -> b: Query T1
            > deliver c b
              b -> c: Answer T1 COMMITTED
            > deliver b c
              c: install T1""");
    }
    /** A restarted host takes up an attempt its journal left voted yes, and installs it once a peer says it committed. */
    @Test
    void restartedParticipantRecoversACommitFromAPeer() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes
            vote a T1 yes
            deliver b a
            deliver c a          # a decides commit
            deliver a b          # b commits
            restart c            # c is killed before the Commit arrives; its binding journaled the yes vote
            recover c T1 b
            deliver c b
            deliver b c
            """);
        assertThat(trace).endsWith("""
            > restart c
              lost Commit T1
            > recover c T1 b
              recovering
              c -> b: Query T1
              c -> a: Query T1
            > deliver c b
              b -> c: Answer T1 COMMITTED
            > deliver b c
              c: install T1""");
    }

    /** A restarted host whose yes vote was overruled by a peer's no learns the backout from that peer. */
    @Test
    void restartedParticipantRecoversABackoutFromAPeer() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote c T1 yes
            deliver c a
            restart c            # c voted yes and is killed
            vote b T1 no
            deliver b a          # a backs out
            drop a c             # the Backout to the new c is lost: only b can tell it
            recover c T1 b
            deliver c b
            deliver b c
            """);
        assertThat(trace).endsWith("""
            > recover c T1 b
              recovering
              c -> b: Query T1
              c -> a: Query T1
            > deliver c b
              b -> c: Answer T1 BACKED_OUT
            > deliver b c
              c: discard T1 (prepared)""");
    }

    /** While nobody knows the outcome the recovered attempt stays, asks again on ticks, and follows the coordinator. */
    @Test
    void restartedParticipantStaysInDoubtWhileNobodyKnowsAndFollowsTheCoordinatorLater() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes
            vote a T1 yes
            restart c            # c's vote is lost with it: a still waits for it
            recover c T1 b
            deliver c b
            deliver c a
            deliver b c
            deliver a c          # b voted yes too and a is still voting: nobody knows
            tick c 2             # asks again
            tick a 2             # a re-sends Prepare; the recovered yes vote answers it
            deliver a c
            deliver b a
            deliver c a 2        # the re-sent Query (still UNDECIDED), then the vote: a commits
            deliver a c all      # the answer, then the Commit
            """);
        assertThat(trace).endsWith("""
            > restart c
              lost Vote T1 YES
            > recover c T1 b
              recovering
              c -> b: Query T1
              c -> a: Query T1
            > deliver c b
              b -> c: Answer T1 UNDECIDED
            > deliver c a
              a -> c: Answer T1 UNDECIDED
            > deliver b c
            > deliver a c
            > tick c 2
              c -> b: Query T1
              c -> a: Query T1
            > tick a 2
              a -> b: Prepare T1
              a -> c: Prepare T1
            > deliver a c
              c -> a: Vote T1 YES
            > deliver b a
            > deliver c a 2
              a -> c: Answer T1 UNDECIDED
              a: install T1
              a: root T1 COMMITTED
              a -> b: Commit T1
              a -> c: Commit T1
            > deliver a c all
              c: install T1
              c -> a: Ack T1""");
    }

    /**
     * A commit returns to the root's caller at the decision, except that it waits for the
     * acknowledgement of each host whose bindings took part (c): the caller returns after every
     * binding committed. A participant without bindings (b) is not waited for; until it installs,
     * a committed() read of what it locked waits for the attempt.
     */
    @Test
    void aCommitReturnsAtTheDecisionAndWaitsOnlyForHostsWhoseBindingsTookPart() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes bound
            vote a T1 yes
            writers b x          # b voted yes: a committed() read of x there waits for T1
            deliver b a
            deliver c a          # a decides commit; the caller still waits for c's bindings
            deliver a b          # b installs and acknowledges
            writers b x          # installed: nothing to wait for
            deliver b a          # b's ack alone does not hold the caller
            deliver a c          # c installs; its bindings commit
            finish c T1
            deliver c a          # c's bindings finished: the caller returns
            """);
        assertThat(trace).endsWith("""
            > vote c T1 yes bound
              c -> a: Vote T1 YES (bound)
            > vote a T1 yes
            > writers b x
              undecided writers of x: [T1]
            > deliver b a
            > deliver c a
              a: install T1
              a -> b: Commit T1
              a -> c: Commit T1
            > deliver a b
              b: install T1
              b -> a: Ack T1
            > writers b x
              undecided writers of x: []
            > deliver b a
            > deliver a c
              c: install T1
            > finish c T1
              c -> a: Ack T1
            > deliver c a
              a: root T1 COMMITTED""");
    }

    /**
     * Walter's fast commit: a transaction whose data all live on its root's host commits there
     * without two-phase commit, with bindings taking part or not: no message and no log record.
     */
    @Test
    void aTransactionWhoseDataAllLiveOnItsRootsHostCommitsThereWithoutTwoPhaseCommit() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a T1
            lock a T1 x
            done a T1
            vote a T1 yes bound
            finish a T1
            log a
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > lock a T1 x
              granted
            > done a T1
              a: prepare T1
            > vote a T1 yes bound
              a: install T1
            > finish a T1
              a: root T1 COMMITTED
            > log a""");
    }

    /**
     * What a graceful close waits for (Host#awaitDecisionsDelivered): a backout decided while b's
     * link was down is owed to b, but only counts once b can be reached again, and stops counting
     * when b acknowledges it. ConcurrentApplyTest hung when an operator session closed with such a
     * decision unsent: b stayed prepared on T1, holding its locks.
     */
    @Test
    void decisionsOwedCountOnlyReachableHostsUntilTheyAcknowledge() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes
            cut a b             # b's yes vote is lost with the link: a backs T1 out
            owed a              # the root waits for c and for a's own part
            deliver a c         # Backout
            vote a T1 yes       # a's own part ends
            deliver c a all     # c's vote, which no longer counts, and its acknowledgement
            owed a              # only b is left, and b cannot be reached
            heal a b            # a sends b the backout it owes
            owed a
            deliver a b
            deliver b a all     # b acknowledges
            owed a
            """);
        assertThat(trace).contains("decisions owed by a: 1\n> deliver a c",
                "decisions owed by a: 0\n> heal a b", "decisions owed by a: 1\n> deliver a b")
                .endsWith("decisions owed by a: 0");
    }

    /** The lock table a stuck wait is diagnosed from: the prepared holder, and who waits behind it. */
    @Test
    void describeLocksNamesHoldersAndWaitersWithTheirStates() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a T1
            begin a T2
            call a T2 b
            deliver a b
            serve b T2 x
            deliver b a
            done a T2
            deliver a b         # Prepare
            call a T1 b
            deliver a b
            serve b T1 x        # waits behind the prepared T2
            vote b T2 yes
            locks b
            """);
        assertThat(trace).endsWith("  1.x: held T2/PREPARED/WRITE; waiting T1/ACTIVE/WRITE; overtakes 0, phase age 0");
    }
}
