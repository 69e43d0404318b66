package dev.waldo.runtime.core;

import java.util.List;

/**
 * What one or more steps of the core produced: records to make durable,
 * decisions to apply and messages to send, each in order. The host layer
 * persists {@code persist} first (it must be durable before anything that
 * depends on it leaves: a yes vote, a Commit, an acknowledgement), then
 * applies {@code decisions}, then sends {@code messages}.
 */
public record Outbox(List<StorageRecord> persist, List<Envelope> messages, List<Decision> decisions) {
    /** True if there is nothing to persist, send or apply. */
    public boolean isEmpty() {
        return persist.isEmpty() && messages.isEmpty() && decisions.isEmpty();
    }
}
