package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The read-only optimization of two-phase commit ({@link HostCore#voteReadOnly}): a part that only
 * read for another host's root votes READ_ONLY, releases its locks and forgets the attempt at
 * once, logs nothing, and hears no decision; and what a restarted participant forgot makes its
 * attempts run again.
 */
class ReadOnlyVoteTest {
    /** T (rooted on a) reads x on b and writes y on c; both are asked to prepare. */
    private static final String READS_ON_B_WRITES_ON_C = """
            begin a T
            call a T b
            deliver a b
            serve b T x read
            deliver b a
            call a T c
            deliver a c
            serve c T y
            deliver c a
            done a T
            deliver a b
            deliver a c
            """;

    @Test
    void aPartThatOnlyReadLeavesAtItsVoteAndHearsNoDecision() {
        String trace = new ScriptedCore("a", "b", "c").run(READS_ON_B_WRITES_ON_C + """
                readonly b T
                locks b
                vote c T yes
                vote a T yes
                deliver b a
                deliver c a          # a decides: the commit goes to c alone
                deliver a c
                deliver c a
                log b
                owed a
                """);
        assertThat(trace).contains("voted read-only").contains("b -> a: Vote T READ_ONLY")
                .contains("b: discard T").contains("a: root T COMMITTED").contains("c: install T")
                .contains("decisions owed by a: 0");
        assertThat(trace).doesNotContain("a -> b: Commit T").doesNotContain("b -> a: Ack T")
                .doesNotContain("logged prepared T");
        String locksOfB = trace.substring(trace.indexOf("> locks b"), trace.indexOf("> vote c T yes"));
        assertThat(locksOfB).as("b released its READ lock as it voted").doesNotContain("T");
    }

    /** A part that wrote votes yes as before, even when asked for a read-only vote. */
    @Test
    void aPartThatWroteVotesYes() {
        String trace = new ScriptedCore("a", "b", "c").run(READS_ON_B_WRITES_ON_C + """
                readonly c T
                log c
                """);
        assertThat(trace).contains("voted yes").contains("c -> a: Vote T YES").contains("logged prepared T")
                .doesNotContain("READ_ONLY");
    }

    /**
     * The coordinator re-sends Prepare to a read-only voter whose vote was lost: it votes read-only
     * again from its tombstone, and a late call of the attempt is refused there.
     */
    @Test
    void aReadOnlyVoterAnswersAPrepareAgainAndRefusesALateCall() {
        String trace = new ScriptedCore("a", "b", "c").run(READS_ON_B_WRITES_ON_C + """
                readonly b T
                drop b a             # the vote is lost
                vote c T yes
                vote a T yes
                deliver c a
                tick a 2             # a sends Prepare to b again
                deliver a b
                deliver b a          # READ_ONLY again: a decides
                """);
        assertThat(trace.substring(trace.indexOf("> tick a 2"))).contains("a -> b: Prepare T")
                .contains("b -> a: Vote T READ_ONLY").contains("a: root T COMMITTED");
    }

    /**
     * When every other part voted read-only, the coordinator still logs its commit if it logged its
     * own part's vote, so that a restart does not find the vote alone and presume abort for what
     * it installed (the deterministic simulation found it, seed 212).
     */
    @Test
    void theCommitIsLoggedWhenTheRootsOwnPartLoggedItsVote() {
        String trace = new ScriptedCore("a", "b").run("""
                begin a T
                lock a T z
                call a T b
                deliver a b
                serve b T x read
                deliver b a
                done a T
                deliver a b
                readonly b T
                vote a T yes
                deliver b a
                log a
                """);
        assertThat(trace).contains("a: root T COMMITTED").contains("logged prepared T").contains("logged commit T");
    }

    /**
     * When the only other part voted read-only in the reply to the last call, the attempt is the
     * root's host's alone: nothing is logged on either host, no Prepare and no commit travel.
     */
    @Test
    void aReadOnlyVoteInTheLastReplyLeavesNothingToLog() {
        String trace = new ScriptedCore("a", "b").run("""
                begin a T
                lock a T z
                last a T b
                deliver a b
                serve b T x read
                readonly b T
                deliver b a
                done a T
                vote a T yes
                log a
                log b
                """);
        assertThat(trace).contains("b -> a: Reply T").contains("a: root T COMMITTED");
        assertThat(trace).doesNotContain("logged").doesNotContain("Prepare T").doesNotContain("Commit T");
    }

    /**
     * T read x on b; b restarts and forgets it. a's transport reports the restart: T lost its part
     * on b and is wounded, so its root runs again instead of calling b's new run, which would take
     * a later call as T's first and commit without the read (the simulation found it, seed 173).
     */
    @Test
    void anAttemptThatLostAPartToARestartIsWounded() {
        String trace = new ScriptedCore("a", "b").run("""
                begin a T
                call a T b
                deliver a b
                serve b T x read
                deliver b a
                restart b
                restarted a b
                """);
        assertThat(trace.substring(trace.indexOf("> restarted a b"))).contains("a: wounded T");
    }
}
