package dev.waldo.runtime.core;

/**
 * A message on its way between two hosts, stamped with the sender's Lamport
 * clock so that the receiver's clock advances past it.
 */
public record Envelope(int from, int to, long clock, Message message) {
}
