package dev.waldoconf.engine;

/**
 * A change could not be made, confirmed or rolled back. The kind decides the CLI's exit code;
 * the message names the switch (or trial) and what to do next.
 */
public class EngineException extends Exception {
    private final Kind kind;

    /** Why the engine gave up. */
    public enum Kind {
        /** A switch or its service did not answer. */
        UNREACHABLE,
        /** A pending trial blocks the change, or a trial to confirm or roll back does not exist. */
        CONFLICT,
        /** A switch refused, or the change failed and was undone. */
        REFUSED,
        /** Not set up on this machine: e.g. the operator has no certificate, or the project CA cannot issue one. */
        UNAVAILABLE
    }

    /** An exception of {@code kind}. */
    public EngineException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** An exception of {@code kind}. */
    public EngineException(Kind kind, String message) {
        this(kind, message, null);
    }

    /** Why the engine gave up. */
    public Kind kind() {
        return kind;
    }
}
