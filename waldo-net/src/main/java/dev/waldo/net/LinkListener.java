package dev.waldo.net;

/**
 * What a {@link NetNode} reports about its links. Called on the link's I/O
 * thread: implementations must not block, and see one link's events in order.
 */
public interface LinkListener {
    /** A handshake completed: {@code link} may now carry messages. */
    void linkUp(PeerLink link);

    /** A message arrived on {@code link}. */
    void message(PeerLink link, Object message);

    /**
     * {@code link} went down: closed by either side, heartbeat timeout, or bad
     * input. Called once per link that was up.
     *
     * @param reason why, in words for logs and {@code NetworkException} messages
     */
    void linkDown(PeerLink link, String reason);
}
