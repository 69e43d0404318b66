package dev.waldoconf.cli;

import dev.waldoconf.engine.ChangeResult;
import java.io.PrintWriter;

/** Prints the result of confirm and rollback the same way. */
final class ChangeReports {
    private ChangeReports() {
    }

    /** Prints {@code result}; returns the exit code. */
    static int print(ChangeResult result, String verb, PrintWriter out, PrintWriter err) {
        if (result.ok()) {
            out.println(verb + " change " + result.changeId() + " on " + String.join(", ", result.switches()) + ". "
                    + result.message());
            return ExitCodes.OK;
        }
        err.println("error: change " + result.changeId() + ": " + result.message());
        return ExitCodes.CHANGE_FAILED;
    }
}
