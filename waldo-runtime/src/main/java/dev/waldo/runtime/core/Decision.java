package dev.waldo.runtime.core;

/**
 * What the core tells its host layer to do locally. The host layer applies
 * decisions in the order given: an {@link Install} comes before the
 * {@link Granted} that lets the next transaction read what it installed.
 */
public sealed interface Decision {
    /** The attempt this decision concerns. */
    TxnId txn();

    /** {@code txn} now holds {@code lock}; wake the thread that waits for it. */
    record Granted(TxnId txn, LockId lock) implements Decision {
    }

    /** {@code txn} was wounded: wake every thread of it on this host so that it unwinds. */
    record Wounded(TxnId txn) implements Decision {
    }

    /** Run {@code request} for {@code txn} on a new thread, then report {@code finishCall}. */
    record RunCall(TxnId txn, long callId, int caller, Object request) implements Decision {
    }

    /** The call {@code callId} made by {@code txn} returned. */
    record Replied(TxnId txn, long callId, Object response, boolean wounded) implements Decision {
    }

    /** The call {@code callId} made by {@code txn} cannot complete: {@code host} is unreachable. */
    record CallFailed(TxnId txn, long callId, int host) implements Decision {
    }

    /** Prepare {@code txn} locally (bound state), then report {@code vote}. */
    record PrepareLocal(TxnId txn) implements Decision {
    }

    /** Commit {@code txn} here: install its working copies and flush its output. */
    record Install(TxnId txn) implements Decision {
    }

    /** Back {@code txn} out here: drop its working copies; undo its bindings if it prepared them. */
    record Discard(TxnId txn, boolean prepared) implements Decision {
    }

    /**
     * Ask the decision register to settle {@code txn} (see {@link HostCore#useReplicatedDecisions}),
     * proposing commit with the commit's stamp {@code commitStamp} (the coordinator, once every
     * participant voted yes; see {@link Message.Commit#stamp()}) or backout, 0 (a participant in
     * doubt), and report the outcome it settled with {@link HostCore#registered}. The first
     * proposal the register accepts for an attempt is the attempt's outcome for good, stamp
     * included; asking again returns that outcome. Sent again on ticks until reported, so a failed
     * ask may be dropped.
     */
    record Register(TxnId txn, long commitStamp) implements Decision {
        /** True if this asks to commit. */
        public boolean commit() {
            return commitStamp != 0;
        }
    }

    /** The root attempt {@code txn}, started on this host, has ended. */
    record RootDone(TxnId txn, Result result, String reason) implements Decision {
    }

    /** How a root attempt ended. */
    enum Result {
        /** Committed on every participant. */
        COMMITTED,
        /** Backed out (wounded, or a participant was lost); run the body again. */
        RETRY,
        /** A binding voted no; backed out everywhere, not retried. */
        REFUSED,
        /** The body called abort() or raised an error; backed out everywhere, not retried. */
        FAILED
    }
}
