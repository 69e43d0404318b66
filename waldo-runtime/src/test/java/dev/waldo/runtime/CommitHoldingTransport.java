package dev.waldo.runtime;

import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import java.util.ArrayList;
import java.util.List;

/** Passes messages through, except that it can hold back Commit messages until released. */
final class CommitHoldingTransport extends ForwardingTransport {
    private final List<Envelope> held = new ArrayList<>();
    private boolean holding;

    CommitHoldingTransport(Transport inner) {
        super(inner);
    }

    synchronized void holdCommits(boolean hold) {
        holding = hold;
        if (!hold) {
            held.forEach(super::send);
            held.clear();
        }
    }

    synchronized int heldCommits() {
        return held.size();
    }

    @Override
    public synchronized void send(Envelope envelope) {
        if (holding && envelope.message() instanceof Message.Commit) {
            held.add(envelope);
        } else {
            super.send(envelope);
        }
    }
}
