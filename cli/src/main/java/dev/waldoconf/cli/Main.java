package dev.waldoconf.cli;

/** Entry point of {@code bin/waldoconf} and of the lab process it starts. */
public final class Main {
    private Main() {
    }

    /** Runs waldoconf with {@code args} and exits with its exit code (the lab process stays up). */
    public static void main(String[] args) {
        // The runtime logs through System.Logger, which is java.util.logging here; hold it to the
        // same rule as logback.xml: the CLI prints its own messages, libraries only warnings and
        // errors (a command's coordinator log "taking up N records" at every start is no news).
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        int exitCode = WaldoconfCommand.newCommandLine(CliContext.system()).execute(args);
        System.exit(exitCode);
    }
}
