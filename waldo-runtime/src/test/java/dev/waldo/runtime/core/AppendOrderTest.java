package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shared appends install in the order of their commits' stamps on every host ({@link AppendOrder}):
 * T1 (rooted on a) and T2 (rooted on c) both append to list x on b and to list y on d, holding
 * the lists' APPEND locks at once; their commits then reach b and d in opposite orders.
 */
class AppendOrderTest {
    /** T1 and T2 append on b and d, both prepared everywhere, both decided committed. */
    private static final String BOTH_DECIDED = """
            begin a T1
            begin c T2
            call a T1 b
            deliver a b
            serve b T1 x append
            deliver b a
            call c T2 b
            deliver c b
            serve b T2 x append
            deliver b c
            call a T1 d
            deliver a d
            serve d T1 y append
            deliver d a
            call c T2 d
            deliver c d
            serve d T2 y append
            deliver d c
            done a T1
            done c T2
            deliver a b
            deliver a d
            deliver c b
            deliver c d
            vote b T1 yes
            vote d T1 yes
            vote a T1 yes
            vote b T2 yes
            vote d T2 yes
            vote c T2 yes
            deliver b a
            deliver d a
            deliver b c
            deliver d c
            """;

    @Test
    void commitsArrivingInOppositeOrdersInstallInOneOrderOnBothHosts() {
        String trace = new ScriptedCore("a", "b", "c", "d").run(BOTH_DECIDED + """
            deliver c b          # T2's commit reaches b first
            deliver a b
            deliver a d          # T1's commit reaches d first
            deliver c d
            """);
        List<String> onB = installs(trace, "b");
        List<String> onD = installs(trace, "d");
        assertThat(onB).containsExactlyInAnyOrder("T1", "T2");
        assertThat(onD).as("the same order as on b\n" + trace).isEqualTo(onB);
    }

    /**
     * A commit held back keeps its locks, so a reader of the list waits for it, and its root
     * reports committed only once every appender installed (an appender's vote is bound): a
     * transaction begun after the root returned can never be ordered before it.
     */
    @Test
    void aHeldBackCommitKeepsItsLockAndItsRootWaitsForTheInstall() {
        String trace = new ScriptedCore("a", "b", "c", "d").run(BOTH_DECIDED + """
            deliver c b          # T2's commit reaches b first: held back behind T1's vote
            begin b T3
            lock b T3 x read
            deliver a d
            deliver c d          # d installs both
            deliver d c          # d's Ack of T2
            deliver a b          # T1's commit: b installs T1, then T2, and grants T3
            """);
        String beforeT1Reaches = trace.substring(0, trace.indexOf("> deliver a b"));
        assertThat(beforeT1Reaches).doesNotContain("b: install").doesNotContain("root T2 COMMITTED")
                .doesNotContain("granted T3");
        String after = trace.substring(trace.indexOf("> deliver a b"));
        assertThat(installs(after, "b")).containsExactly("T1", "T2");
        assertThat(after).contains("granted T3").contains("b -> c: Ack T2");
        assertThat(new ScriptedCore("a", "b", "c", "d").run(BOTH_DECIDED + """
            deliver c b
            deliver a d
            deliver c d
            deliver d c
            deliver a b
            deliver b c          # b's Ack of T2: now T2's root returns
            """)).endsWith("c: root T2 COMMITTED");
    }

    /**
     * With a decision register, a participant that learns a commit from the register alone learns
     * its stamp too: T1's coordinator dies once the register settled T1, before any Commit left;
     * b and d, in doubt, ask the register, and both install T1 and T2 in one order.
     */
    @Test
    void aCommitLearnedFromTheRegisterCarriesItsStamp() {
        String trace = new ScriptedCore("a", "b", "c", "d").run("replicate all\n" + BOTH_DECIDED + """
            settle a             # the register settles T1 with a's stamp
            cut a b              # a is gone for good: its Commits are lost
            cut a d
            restart a
            settle c             # T2 commits as usual
            deliver c b
            deliver c d
            tick b 2
            tick d 2
            settle b             # b and d learn T1 from the register
            settle d
            """);
        List<String> onB = installs(trace, "b");
        assertThat(onB).as(trace).containsExactlyInAnyOrder("T1", "T2");
        assertThat(installs(trace, "d")).as("the same order as on b\n" + trace).isEqualTo(onB);
    }

    /**
     * T1 (rooted on a) and T2 (rooted on c) both append to list x on c and list y on d. T1 votes
     * first everywhere and is decided on a; then c decides T2 with a greater stamp and holds back
     * its own part of T2 behind T1, which voted on c below that stamp and is undecided there (its
     * commit not delivered yet).
     */
    private static final String OWN_PART_HELD_BACK = """
            begin a T1
            begin c T2
            call a T1 c
            deliver a c
            serve c T1 x append
            deliver c a
            lock c T2 x append
            call c T2 d
            deliver c d
            serve d T2 y append
            deliver d c
            call a T1 d
            deliver a d
            serve d T1 y append
            deliver d a
            done a T1
            done c T2
            deliver a c
            deliver a d
            deliver c d
            vote c T1 yes
            vote d T1 yes
            vote a T1 yes
            vote d T2 yes
            vote c T2 yes
            deliver c a
            deliver d a          # a decides T1
            deliver d c          # c decides T2 and logs its commit; its own install waits for T1
            """;

    /**
     * c crashes with T2's commit logged and its own install held back, and restarts from its log
     * with its values (a host layer whose values survive a restart): T2 must still wait for T1,
     * now restored in doubt, or c would install T2 first while d installs T1 first.
     */
    @Test
    void aCommitLoggedWhileItsInstallWasHeldBackStillWaitsAfterACrash() {
        String trace = new ScriptedCore("a", "b", "c", "d").run(OWN_PART_HELD_BACK + """
            crash c durable      # T1's Commit to c is lost; c asks a about T1
            deliver a d
            deliver c d all      # d installs T1, then T2
            deliver c a
            deliver a c          # a answers T1 committed, with its stamp
            """);
        String afterCrash = trace.substring(trace.indexOf("> crash c durable"));
        assertThat(installs(afterCrash, "d")).containsExactly("T1", "T2");
        assertThat(installs(afterCrash, "c")).as("the same order as on d\n" + trace).containsExactly("T1", "T2");
    }

    /**
     * The restarted c keeps T2's logged commit until its own part installed, as the run that
     * logged it would have: d's acknowledgement alone does not let it forget T2, so a second
     * crash before T1 is decided there still finds T2's commit and installs it in its turn.
     */
    @Test
    void aRestoredCommitStaysLoggedUntilItsOwnPartInstalled() {
        String trace = new ScriptedCore("a", "b", "c", "d").run(OWN_PART_HELD_BACK + """
            crash c durable
            deliver a d
            deliver c d all      # d installs T1 and T2 and acknowledges T2 to c
            drop d c             # d's answer about T1 is lost: c still holds T2 back behind it
            deliver d c all
            log c
            crash c durable
            deliver c a all
            deliver a c all
            deliver c d all      # the commit re-sent after the restart
            deliver d c all      # d's acknowledgement, and its answer about T1
            log c
            """);
        String firstLog = trace.substring(trace.indexOf("> log c"), trace.indexOf("> crash c durable", trace.indexOf("> log c")));
        assertThat(firstLog).as(trace).doesNotContain("forgot T2");
        String afterSecondCrash = trace.substring(trace.lastIndexOf("> crash c durable"));
        assertThat(installs(afterSecondCrash, "c")).as(trace).containsExactly("T1", "T2");
        assertThat(afterSecondCrash).endsWith("logged end T2 committed\n  logged forgot T2");
    }

    /**
     * h installs C (rooted on k, appending to x on h and y on g) and crashes; its values survive.
     * V, rooted on g, then appends to y on g and x on h, while C's commit has not reached g. k's
     * clock ran ahead (30 roots begun there), so C's stamp is above every clock g has seen: h
     * must stamp its vote on V above C's stamp, so that V's commit comes after C's everywhere.
     * With its clock restarted from 0 it stamped V low, g installed V before C, and h had C
     * before V.
     */
    @Test
    void aHostWhoseValuesSurviveARestartStampsVotesAboveWhatItInstalled() {
        String clockRunsAhead = java.util.stream.IntStream.range(0, 30).mapToObj(i -> "begin k Z" + i + "\n")
                .collect(java.util.stream.Collectors.joining());
        String trace = new ScriptedCore("k", "h", "g").run("""
            begin k C
            call k C h
            deliver k h
            serve h C x append
            deliver h k
            call k C g
            deliver k g
            serve g C y append
            deliver g k
            done k C
            deliver k h
            deliver k g
            vote h C yes
            vote g C yes
            vote k C yes
            """ + clockRunsAhead + """
            deliver h k
            deliver g k          # k decides C; its Commit to g stays on the link
            deliver k h          # h installs C
            deliver h k
            crash h durable
            begin g V
            lock g V y append
            call g V h
            deliver g h
            serve h V x append
            deliver h g
            done g V
            deliver g h
            vote h V yes
            vote g V yes
            deliver h g          # g decides V
            deliver k g          # C's commit reaches g
            deliver g h all
            """);
        assertThat(installs(trace, "h")).containsExactly("C", "V");
        assertThat(installs(trace, "g")).as("the same order as on h\n" + trace).containsExactly("C", "V");
    }

    /**
     * Real time across lists (the case the deterministic simulation found): T (rooted on a)
     * appends to x on b and y on d and is decided; its commit reaches b, not yet d. U (rooted on c)
     * appends to x on b behind T and returns. Only then does V (rooted on e, which heard from no
     * one) begin and append to y on d, whose clock has not passed T's stamp. T comes before U on
     * b, and U returned before V began, so V must come after T on d too.
     */
    private static final String V_BEGINS_AFTER_U_RETURNED = """
            begin a T
            call a T b
            deliver a b
            serve b T x append
            deliver b a
            call a T d
            deliver a d
            serve d T y append
            deliver d a
            begin c Z            # Z's calls move b's clock (and so T's stamp) well past d's
            """ + """
            call c Z b
            deliver c b
            serve b Z z
            deliver b c
            """.repeat(10) + """
            done a T
            deliver a b
            deliver a d
            vote b T yes
            vote d T yes
            vote a T yes
            deliver b a
            deliver d a          # a decides T
            deliver a b          # T's commit reaches b, not d
            begin c U
            call c U b
            deliver c b
            serve b U x append
            deliver b c
            done c U
            deliver c b
            vote b U yes
            vote c U yes
            deliver b c          # c decides U
            deliver c b          # b installs U behind T
            deliver b c          # U's root returns
            begin e V
            call e V d
            deliver e d
            serve d V y append
            deliver d e
            done e V
            deliver e d
            vote d V yes
            vote e V yes
            deliver d e          # e decides V
            deliver e d          # V's commit reaches d before T's
            deliver a d          # T's commit reaches d
            deliver d e          # V's root returns
            """;

    @Test
    void withRealTimeStampsAnAppenderBegunAfterAnotherReturnedIsOrderedAfterAllItsPredecessors() {
        String trace = new ScriptedCore("a", "b", "c", "d", "e").run("realtime all\n" + V_BEGINS_AFTER_U_RETURNED);
        assertThat(trace).contains("c: root U COMMITTED").contains("e: root V COMMITTED");
        assertThat(installs(trace, "b")).as(trace).containsExactly("T", "U");
        assertThat(installs(trace, "d")).as("V after T, as real time wants\n" + trace).containsExactly("T", "V");
    }

    /** The same with Lamport stamps alone: d puts V before T, and no serial order keeps real time. */
    @Test
    void withLamportStampsAloneTheAppenderBegunLaterComesFirst() {
        String trace = new ScriptedCore("a", "b", "c", "d", "e").run(V_BEGINS_AFTER_U_RETURNED);
        assertThat(installs(trace, "b")).as(trace).containsExactly("T", "U");
        assertThat(installs(trace, "d")).as(trace).containsExactly("V", "T");
    }

    /**
     * With clocks two seconds apart at most, a's commit of T waits until its real time passed T's
     * stamp by two seconds: until then no one hears of it, not even a participant that asks.
     */
    @Test
    void aCommitWaitsForTheClocksUncertaintyBeforeAnyoneHearsOfIt() {
        String trace = new ScriptedCore("a", "b").run("""
                realtime all 2
                begin a T
                call a T b
                deliver a b
                serve b T x append
                deliver b a
                done a T
                deliver a b
                vote b T yes
                vote a T yes
                deliver b a          # a decides T, stamped now
                tick a               # a second later: still waiting
                owed a
                tick a               # three seconds: the commit goes out
                deliver a b
                deliver b a
                """);
        String waiting = trace.substring(0, trace.lastIndexOf("> tick a"));
        assertThat(waiting).doesNotContain("Commit T").doesNotContain("root T COMMITTED")
                .contains("decisions owed by a: 1");
        String after = trace.substring(trace.lastIndexOf("> tick a"));
        assertThat(after).contains("a -> b: Commit T").contains("b: install T").contains("a: root T COMMITTED");
    }

    private static List<String> installs(String trace, String host) {
        return trace.lines().map(String::strip).filter(line -> line.startsWith(host + ": install "))
                .map(line -> line.substring((host + ": install ").length())).toList();
    }
}
