package dev.waldo.check;

/** What the client learned about a transaction's fate. */
public enum Outcome {
    /** It committed: the call returned. */
    OK,
    /** It was backed out everywhere: the runtime said so with an exception (its contract: no effect remains). */
    FAILED,
    /** The client never heard (it was still running when the run ended): it may or may not have committed. */
    UNKNOWN
}
