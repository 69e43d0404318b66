package dev.waldo.runtime;

/**
 * A partner or remote endpoint that the transaction needed is unreachable
 * (heartbeat lost, connection closed, never connected). Raised at the point
 * that needed the partner. Caught, the transaction goes on without that
 * partner, which keeps none of the transaction's effects; uncaught, it backs
 * the transaction out everywhere and reaches the Java caller.
 */
public class NetworkException extends WaldoException {
    public NetworkException(String message) {
        super(message);
    }
}
