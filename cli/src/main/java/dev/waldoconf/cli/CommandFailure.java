package dev.waldoconf.cli;

/** A command cannot go on: the message says why and what to do; the exit code says what kind. */
final class CommandFailure extends Exception {
    private final int exitCode;

    CommandFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
