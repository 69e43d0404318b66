package dev.waldo.net;

import dev.waldo.runtime.NetworkException;
import java.net.InetSocketAddress;

/**
 * The host that answered at an address is not the one the caller expected there: a swapped
 * address in a configuration, or someone else's host listening where the expected one should be.
 * The link is closed before anything but the handshake crossed it.
 */
public final class WrongPeerException extends NetworkException {
    private final InetSocketAddress address;
    private final String expected;
    private final PeerIdentity answered;

    WrongPeerException(InetSocketAddress address, String expected, PeerIdentity answered) {
        super("expected host " + expected + " at " + address.getHostString() + ":" + address.getPort() + ", but "
                + answered.name() + (answered.certified() ? " (certified by the project CA)" : " (as it announced)")
                + " answered there");
        this.address = address;
        this.expected = expected;
        this.answered = answered;
    }

    /** Where the connection went. */
    public InetSocketAddress address() {
        return address;
    }

    /** The identity the caller expected. */
    public String expected() {
        return expected;
    }

    /** Who answered instead. */
    public PeerIdentity answered() {
        return answered;
    }
}
