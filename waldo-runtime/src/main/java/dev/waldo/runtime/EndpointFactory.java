package dev.waldo.runtime;

/**
 * Creates an endpoint on a host, like a socket factory. Generated classes
 * provide {@code Kind::create} (or a lambda that passes onCreate arguments).
 */
@FunctionalInterface
public interface EndpointFactory<E extends WaldoEndpoint> {
    /** Creates a new, not yet connected endpoint on {@code host}, running its onCreate. */
    E create(Host host);
}
