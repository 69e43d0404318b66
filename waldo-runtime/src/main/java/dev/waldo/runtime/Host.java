package dev.waldo.runtime;

import java.io.PrintStream;

/**
 * One Waldo host: it owns endpoints and services, runs their parts of
 * transactions, and exchanges protocol messages with other hosts through a
 * transport. A JVM may hold many hosts (tests, simulation) or one (a service).
 */
public final class Host implements AutoCloseable {
    private Host() {
    }

    /** Creates a host named {@code name} on an in-memory network shared by the hosts of one JVM. */
    public static Host inMemory(InMemoryNetwork network, String name) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** This host's id, unique on its network. */
    public String id() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /**
     * Creates an endpoint on this host and one on {@code other} and connects
     * them as partners, in-process.
     */
    public <A extends WaldoEndpoint, B extends WaldoEndpoint> Connection<A, B> connect(
            EndpointFactory<A> local, Host other, EndpointFactory<B> remote) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Where Waldo's {@code print} writes committed output; System.out unless changed. */
    public void setOutput(PrintStream output) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Stops the host: its partners see a NetworkException from then on. */
    @Override
    public void close() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /**
     * A connected pair of partner endpoints.
     *
     * @param local the endpoint created on the host that connected
     * @param remote its partner on the other host
     */
    public record Connection<A extends WaldoEndpoint, B extends WaldoEndpoint>(A local, B remote) {
    }
}
