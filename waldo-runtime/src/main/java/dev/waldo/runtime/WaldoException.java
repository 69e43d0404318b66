package dev.waldo.runtime;

/**
 * Base of everything Waldo raises to host code, so a host can catch this one
 * type. The subclasses stay distinguishable:
 * <ul>
 *   <li>{@link ApplicationException}: an error in the program's logic (catchable in Waldo);</li>
 *   <li>{@link NetworkException}: a partner or remote endpoint was unreachable (catchable in Waldo);</li>
 *   <li>{@link TransactionAbortedException}: the program called {@code abort()} or a participant
 *       voted no; {@link TransactionAbortedException#reason()} tells which. Not catchable in Waldo.</li>
 * </ul>
 * Waldo's {@code catch (Exception e)} compiles to a Java catch of the two
 * catchable subclasses only, so a program cannot swallow an abort.
 */
public abstract class WaldoException extends RuntimeException {
    protected WaldoException(String message) {
        super(message);
    }

    protected WaldoException(String message, Throwable cause) {
        super(message, cause);
    }
}
