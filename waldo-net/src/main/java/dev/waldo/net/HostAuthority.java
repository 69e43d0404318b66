package dev.waldo.net;

/**
 * Which hosts a node may speak for. A connection joins two nodes, each proved by its Hello and,
 * with TLS, its certificate; the hosts whose messages it carries are named per stream. A node of
 * one host speaks for that host only ({@link #SELF}); a node that serves many hosts (a site agent
 * of a thousand switches, each its own Waldo host) speaks for those that whoever configures the
 * node says it serves, for example from an inventory.
 *
 * <p>Checked for every stream whose host was not named by the caller together with the identity it
 * expected (see {@link NetHost#connect(java.net.InetSocketAddress, String, String,
 * dev.waldo.runtime.EndpointFactory)}): the host of a stream a peer opens to this node, and the
 * host that answers a stream this node opened to reach a host it heard of.
 */
@FunctionalInterface
public interface HostAuthority {
    /** A node speaks for the hosts of its own identity: {@code operator-alice~7} for {@code operator-alice}. */
    HostAuthority SELF = (node, hostId) -> PeerIdentity.nameOf(hostId).equals(node.name());

    /**
     * Whether {@code node} (the identity a peer node proved) may speak for host {@code hostId}.
     * Called on I/O threads: it must answer at once.
     */
    boolean vouches(PeerIdentity node, String hostId);

    /** This authority, and also {@code other}'s: a host either vouches for may be spoken for. */
    default HostAuthority or(HostAuthority other) {
        return (node, hostId) -> vouches(node, hostId) || other.vouches(node, hostId);
    }
}
