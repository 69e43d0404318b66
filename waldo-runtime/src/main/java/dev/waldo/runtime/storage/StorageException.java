package dev.waldo.runtime.storage;

/** A {@link Storage} could not read or make durable its records; the message names where and why. */
public class StorageException extends RuntimeException {
    /** A failure described by {@code message}, caused by {@code cause} (may be null). */
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
