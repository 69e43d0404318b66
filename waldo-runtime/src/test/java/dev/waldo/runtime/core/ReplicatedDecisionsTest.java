package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Outcomes settled by a replicated decision register ({@link HostCore#useReplicatedDecisions},
 * Paxos Commit's idea): the coordinator commits only what the register settled as committed, a
 * participant in doubt asks the register to settle the attempt as backed out, and the register
 * keeps the first proposal. So a participant whose coordinator died after every vote was yes
 * learns the outcome without it: plain two-phase commit leaves it waiting for that coordinator.
 */
class ReplicatedDecisionsTest {
    /** Every host voted yes on T1, and the votes reached a. */
    private static final String VOTED_YES = "replicate all\n" + ScriptedCore.PREPARED_ON_A_B_C + """
            vote b T1 yes
            vote c T1 yes
            vote a T1 yes
            deliver b a
            deliver c a
            """;

    @Test
    void theCoordinatorAsksTheRegisterBeforeItCommits() {
        String trace = new ScriptedCore("a", "b", "c").run(VOTED_YES + """
            settle a
            """);
        assertThat(trace).endsWith("""
            > deliver c a
              a: ask the register to settle T1 as committed
            > settle a
              the register settled T1 as committed
              a: install T1
              a: root T1 COMMITTED
              a -> b: Commit T1
              a -> c: Commit T1""");
    }

    @Test
    void participantsLearnACommitFromTheRegisterWhenTheCoordinatorDiedAfterSettlingIt() {
        String trace = new ScriptedCore("a", "b", "c").run(VOTED_YES + """
            settle a
            cut a b              # a is gone for good, with its log: no Commit arrives, no one can ask a
            cut a c
            restart a
            tick b 2
            tick c 2
            settle b
            settle c
            """);
        assertThat(trace).endsWith("""
            > cut a b
              lost Commit T1
              b -> c: Query T1
            > cut a c
              lost Commit T1
              c -> b: Query T1
            > restart a
            > tick b 2
              b: ask the register to settle T1 as backed out
              b -> c: Query T1
            > tick c 2
              c: ask the register to settle T1 as backed out
              c -> b: Query T1
            > settle b
              the register settled T1 as committed
              b: install T1
            > settle c
              the register settled T1 as committed
              c: install T1""");
    }

    @Test
    void aParticipantInDoubtBacksOutFirstAndTheCoordinatorFollows() {
        String trace = new ScriptedCore("a", "b", "c").run(VOTED_YES + """
            cut a b              # b is in doubt
            tick b 2
            settle b             # b's proposal reaches the register before a's
            settle a
            deliver a c
            """);
        assertThat(trace).endsWith("""
            > settle b
              the register settled T1 as backed out
              b: discard T1 (prepared)
            > settle a
              the register settled T1 as backed out
              a: discard T1 (prepared)
              a -> c: Backout T1
            > deliver a c
              c: discard T1 (prepared)
              c -> a: Ack T1""");
    }

    /**
     * Without a register, a coordinator restarted on its log backs its own part out when it finds
     * no commit there (presumed abort). With one, the register may have settled a commit that the
     * coordinator did not live to log, so its own part is in doubt like any participant's.
     */
    @Test
    void aCoordinatorRestartedOnItsLogAsksTheRegisterForItsOwnPart() {
        String trace = new ScriptedCore("a", "b", "c").run(VOTED_YES + """
            crash a              # its ask reached the register; its commit never reached its log
            settle a             # the answer reaches the new run
            cut a b              # b sees a go, and is in doubt
            tick b 2
            settle b
            """);
        assertThat(trace).contains("""
            > crash a
              a -> b: Query T1
              a -> c: Query T1
            > settle a
              the register settled T1 as committed
              a: install T1""");
        assertThat(trace).doesNotContain("discard");
        assertThat(trace).endsWith("""
            > settle b
              the register settled T1 as committed
              b: install T1""");
    }
}
