package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Crashes against the pure core, as scripts (see {@link ScriptedCore}): what
 * each host logs before it sends, and how a host that starts again from its
 * log finishes what it was part of.
 */
class ScriptedCrashTest {
    /**
     * Persist before you send: b's yes vote, a's commit and its own part are logged before they leave.
     * The root's caller returns at the logged decision, and a crash after it, before any Commit or
     * Ack arrived, loses nothing: the restarted coordinator sends the commit again.
     */
    @Test
    void aCoordinatorThatLoggedItsCommitSendsItAgainAfterACrash() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            log b
            vote c T1 yes
            vote a T1 yes
            deliver b a
            deliver c a          # a decides commit and logs it; its caller returns
            crash a              # after the decision, before either Commit arrives and any Ack
            deliver a b
            deliver a c
            deliver b a
            deliver c a
            log a
            log b
            """);
        assertThat(trace).endsWith("""
            > vote b T1 yes
              b -> a: Vote T1 YES
            > log b
              logged prepared T1, coordinator a, peers [c]
            > vote c T1 yes
              c -> a: Vote T1 YES
            > vote a T1 yes
            > deliver b a
            > deliver c a
              a: install T1
              a: root T1 COMMITTED
              a -> b: Commit T1
              a -> c: Commit T1
            > crash a
              lost Commit T1
              lost Commit T1
              a -> b: Commit T1
              a -> c: Commit T1
            > deliver a b
              b: install T1
              b -> a: Ack T1
            > deliver a c
              c: install T1
              c -> a: Ack T1
            > deliver b a
            > deliver c a
            > log a
              logged prepared T1, coordinator a, peers [b, c]
              logged commit T1
              logged end T1 committed
              logged forgot T1
            > log b
              logged prepared T1, coordinator a, peers [c]
              logged end T1 committed
              logged forgot T1""");
    }

    /** A coordinator restarted on its log answers a participant in doubt from it. */
    @Test
    void aCoordinatorAnswersAQueryFromItsLogAfterARestart() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes
            vote a T1 yes
            deliver b a
            deliver c a          # a decides commit and logs it
            cut a b              # b loses its Commit and is in doubt
            crash a              # c loses its Commit too
            heal a b
            drop a b             # the Commit a sends again is lost as well
            deliver b a
            deliver a b
            """);
        assertThat(trace).endsWith("""
            > cut a b
              lost Commit T1
              b -> c: Query T1
            > crash a
              lost Commit T1
              a -> c: Commit T1
            > heal a b
              a -> b: Commit T1
              b -> a: Query T1
            > drop a b
              lost Commit T1
            > deliver b a
              a -> b: Answer T1 COMMITTED
            > deliver a b
              b: install T1
              b -> a: Ack T1""");
    }

    /** Presumed abort: a coordinator that restarts without a logged commit tells a participant in doubt to back out. */
    @Test
    void aCoordinatorRestartedWithoutALoggedCommitAnswersBackedOut() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes
            vote a T1 yes
            cut a b              # b's vote is lost: a backs out; b is in doubt
            crash a
            heal a b
            deliver b a
            deliver a b
            """);
        assertThat(trace).endsWith("""
            > cut a b
              lost Vote T1 YES
              a: discard T1 (prepared)
              a -> c: Backout T1
              b -> c: Query T1
            > crash a
              lost Backout T1
              lost Vote T1 YES
            > heal a b
              b -> a: Query T1
            > deliver b a
              a -> b: Answer T1 BACKED_OUT
            > deliver a b
              b: discard T1 (prepared)
              b -> a: Ack T1""");
    }

    /** A participant that crashed after its logged yes vote is in doubt at start, asks, and installs. */
    @Test
    void aParticipantRestartedFromItsLogLearnsTheCommit() {
        String trace = new ScriptedCore("a", "b", "c").run(ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes
            vote a T1 yes
            deliver b a
            deliver c a
            crash c              # before the Commit arrives
            deliver c a
            deliver a c
            log c
            """);
        assertThat(trace).endsWith("""
            > crash c
              lost Commit T1
              c -> b: Query T1
              c -> a: Query T1
            > deliver c a
              a -> c: Answer T1 COMMITTED
            > deliver a c
              c: install T1
              c -> a: Ack T1
            > log c
              logged prepared T1, coordinator a, peers [b]
              logged end T1 committed""");
    }
}
