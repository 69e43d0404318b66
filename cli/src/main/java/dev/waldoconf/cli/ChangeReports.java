package dev.waldoconf.cli;

import dev.waldoconf.engine.ChangeResult;
import java.io.PrintWriter;

/** Prints progress and the results of confirm and rollback the same way for every command. */
final class ChangeReports {
    private ChangeReports() {
    }

    /**
     * Progress of an operation on {@code switches} switches, shown as {@link ProgressBoard} does: a
     * bar on a terminal, count lines into a pipe, a line per switch with {@code -v}; failures always
     * on a line of their own. The caller closes it before printing the outcome.
     */
    static ProgressBoard progress(PrintWriter out, OutputOptions output, Terminal terminal, int switches) {
        return ProgressBoard.start(out, ProgressBoard.mode(output.verbose, terminal.outputIsTerminal()), switches);
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
