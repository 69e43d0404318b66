package dev.waldoconf.cli;

import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Option;

/** How output looks: colour on a terminal only, unless told otherwise. */
final class OutputOptions {
    /** When to colour output. */
    enum When { auto, always, never }

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
            description = "Colour the output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}: on a terminal).")
    When color;

    @Option(names = {"-v", "--verbose"}, description = "Print a line per switch at each stage (connected, read,"
            + " committed...); without it a terminal shows one progress bar, a pipe a count line every few seconds."
            + " Failures are always listed, each with its reason.")
    boolean verbose;

    /** Picocli's ANSI setting for {@link #color}. */
    Ansi ansi() {
        return switch (color) {
            case auto -> Ansi.AUTO;
            case always -> Ansi.ON;
            case never -> Ansi.OFF;
        };
    }
}
