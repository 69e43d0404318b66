package dev.waldo.runtime;

/**
 * Unwinds a served call that its host runs on the thread that received it
 * (see {@code Host}'s served calls) at the first point where it would wait: a
 * lock that is not free, a call to another host, a binding's load, or a read
 * that waits for undecided writers. That thread must never wait (it delivers
 * the grants and replies such a wait is for), so the call is run again from
 * the start on a thread of its own, with fresh working state. An Error, like
 * {@link BackoutSignal}, so that generated {@code catch} clauses never see it.
 */
final class WouldBlock extends Error {
    WouldBlock() {
        super("a call served on the receiving thread would wait", null, false, false);
    }
}
