package dev.waldo.runtime;

/**
 * Base of the exceptions a Waldo program can catch: Waldo's {@code Exception}.
 * A {@code catch (Exception e)} clause in Waldo compiles to a Java catch of this type.
 */
public abstract class WaldoException extends RuntimeException {
    protected WaldoException(String message) {
        super(message);
    }

    protected WaldoException(String message, Throwable cause) {
        super(message, cause);
    }
}
