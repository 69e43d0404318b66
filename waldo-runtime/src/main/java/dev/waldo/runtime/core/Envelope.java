package dev.waldo.runtime.core;

/**
 * A message on its way between two hosts, stamped with the sender's Lamport
 * clock so that the receiver's clock advances past it.
 *
 * <p>{@code unhurried}: nothing waits for the message to arrive soon (a commit
 * whose root already returned, the acknowledgement that only lets a
 * coordinator forget), so a transport may hold it back for a short while and
 * send it with the next message to the same host: it piggybacks on that
 * message's flush (and TLS record) instead of costing one of its own. It still
 * leaves in order, before anything sent to that host after it.
 */
public record Envelope(int from, int to, long clock, Message message, boolean unhurried) {
    /** A message to send at once. */
    public Envelope(int from, int to, long clock, Message message) {
        this(from, to, clock, message, false);
    }
}
