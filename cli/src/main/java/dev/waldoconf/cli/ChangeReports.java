package dev.waldoconf.cli;

import dev.waldoconf.engine.ChangeResult;
import dev.waldoconf.engine.ProgressListener;
import java.io.PrintWriter;

/** Prints progress and the results of confirm and rollback the same way for every command. */
final class ChangeReports {
    private ChangeReports() {
    }

    /** Prints one line per switch and stage: {@code   lab-1: prepared (detail)}. Thread-safe. */
    static ProgressListener progress(PrintWriter out) {
        return (switchName, stage, detail) -> {
            synchronized (out) {
                out.println("  " + switchName + ": " + stage.name().toLowerCase() + (detail.isEmpty() ? ""
                        : " (" + detail + ")"));
                out.flush();
            }
        };
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
