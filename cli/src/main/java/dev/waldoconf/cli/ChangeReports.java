package dev.waldoconf.cli;

import dev.waldoconf.engine.ChangeResult;
import java.io.PrintWriter;

/** Prints the result of confirm and rollback the same way. */
final class ChangeReports {
    private ChangeReports() {
    }

    /** {@code " " + message}, or nothing for an empty message. */
    static String note(String message) {
        return message.isBlank() ? "" : " " + message;
    }

    /** Prints {@code result}; returns the exit code. */
    static int print(ChangeResult result, String verb, PrintWriter out, PrintWriter err) {
        if (result.ok()) {
            out.println(verb + " change " + result.changeId() + " on " + String.join(", ", result.switches()) + "."
                    + note(result.message()));
            return ExitCodes.OK;
        }
        err.println("error: change " + result.changeId() + ": " + result.message());
        return ExitCodes.CHANGE_FAILED;
    }
}
