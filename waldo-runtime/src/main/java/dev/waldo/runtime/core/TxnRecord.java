package dev.waldo.runtime.core;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** What one host knows about one transaction attempt that has state or threads on it. */
final class TxnRecord {
    /** Where the attempt stands on this host. */
    enum State {
        /** Running or idle; may be wounded. */
        ACTIVE,
        /** Wounded; backs out here as soon as no thread of it runs here. */
        WOUNDED,
        /** Asked to prepare; the bindings are working on it. Never wounded from here on. */
        PREPARING,
        /** Voted; waits for commit or backout. */
        PREPARED
    }

    final TxnId id;
    Priority priority;
    State state = State.ACTIVE;
    /** Threads of the attempt running here: the root body and calls being served. */
    int active;
    /** Hosts touched through completed calls, transitively (never this host). */
    final Set<Integer> participants = new HashSet<>();
    /** Calls this host made for the attempt that have not returned: call id to host. */
    final Map<Long, Integer> outstanding = new HashMap<>();
    /** Calls this host is serving for the attempt: call id to calling host. */
    final Map<Long, Integer> serving = new HashMap<>();
    /** Calls being served here that carry the prepare: call id to the hosts the root named. */
    final Map<Long, Set<Integer>> prepareWith = new HashMap<>();
    /**
     * Prepared with a call's reply: the reply, held until the vote it carries is known
     * ({@link Message.Reply#vote()}); null otherwise.
     */
    Message.Reply heldReply;
    /** Hosts that called this host for the attempt; losing one backs the attempt out here. */
    final Set<Integer> callers = new HashSet<>();
    final Set<LockId> held = new LinkedHashSet<>();
    final Set<LockId> waiting = new LinkedHashSet<>();
    /** The coordinator that asked this host to prepare. */
    int coordinator = -1;
    Message.Verdict localVote;
    String localReason;
    /** A backout arrived while the bindings were preparing: back out once they vote. */
    boolean backoutAfterVote;
    /** Bindings took part: acknowledge only once the host layer reports them finished. */
    boolean finishLater;
    /** The other hosts the coordinator asked to prepare (not this host, not the coordinator). */
    Set<Integer> peers = Set.of();
    /**
     * Voted yes, then lost the coordinator: the outcome is asked of the peers
     * (cooperative termination) until one knows it or the coordinator's
     * decision arrives.
     */
    boolean inDoubt;
    /** Ticks since the peers were last asked. */
    int ticksSinceQuery;
    /** A {@link StorageRecord.Prepared} for the attempt is durable here: its end is logged too. */
    boolean logged;
    /** Restored from storage after a restart: its bindings finish through their own recovery. */
    boolean restored;
    /**
     * The coordinator delegated the decision here (Walter's fast commit, {@link Message.Delegate}):
     * this host, the only participant, commits or backs out alone and answers with the outcome.
     */
    boolean delegated;

    /**
     * A read-only attempt that reads a snapshot here instead of locking ({@link SnapshotReads}):
     * set on the root's host as it begins, and on a callee from the {@link Message.Call}.
     */
    boolean snapshot;
    /**
     * This host's clock when the attempt voted yes here holding an APPEND lock: the vote's place
     * in the order of shared appends ({@link AppendOrder}); 0 for any other attempt, and for one
     * restored from the log.
     */
    long preparedAt;
    /** The stamp of the attempt's commit, once that arrived here; 0 before ({@link AppendOrder}). */
    long commitStamp;
    /**
     * Restored from the log with its locks: the log keeps whole locks without their mode, so any
     * of them may have been an APPEND lock and the attempt takes part in the order of shared
     * appends ({@link AppendOrder}).
     */
    boolean anyLockMayAppend;
    /** Hosts to acknowledge to once the attempt is backed out or committed here. */
    final Set<Integer> acksOwed = new HashSet<>();

    TxnRecord(TxnId id, Priority priority) {
        this.id = id;
        this.priority = priority;
    }

    boolean woundable() {
        return state == State.ACTIVE;
    }

    boolean prepared() {
        return state == State.PREPARING || state == State.PREPARED;
    }

    /** The hosts this host called for the attempt, directly or through them. */
    Set<Integer> downstream(int self) {
        Set<Integer> hosts = new HashSet<>(participants);
        hosts.addAll(outstanding.values());
        hosts.remove(self);
        return hosts;
    }

    /** Every other host that may hold state or threads of the attempt, as far as this host knows. */
    Set<Integer> neighbours(int self) {
        Set<Integer> hosts = new HashSet<>(participants);
        hosts.addAll(outstanding.values());
        hosts.addAll(callers);
        hosts.add(id.host());
        hosts.remove(self);
        return hosts;
    }
}
