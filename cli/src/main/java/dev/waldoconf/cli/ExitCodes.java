package dev.waldoconf.cli;

/**
 * The exit codes of every {@code waldoconf} command, as {@code --help} and cli/README.md list them.
 * Scripts can rely on them. {@code Failures} maps each failure a command throws to one of them.
 */
public final class ExitCodes {
    /** Done (for {@code plan}: the plan was computed, whether or not it changes anything). */
    public static final int OK = 0;
    /** The change was refused by a switch, failed and was undone, or the operator declined it. */
    public static final int CHANGE_FAILED = 1;
    /** Bad command line, or an invalid inventory or plan (each problem printed as file:line:col). */
    public static final int USAGE = 2;
    /** A switch or its service did not answer. */
    public static final int UNREACHABLE = 3;
    /** A pending trial blocks the change, or there is no such change to confirm or roll back. */
    public static final int CONFLICT = 4;
    /**
     * Not set up on this machine: the operator has no certificate ({@code waldoconf init}), a service's
     * certificate cannot be issued, the lab could not be started, or {@code lab --containers} finds no
     * Docker engine. (Every build has the change engine: no code means "missing engine".)
     */
    public static final int UNAVAILABLE = 5;
    /** An internal error: a bug in waldoconf; please report it with the command line. */
    public static final int INTERNAL = 6;

    private ExitCodes() {
    }
}
