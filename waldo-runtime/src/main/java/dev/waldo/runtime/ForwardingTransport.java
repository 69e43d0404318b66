package dev.waldo.runtime;

import dev.waldo.runtime.core.Envelope;

/**
 * A transport that hands everything to another one: extend it and override {@link #send} to
 * watch, count or hold back what a host sends (tests of the commit path, fault injection),
 * without writing out the rest of the contract, its defaults included.
 */
public abstract class ForwardingTransport implements Transport {
    private final Transport inner;

    /** Forwards to {@code inner}. */
    protected ForwardingTransport(Transport inner) {
        this.inner = inner;
    }

    /** Passes {@code envelope} on to the wrapped transport; overrides call it for what they let through. */
    @Override
    public void send(Envelope envelope) {
        inner.send(envelope);
    }

    @Override
    public int localHost() {
        return inner.localHost();
    }

    @Override
    public int hostNumber(String hostId) {
        return inner.hostNumber(hostId);
    }

    @Override
    public String hostId(int host) {
        return inner.hostId(host);
    }

    @Override
    public int learnHost(String hostId) {
        return inner.learnHost(hostId);
    }

    @Override
    public long attemptSerialBase() {
        return inner.attemptSerialBase();
    }

    @Override
    public void start(Receiver receiver) {
        inner.start(receiver);
    }

    @Override
    public void wantTicks(boolean wanted) {
        inner.wantTicks(wanted);
    }

    @Override
    public void close() {
        inner.close();
    }
}
