package dev.waldoconf.engine;

/** A started per-switch service; closing it stops the service. */
public interface RunningService extends AutoCloseable {
    /** The switch the service owns. */
    String switchName();

    /** Blocks until the service stops (closed, or failed). */
    void awaitTermination() throws InterruptedException;

    /** Stops the service. */
    @Override
    void close();
}
