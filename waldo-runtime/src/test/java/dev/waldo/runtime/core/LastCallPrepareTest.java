package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The prepare carried by the root's last call (see {@link ScriptedCore}'s {@code last}): the
 * partner prepares right after serving it and its reply carries the vote, so a two-host
 * transaction is one round trip for its caller. Scenarios as data, with the exact trace.
 */
class LastCallPrepareTest {
    /** The common case: one call, its reply carries a yes vote, the root decides with no Prepare message. */
    @Test
    void theLastCallCarriesThePrepareAndItsReplyTheVote() {
        String trace = new ScriptedCore("a", "b").run("""
            begin a T1
            lock a T1 w          # root-local data: prepared locally, no message
            last a T1 b
            deliver a b
            serve b T1 x         # b prepares as soon as the step returns
            vote b T1 yes
            writers b x          # voted yes: a committed() read there waits
            deliver b a          # the reply and the vote
            done a T1            # the root's own part prepares here
            vote a T1 yes        # all voted: commit, the caller returns
            deliver a b
            deliver b a
            log a
            log b
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > lock a T1 w
              granted
            > last a T1 b
              a -> b: Call T1 (primary) + Prepare
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b: prepare T1
            > vote b T1 yes
              b -> a: Reply T1 + Vote YES
            > writers b x
              undecided writers of x: [T1]
            > deliver b a
              a: reply to T1
            > done a T1
              a: prepare T1
            > vote a T1 yes
              a: install T1
              a: root T1 COMMITTED
              a -> b: Commit T1
            > deliver a b
              b: install T1
              b -> a: Ack T1
            > deliver b a
            > log a
              logged prepared T1, coordinator a, peers [b]
              logged commit T1
              logged end T1 committed
              logged forgot T1
            > log b
              logged prepared T1, coordinator a, peers []
              logged end T1 committed
              logged forgot T1""");
    }

    /** A partner whose bindings refuse votes no in the reply: the root backs out everywhere and ends REFUSED, not retried. */
    @Test
    void aNoVoteInTheReplyBacksTheRootOutAsRefused() {
        String trace = new ScriptedCore("a", "b", "c").run("""
            begin a T1
            last a T1 b
            deliver a b
            serve b T1 x
            vote b T1 no
            deliver b a
            done a T1
            deliver a b
            deliver b a
            
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > last a T1 b
              a -> b: Call T1 (primary) + Prepare
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b: prepare T1
            > vote b T1 no
              b -> a: Reply T1 + Vote REFUSED
            > deliver b a
              a: reply to T1
            > done a T1
              a: wounded T1
              a: discard T1
              a -> b: Backout T1
              a -> b: Backout T1
            > deliver a b
              b: discard T1 (prepared)
              b -> a: Ack T1
            > deliver b a
              a: root T1 REFUSED""");
    }

    /** A wound reaches the root while the partner prepares: the partner, preparing, ignores the wound, but the root sends it Backout (with the reply's arrival and again as it retries), so it never stays prepared. */
    @Test
    void aWoundBetweenTheStepAndTheVoteBacksOutThePreparedPartner() {
        String trace = new ScriptedCore("a", "b", "c").run("""
            begin a T1
            begin a T2
            lock a T2 w
            last a T2 b
            deliver a b
            serve b T2 x
            lock a T1 w
            deliver a b
            vote b T2 yes
            deliver b a
            unwind a T2
            deliver a b all
            deliver b a all
            retry a T2
            
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > begin a T2
            > lock a T2 w
              granted
            > last a T2 b
              a -> b: Call T2 + Prepare
            > deliver a b
              b: run call of T2
            > serve b T2 x
              granted
              b: prepare T2
            > lock a T1 w
              waiting
              a: wounded T2
              a -> b: Wound T2
            > deliver a b
            > vote b T2 yes
              b -> a: Reply T2 + Vote YES
            > deliver b a
              a: reply to T2
              a -> b: Backout T2
            > unwind a T2
              a: discard T2
              a: granted T1 w
              a: root T2 RETRY
              a -> b: Backout T2
            > deliver a b all
              b: discard T2 (prepared)
              b -> a: Ack T2
              b -> a: Ack T2
            > deliver b a all
            > retry a T2""");
    }

    /** The body calls again after its last call (the mark was wrong): the attempt is wounded and retried, and the root's next attempt calls without the prepare. */
    @Test
    void aCallAfterTheLastCallRetriesTheAttemptWithoutCarryingThePrepare() {
        String trace = new ScriptedCore("a", "b", "c").run("""
            begin a T1
            last a T1 b
            deliver a b
            serve b T1 x
            vote b T1 yes
            deliver b a
            call a T1 c
            unwind a T1
            deliver a b all
            deliver b a all
            retry a T1
            last a T1' b
            deliver a b
            serve b T1' x
            deliver b a
            call a T1' c
            
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > last a T1 b
              a -> b: Call T1 (primary) + Prepare
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b: prepare T1
            > vote b T1 yes
              b -> a: Reply T1 + Vote YES
            > deliver b a
              a: reply to T1
            > call a T1 c
              a: wounded T1
              a -> b: Wound T1
            > unwind a T1
              a: discard T1
              a: root T1 RETRY
              a -> b: Backout T1
            > deliver a b all
              b: discard T1 (prepared)
              b -> a: Ack T1
            > deliver b a all
            > retry a T1
            > last a T1' b
              a -> b: Call T1' (primary)
            > deliver a b
              b: run call of T1'
            > serve b T1' x
              granted
              b -> a: Reply T1'
            > deliver b a
              a: reply to T1'
            > call a T1' c
              a -> c: Call T1' (primary)""");
    }

    /** The reply to the last call is lost with its link: the partner may have voted yes, so the root does not commit without it but retries; the owed Backout and presumed abort end the partner's doubt. */
    @Test
    void aLostReplyToTheLastCallMeansTheAttemptCannotCommit() {
        String trace = new ScriptedCore("a", "b", "c").run("""
            begin a T1
            call a T1 c
            deliver a c
            serve c T1 y
            deliver c a
            last a T1 b
            deliver a b
            serve b T1 x
            vote b T1 yes
            cut a b
            done a T1
            deliver a c
            deliver c a
            heal a b
            tick b 2
            deliver b a
            deliver a b all
            
            """);
        assertThat(trace).isEqualTo("""
            > begin a T1
            > call a T1 c
              a -> c: Call T1 (primary)
            > deliver a c
              c: run call of T1
            > serve c T1 y
              granted
              c -> a: Reply T1
            > deliver c a
              a: reply to T1
            > last a T1 b
              a -> b: Call T1 (primary) + Prepare
            > deliver a b
              b: run call of T1
            > serve b T1 x
              granted
              b: prepare T1
            > vote b T1 yes
              b -> a: Reply T1 + Vote YES
            > cut a b
              lost Reply T1 + Vote YES
              a: call of T1 failed: b unreachable
              b -> c: Query T1
            > done a T1
              a: wounded T1
              a: discard T1
              a -> c: Backout T1
              a -> c: Backout T1
            > deliver a c
              c: wounded T1
              c: discard T1
              c -> a: Ack T1
            > deliver c a
              a: root T1 RETRY
            > heal a b
              a -> b: Backout T1
              b -> a: Query T1
            > tick b 2
              b -> c: Query T1
              b -> a: Query T1
            > deliver b a
              a -> b: Answer T1 BACKED_OUT
            > deliver a b all
              b: discard T1 (prepared)
              b -> a: Ack T1""");
    }
}
