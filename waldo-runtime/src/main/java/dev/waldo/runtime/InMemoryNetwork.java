package dev.waldo.runtime;

/**
 * Connects hosts of one JVM through in-memory message queues. Tests use it to
 * cut links between hosts and to fail hosts.
 */
public final class InMemoryNetwork implements AutoCloseable {
    /** Creates an empty network. */
    public InMemoryNetwork() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Stops every host on the network. */
    @Override
    public void close() {
        throw new UnsupportedOperationException("TODO runtime");
    }
}
