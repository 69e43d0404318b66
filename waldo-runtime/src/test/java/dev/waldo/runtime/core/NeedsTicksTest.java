package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link HostCore#needsTicks}: a host skips its ticks while its core has nothing a tick could do,
 * so the answer must be true whenever a tick would re-send, ask or age something, and false once
 * the core is idle again. (The deterministic simulation checks the other half on every tick: a
 * core that said it needs none produces nothing when ticked.)
 */
class NeedsTicksTest {
    /**
     * T, rooted on a, writes x on b. A prepared participant needs no ticks of its own (its
     * coordinator re-sends), until it loses the coordinator: then it is in doubt and asks on ticks.
     * (The cut backs T out: a had not heard b's vote.)
     */
    @Test
    void aRootNeedsTicksUntilItEndsAndAParticipantWhileInDoubt() {
        String trace = new ScriptedCore("a", "b").run("""
                timed a
                timed b
                begin a T
                call a T b
                deliver a b
                serve b T x
                deliver b a
                timed b                # b holds T's lock: nothing to re-send or ask
                done a T
                timed a                # a waits for b's vote
                deliver a b
                vote b T yes
                timed b                # prepared: a re-sends if it hears nothing
                drop b a
                cut a b
                timed b                # in doubt: b asks on ticks
                heal a b
                tick a 2
                tick b 2
                deliver a b all
                deliver b a all
                vote a T yes
                timed a
                timed b
                """);
        assertThat(lines(trace, "needs")).containsExactly(
                "a needs no ticks", "b needs no ticks",
                "b needs no ticks",
                "a needs ticks",
                "b needs no ticks",
                "b needs ticks",
                "a needs no ticks", "b needs no ticks");
        assertThat(trace.substring(trace.indexOf("> tick b 2"))).as("b's ticks ask again while in doubt")
                .contains("b -> a: Query T");
        assertThat(trace).contains("b: discard T (prepared)").contains("a: root T RETRY");
    }

    private static java.util.List<String> lines(String trace, String word) {
        return trace.lines().map(String::strip).filter(line -> line.contains(word) && !line.startsWith(">")).toList();
    }
}
