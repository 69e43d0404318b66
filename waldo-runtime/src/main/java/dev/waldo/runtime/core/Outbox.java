package dev.waldo.runtime.core;

import java.util.List;

/**
 * What one or more steps of the core produced: messages to send and decisions
 * to apply, each in order.
 */
public record Outbox(List<Envelope> messages, List<Decision> decisions) {
    /** True if there is nothing to send or apply. */
    public boolean isEmpty() {
        return messages.isEmpty() && decisions.isEmpty();
    }
}
