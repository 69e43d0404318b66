package dev.waldo.runtime;

import dev.waldo.runtime.core.Envelope;

/**
 * Carries protocol messages between hosts and reports links going down and
 * up. The contract the core relies on: messages on one link arrive in the
 * order sent, and a message sent while a link is up either arrives or is
 * followed by {@link Receiver#onLinkDown} for that link. {@link InMemoryNetwork}
 * implements it in one JVM; a wire transport implements it over TCP.
 */
public interface Transport extends AutoCloseable {
    /** This host's number on the network. */
    int localHost();

    /** The number of the host with id {@code hostId}, or -1 if the network knows no such host. */
    int hostNumber(String hostId);

    /** The id of host number {@code host}. */
    String hostId(int host);

    /**
     * Makes host {@code hostId} known to this transport without a link to it,
     * so that messages may name it (the coordinator of a transaction recovered
     * after a restart, which is asked about but may never be reachable), and
     * returns its number, or -1 if this transport cannot name it. A transport
     * that already knows every host (the in-memory network) only looks it up.
     */
    default int learnHost(String hostId) {
        return hostNumber(hostId);
    }

    /**
     * Where this host's attempt serials start: above every serial that an
     * earlier run of a host with the same number could have used, so that no
     * peer mistakes a new attempt for one it remembers as ended. 0 for a
     * network whose hosts never restart under the same number.
     */
    default long attemptSerialBase() {
        return 0;
    }

    /** Starts delivering to {@code receiver}, on one thread at a time. */
    void start(Receiver receiver);

    /** Sends a message; a message on a link that is down is dropped. */
    void send(Envelope envelope);

    /**
     * Whether the host needs {@link Receiver#onTick} now. A host whose core has nothing timed
     * says false after a tick, and true again as soon as anything reaches its core (on a thread
     * that holds its lock, so calls about one host never overlap). A transport that ticks many
     * hosts from one timer may leave the quiet ones out; ticking them anyway is harmless.
     */
    default void wantTicks(boolean wanted) {
    }

    /** Leaves the network: every other host sees this link go down. */
    @Override
    void close();

    /** What a transport delivers to its host, never concurrently. */
    interface Receiver {
        /** A message arrived. */
        void onMessage(Envelope envelope);

        /** Host {@code host} became unreachable. */
        void onLinkDown(int host);

        /** Host {@code host} became reachable again. */
        void onLinkUp(int host);

        /**
         * Host {@code host} restarted: the link now up leads to a new run of
         * it, which remembers nothing of the old run's attempts. Reported
         * before {@link #onLinkUp} for the new link; a transport whose hosts
         * never restart under the same number never reports it.
         */
        default void onPeerRestarted(int host) {
        }

        /** Time passed (the transport's tick period). */
        void onTick();
    }
}
