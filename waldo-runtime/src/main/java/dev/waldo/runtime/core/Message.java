package dev.waldo.runtime.core;

import java.util.Set;

/**
 * The protocol between hosts. Every message concerns one transaction attempt.
 * Payloads of calls and replies are opaque to the core: the host layer puts
 * Waldo values (Double, String, Boolean, WList, WMap, WStruct, EndpointRef) in
 * them, so every message can be serialized.
 */
public sealed interface Message {
    /** The transaction attempt the message concerns. */
    TxnId txn();

    /** Run {@code request} (a function call or a sequence step) inside {@code txn} on the receiver. */
    record Call(TxnId txn, Priority priority, long callId, Object request) implements Message {
    }

    /**
     * The end of a {@link Call}. {@code participants} are the hosts the call
     * touched, transitively, including the replier: they take part in commit.
     * {@code wounded} means the attempt was wounded while the call ran.
     */
    record Reply(TxnId txn, long callId, Object response, boolean wounded, Set<Integer> participants)
            implements Message {
    }

    /** The attempt lost a conflict (or its caller vanished): stop it and back it out, unless it is prepared. */
    record Wound(TxnId txn) implements Message {
    }

    /** The root became its endpoint's primary: raise the attempt's priority to {@code priority}. */
    record Promote(TxnId txn, Priority priority) implements Message {
    }

    /** Phase one of commit: the attempt finished; prepare and vote. */
    record Prepare(TxnId txn) implements Message {
    }

    /** A participant's answer to {@link Prepare}. */
    record Vote(TxnId txn, Verdict verdict, String reason) implements Message {
    }

    /** Phase two: install the attempt's effects and release its locks. */
    record Commit(TxnId txn) implements Message {
    }

    /** Discard the attempt's effects and release its locks, prepared or not. */
    record Backout(TxnId txn) implements Message {
    }

    /** The receiver of a {@link Commit} or {@link Backout} has applied it. */
    record Ack(TxnId txn) implements Message {
    }

    /** What a participant says in its {@link Vote}. */
    enum Verdict {
        /** Prepared: it can commit. */
        YES,
        /** It no longer has the attempt (wounded, backed out, cut off): retry the root. */
        WOUNDED,
        /** A binding refused the change: abort the root for good. */
        REFUSED
    }
}
