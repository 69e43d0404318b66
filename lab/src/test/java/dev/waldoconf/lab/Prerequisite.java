package dev.waldoconf.lab;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintStream;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * A tool some lab tests need (net-snmp, a Docker engine). When it is missing the tests skip and
 * print why, unless an environment variable says it should be there (bin/test sets them when
 * it finds the tools): then they fail, so a broken setup cannot pass as green. Public, and shipped in
 * the lab's test jar, so other modules' container tests decide the same way.
 */
public final class Prerequisite {
    private Prerequisite() {
    }

    /**
     * Returns when {@code present}; otherwise fails (when {@code expectVariable} is {@code 1} in
     * {@code environment}) or aborts the test, printing {@code reason}.
     */
    public static void require(boolean present, String reason, String expectVariable, String fix,
                               Map<String, String> environment) {
        require(present, reason, expectVariable, fix, environment, System.out);
    }

    /** As {@link #require(boolean, String, String, String, Map)}, printing the skip reason to {@code out}. */
    static void require(boolean present, String reason, String expectVariable, String fix,
                        Map<String, String> environment, PrintStream out) {
        if (present) {
            return;
        }
        if ("1".equals(environment.get(expectVariable))) {
            fail(reason + ", but " + expectVariable + "=1 says it should be; " + fix);
        }
        out.println("SKIPPED: " + reason + " (" + fix + ")");
        Assumptions.abort(reason);
    }
}
