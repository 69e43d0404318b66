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

    /**
     * Run {@code request} (a function call or a sequence step) inside {@code txn} on the receiver.
     * A non-null {@code prepareWith} carries the prepare with the call: the root's body makes no
     * further call after this one, so the receiver prepares right after serving it (if it called
     * no other host meanwhile) and its {@link Reply} carries the vote. {@code prepareWith} are the
     * other hosts the root knew to take part when it called, as in {@link Prepare}. With
     * {@code snapshot}, the attempt is read-only and reads a snapshot on the receiver instead of
     * locking (see {@code SnapshotReads}).
     */
    record Call(TxnId txn, Priority priority, long callId, Object request, Set<Integer> prepareWith,
                boolean snapshot) implements Message {
        /** A call of an attempt that locks what it uses. */
        public Call(TxnId txn, Priority priority, long callId, Object request, Set<Integer> prepareWith) {
            this(txn, priority, callId, request, prepareWith, false);
        }

        /** A call of an attempt that locks, carrying no prepare. */
        public Call(TxnId txn, Priority priority, long callId, Object request) {
            this(txn, priority, callId, request, null);
        }
    }

    /**
     * The end of a {@link Call}. {@code participants} are the hosts the call
     * touched, transitively, including the replier: they take part in commit.
     * {@code wounded} means the attempt was wounded while the call ran.
     * {@code vote} is non-null when the call carried the prepare
     * ({@link Call#prepareWith()}) and the replier prepared: its vote, which
     * the coordinator takes as it would a {@link Vote} message. A replier
     * that could not prepare with the call (it called other hosts, or was
     * wounded) leaves it null, and the coordinator sends {@link Prepare} as usual.
     */
    record Reply(TxnId txn, long callId, Object response, boolean wounded, Set<Integer> participants, Vote vote)
            implements Message {
        /** A reply that carries no vote. */
        public Reply(TxnId txn, long callId, Object response, boolean wounded, Set<Integer> participants) {
            this(txn, callId, response, wounded, participants, null);
        }
    }

    /** The attempt lost a conflict (or its caller vanished): stop it and back it out, unless it is prepared. */
    record Wound(TxnId txn) implements Message {
    }

    /** The root became its endpoint's primary: raise the attempt's priority to {@code priority}. */
    record Promote(TxnId txn, Priority priority) implements Message {
    }

    /**
     * Phase one of commit: the attempt finished; prepare and vote.
     * {@code participants} are every host asked to prepare (the coordinator
     * aside), so that a participant that loses the coordinator after voting
     * yes knows whom to {@link Query}.
     */
    record Prepare(TxnId txn, Set<Integer> participants) implements Message {
    }

    /**
     * Walter's fast commit at one host: the attempt left nothing on its coordinator (the root's
     * host) and took part on the receiver only, so the receiver decides alone. It prepares (its
     * bindings included), logs a commit before it answers, installs, and answers with a
     * {@link Vote} that is the outcome: YES committed, WOUNDED backed out (retry), REFUSED a
     * binding said no. Sent again until answered, also after either side restarted: the receiver
     * answers from what it remembers or logged, and an attempt it knows nothing of was never
     * committed there (the commit is logged before the answer leaves), so it is backed out.
     */
    record Delegate(TxnId txn) implements Message {
    }

    /**
     * A participant's answer to {@link Prepare}. {@code bound}: bindings took
     * part at the voter, so after a commit the root's caller waits for the
     * voter's {@link Ack} (sent once they committed); without bindings the
     * caller returns at the decision and the ack only frees the coordinator's
     * memory. A wire peer that cannot say sends true, the safe side.
     */
    record Vote(TxnId txn, Verdict verdict, String reason, boolean bound) implements Message {
    }

    /**
     * Phase two: install the attempt's effects and release its locks. {@code stamp} is the
     * coordinator's clock when it decided, above every yes vote's: the order in which
     * every participant installs commuting appends to one list ({@link AppendOrder}). 0 means
     * unknown (a commit that orders nothing).
     */
    record Commit(TxnId txn, long stamp) implements Message {
        /** A commit that carries no stamp: installs no shared append in any particular order. */
        public Commit(TxnId txn) {
            this(txn, 0);
        }
    }

    /** Discard the attempt's effects and release its locks, prepared or not. */
    record Backout(TxnId txn) implements Message {
    }

    /** The receiver of a {@link Commit} or {@link Backout} has applied it. */
    record Ack(TxnId txn) implements Message {
    }

    /**
     * Cooperative termination: the sender voted yes, then lost the
     * coordinator, and asks another participant (or the coordinator, once
     * reachable again) what it knows of the outcome. A read-only attempt's snapshot validation
     * asks the same of a writer's coordinator ({@link SnapshotReads}), numbering its queries
     * ({@code asked}) so that it can tell an answer to its own query from an older one that
     * messages reordered; cooperative termination leaves it 0.
     */
    record Query(TxnId txn, long asked) implements Message {
        /** A query that needs no number: any answer about {@code txn} will do. */
        public Query(TxnId txn) {
            this(txn, 0);
        }
    }

    /**
     * The answer to a {@link Query}, with the query's {@code asked} number. A COMMITTED answer
     * carries the commit's {@code stamp} (see {@link Commit}) if the answerer knows it, else 0.
     */
    record Answer(TxnId txn, Outcome outcome, long asked, long stamp) implements Message {
        /** An answer that carries no commit stamp. */
        public Answer(TxnId txn, Outcome outcome, long asked) {
            this(txn, outcome, asked, 0);
        }

        /** An answer to a query that carried no number, with no commit stamp. */
        public Answer(TxnId txn, Outcome outcome) {
            this(txn, outcome, 0, 0);
        }
    }

    /** What the answerer of a {@link Query} knows. */
    enum Outcome {
        /** The attempt committed there: commit. */
        COMMITTED,
        /** The attempt was backed out there, or can no longer commit because the answerer never voted yes. */
        BACKED_OUT,
        /** The answerer voted yes too, or does not know: ask again later. */
        UNDECIDED
    }

    /** What a participant says in its {@link Vote}. */
    enum Verdict {
        /** Prepared: it can commit. */
        YES,
        /** It no longer has the attempt (wounded, backed out, cut off): retry the root. */
        WOUNDED,
        /** A binding refused the change: abort the root for good. */
        REFUSED,
        /**
         * Yes, and the attempt changed nothing here (it only read): the voter released its locks
         * and forgot the attempt as it voted, so the decision is not sent to it and it owes no
         * acknowledgement (the read-only optimization of two-phase commit).
         */
        READ_ONLY
    }
}
