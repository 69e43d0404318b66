package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Walter's fast commit at one host, as scripts with their exact traces: a root that holds
 * nothing on its own host and took part on one other host only has that host decide alone
 * (Delegate), with no Prepare, Commit or Ack round of two-phase commit; the delegate logs its
 * part and the commit before it answers, and the root's host, when the answer is lost with the
 * link or the delegate restarts, asks again until it has the outcome.
 */
class FastCommitTest {
    /** T1 rooted on a, served on b (holding x), the body done: a delegates. */
    private static final String DELEGATED = """
            fast all
            begin a T1
            call a T1 b
            deliver a b
            serve b T1 x
            deliver b a
            done a T1
            deliver a b
            """;

    /** No Prepare, Commit or Ack round: the delegate logs its part and the commit, installs, answers; the unhurried Ack lets it forget. */
    @Test
    void theDelegateCommitsAloneAndAnswersWithTheOutcome() {
        String trace = new ScriptedCore("a", "b").run(DELEGATED + """
            vote b T1 yes
            deliver b a
            deliver a b
            log b
            """);
        assertThat(trace).endsWith("""
            > done a T1
              a -> b: Delegate T1
            > deliver a b
              b: prepare T1
            > vote b T1 yes
              b: install T1
              b -> a: Vote T1 YES
            > deliver b a
              a: install T1
              a: root T1 COMMITTED
              a -> b: Ack T1
            > deliver a b
            > log b
              logged prepared T1, coordinator a, peers []
              logged commit T1
              logged end T1 committed
              logged forgot T1""");
    }

    /** The root's host cannot decide alone: it waits through the cut, and on heal sends the delegation again (the delegate re-sends its owed commit too). */
    @Test
    void anAnswerLostWithTheLinkIsAskedForAgainWhenTheLinkIsBack() {
        String trace = new ScriptedCore("a", "b").run(DELEGATED + """
            vote b T1 yes
            cut a b
            tick a 3
            heal a b
            deliver a b
            deliver b a
            deliver a b
            """);
        assertThat(trace).endsWith("""
            > vote b T1 yes
              b: install T1
              b -> a: Vote T1 YES
            > cut a b
              lost Vote T1 YES
            > tick a 3
            > heal a b
              a -> b: Delegate T1
              b -> a: Commit T1
            > deliver a b
              b -> a: Vote T1 YES
            > deliver b a
              a: install T1
              a: root T1 COMMITTED
              a -> b: Ack T1
            > deliver a b""");
    }

    /** The answer is lost with the delegate's crash; its restart installs its part again from the log and sends the commit it owes. */
    @Test
    void aDelegateThatCrashedAfterItsCommitAnswersFromItsLog() {
        String trace = new ScriptedCore("a", "b").run(DELEGATED + """
            vote b T1 yes
            crash b
            deliver b a
            deliver a b
            log b
            """);
        assertThat(trace).endsWith("""
            > vote b T1 yes
              b: install T1
              b -> a: Vote T1 YES
            > crash b
              lost Vote T1 YES
              b -> a: Commit T1
            > deliver b a
              a: install T1
              a: root T1 COMMITTED
              a -> b: Ack T1
            > deliver a b
            > log b
              logged prepared T1, coordinator a, peers []
              logged commit T1
              logged end T1 committed
              logged forgot T1""");
    }

    /**
     * A delegate whose install waits for an appender ordered before it (W, rooted on c, voted
     * on b and undecided) keeps its logged commit past the root's acknowledgement, until the
     * install: it used to forget it there, and after a crash its bindings, which had journaled
     * their yes vote, were told to back out what the root had reported committed.
     */
    @Test
    void aDelegateKeepsItsLoggedCommitUntilItsHeldBackInstall() {
        String trace = new ScriptedCore("a", "b", "c", "d").run("""
            fast all
            begin c W
            call c W b
            deliver c b
            serve b W x append
            deliver b c
            call c W d
            deliver c d
            serve d W y append
            deliver d c
            done c W
            deliver c b
            deliver c d
            vote b W yes
            begin a T1
            call a T1 b
            deliver a b
            serve b T1 x append
            deliver b a
            done a T1
            deliver a b
            vote b T1 yes        # committed alone, its install held back behind W
            tick b 3             # the commit b owes a goes out again
            deliver b a
            deliver a b          # a's acknowledgement
            log b
            crash b
            recover b T1 a       # b's bindings journaled their yes vote on T1
            """);
        assertThat(trace).contains("""
            > vote b T1 yes
            > tick b 3
              b -> a: Commit T1
            > deliver b a
              a: install T1
              a: root T1 COMMITTED
              a -> b: Ack T1
            > deliver a b
            > log b
              logged prepared W, coordinator c, peers [d]
              logged prepared T1, coordinator a, peers []
              logged commit T1
            > crash b""");
        assertThat(trace.substring(trace.indexOf("> crash b"))).contains("b: install T1").doesNotContain("discard T1");
    }

    /** A delegate that restarted before the delegation arrived never committed it (a commit is logged first): backed out, retried. */
    @Test
    void aDelegateThatLostTheAttemptBacksItOutAndTheRootRetries() {
        String trace = new ScriptedCore("a", "b").run("""
            fast all
            begin a T1
            call a T1 b
            deliver a b
            serve b T1 x
            deliver b a
            done a T1
            crash b
            tick a 2
            deliver a b
            deliver b a
            """);
        assertThat(trace).endsWith("""
            > done a T1
              a -> b: Delegate T1
            > crash b
              lost Delegate T1
            > tick a 2
              a -> b: Delegate T1
            > deliver a b
              b -> a: Vote T1 WOUNDED
            > deliver b a
              a: discard T1 (prepared)
              a: root T1 RETRY""");
    }
}
