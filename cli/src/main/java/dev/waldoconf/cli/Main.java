package dev.waldoconf.cli;

/** Entry point of {@code bin/waldoconf} and of the lab process it starts. */
public final class Main {
    private Main() {
    }

    /** Runs waldoconf with {@code args} and exits with its exit code (the lab process stays up). */
    public static void main(String[] args) {
        int exitCode = WaldoconfCommand.newCommandLine(CliContext.system()).execute(args);
        System.exit(exitCode);
    }
}
