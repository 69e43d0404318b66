package dev.waldo.runtime;

/**
 * An error in the program's own logic at run time: division by zero, an index
 * out of range, a missing map key, a call of a missing method on an Endpoint.
 * Catchable in Waldo; uncaught, it backs the transaction out everywhere and
 * reaches the Java caller of the Public function.
 */
public class ApplicationException extends WaldoException {
    public ApplicationException(String message) {
        super(message);
    }
}
