package dev.waldoconf.engine;

/**
 * Told about each switch while a change runs, so the CLI can print per-switch progress.
 * Called from engine threads; implementations must be thread-safe.
 */
@FunctionalInterface
public interface ProgressListener {
    /** A listener that ignores everything. */
    ProgressListener NONE = (switchName, stage, detail) -> { };

    /**
     * Switch {@code switchName} reached {@code stage}.
     *
     * @param detail a short human-readable note (the step being pushed, an agent's error), or ""
     */
    void onProgress(String switchName, Stage stage, String detail);

    /** Stages of one switch within a change, in order; {@link #UNREACHABLE} may end any of them. */
    enum Stage {
        /** The switch's state was read over SNMP (for the plan). */
        READ,
        /** Connected to the switch's service. */
        CONNECTED,
        /** Pushing the switch's steps (prepare). */
        PREPARING,
        /** The switch voted yes: its steps are applied and read back. */
        PREPARED,
        /** The switch voted no; detail says why. */
        REFUSED,
        /** The decision reached the switch and it committed (or entered its trial). */
        COMMITTED,
        /** The switch was undone (abort or rollback). */
        UNDONE,
        /** The switch or its service could not be read or reached; detail says why. */
        UNREACHABLE
    }
}
