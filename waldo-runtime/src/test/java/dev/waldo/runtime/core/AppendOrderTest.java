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

    private static List<String> installs(String trace, String host) {
        return trace.lines().map(String::strip).filter(line -> line.startsWith(host + ": install "))
                .map(line -> line.substring((host + ": install ").length())).toList();
    }
}
