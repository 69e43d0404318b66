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
        this(address, expected, answered, null);
    }

    /**
     * As the other constructor, with why the node that answered does not count as the host, for
     * example that it may not speak for it (null: it is simply not the host).
     */
    WrongPeerException(InetSocketAddress address, String expected, PeerIdentity answered, String why) {
        super("expected host " + expected + " at " + address.getHostString() + ":" + address.getPort() + ", but "
                + answered.name() + (answered.certified() ? " (certified by the project CA)" : " (as it announced)")
                + " answered there" + (why == null ? "" : ": " + why));
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
