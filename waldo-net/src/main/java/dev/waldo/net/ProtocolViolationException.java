package dev.waldo.net;

/**
 * A peer sent well-formed frames that break the protocol: no Hello first, an
 * unknown transaction, a vote for a transaction never prepared, a step for a
 * sequence that does not exist. Thrown inside the pipeline, it closes that
 * one connection with its message as the logged reason.
 */
public class ProtocolViolationException extends RuntimeException {
    /** A violation described by {@code message}, which names what the peer sent and why it is wrong. */
    public ProtocolViolationException(String message) {
        super(message);
    }
}
