package dev.waldo.net;

import dev.waldo.runtime.NetworkException;
import java.net.InetSocketAddress;

/**
 * The node at an address answered, as the one expected there, but refused to link to the host asked
 * for: no such host lives on it now (a site agent whose switch's service has not started, or left),
 * or it will not let the asking node speak for the asking host. Nothing but the handshake and the
 * refused link crossed, and the connection stays for other links.
 */
public final class LinkRefusedException extends NetworkException {
    private final InetSocketAddress address;
    private final PeerIdentity node;
    private final String reason;

    LinkRefusedException(InetSocketAddress address, PeerIdentity node, String reason) {
        super(node.name() + " at " + address.getHostString() + ":" + address.getPort() + " refused the link: " + reason);
        this.address = address;
        this.node = node;
        this.reason = reason;
    }

    /** Where the node is. */
    public InetSocketAddress address() {
        return address;
    }

    /** The node that refused. */
    public PeerIdentity node() {
        return node;
    }

    /** Why, as the node said. */
    public String reason() {
        return reason;
    }
}
