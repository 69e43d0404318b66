package dev.waldo.runtime;

/**
 * Reaches the Java caller of a Public function when its transaction was
 * backed out on every host and will not be retried: the program called
 * {@code abort()}, or a participant (for example a bound device) voted no in
 * two-phase commit. No effect of the transaction remains anywhere.
 *
 * <p>A {@link WaldoException}, so host code can catch everything Waldo raises
 * with one clause; Waldo programs cannot catch it (their {@code catch} clauses
 * compile to {@link ApplicationException} and {@link NetworkException} only).
 */
public class TransactionAbortedException extends WaldoException {
    /** Why the transaction ended without committing. */
    public enum Reason {
        /** The Waldo program called {@code abort()}. */
        ABORT_CALLED,
        /** A participant or a bound resource voted no in prepare. */
        VOTED_NO
    }

    private final Reason reason;

    public TransactionAbortedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** Why the transaction did not commit. */
    public Reason reason() {
        return reason;
    }
}
