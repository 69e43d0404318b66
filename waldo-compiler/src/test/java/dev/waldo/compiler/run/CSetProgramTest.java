package dev.waldo.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A compiled Waldo program with a CSet variable, run by host code: concurrent transactions that
 * add to it all count, and host code reads it through the variable's typed handle.
 */
class CSetProgramTest {
    private static final String VISITS = """
            Service Visits {
                CSet(element: Text) seen;

                Public Function visit(Text who) {
                    seen.add(who);
                }

                Public Function leave(Text who) {
                    seen.rem(who);
                }

                Public Function count(Text who) returns Number {
                    return seen.count(who);
                }
            }
            """;

    @Test
    void concurrentVisitsAllCountAndHostCodeReadsTheCountingSet() throws Exception {
        List<String> lines = HostApiTest.runHost(VISITS, """
                Visits visits = Visits.create(host);
                List<Thread> threads = new java.util.ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    threads.add(Thread.ofPlatform().start(() -> {
                        for (int i = 0; i < 25; i++) {
                            visits.visit("ann");
                        }
                    }));
                }
                for (Thread thread : threads) {
                    try {
                        thread.join();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                visits.leave("bob");
                out.add("ann " + visits.count("ann"));
                WCSet<String> seen = visits.committed(Visits.SEEN);
                out.add("bob " + seen.count("bob") + " " + seen.elements());
                """);

        assertThat(lines).containsExactly("ann 200.0", "bob -1.0 [ann]");
    }
}
