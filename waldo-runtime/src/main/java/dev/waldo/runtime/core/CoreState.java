package dev.waldo.runtime.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.NavigableSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the roles of one host's core share: the host's number and clock, the
 * attempts with state here, the unreachable hosts, the attempts that ended
 * here, and the outputs piling up until {@link HostCore#drain}.
 */
final class CoreState {
    private static final int TOMBSTONES = 100_000;
    /** The drain of a core that produced nothing. */
    private static final Outbox NOTHING = new Outbox(List.of(), List.of(), List.of());

    final int host;
    final int resendTicks;
    /** Attempt serials of this run start above it; lower ones belong to earlier runs of this host. */
    final long serialBase;
    long clock;
    /**
     * Real time in nanoseconds since the epoch, or null: then {@link #clock} is a pure Lamport
     * clock. With it the clock is a hybrid logical clock ({@link HostCore#useRealTimeStamps}).
     */
    java.util.function.LongSupplier realTime;
    /** How far apart the real-time clocks of two hosts may be, in nanoseconds. */
    long clockUncertainty;
    long serials;
    long calls;
    /** True once {@link HostCore#restore} read a log that earlier runs of this host wrote. */
    boolean earlierRunsLogged;
    /**
     * Outcomes of distributed attempts are settled by a replicated decision register, not by
     * the coordinator alone ({@link HostCore#useReplicatedDecisions}).
     */
    boolean replicatedDecisions;
    /**
     * A root whose attempt left nothing here and took part on one other host only has that host
     * decide alone (Walter's fast commit, {@link HostCore#useFastCommit}).
     */
    boolean fastCommit;
    /**
     * Attempts the log of earlier runs holds a prepare of (every yes vote is logged before it
     * leaves). With {@link #earlierRunsLogged}, an attempt missing here never got a yes vote from
     * an earlier run of this host.
     */
    final Set<TxnId> preparedInEarlierRuns = new HashSet<>();
    final Map<TxnId, TxnRecord> txns = new HashMap<>();
    final Set<Integer> down = new HashSet<>();
    /** Attempts that ended here: true if committed. Late messages about them are answered from here. */
    final Map<TxnId, Boolean> ended = tombstones();
    /**
     * Attempts that voted {@link Message.Verdict#READ_ONLY} here and were forgotten: a late call
     * of one is refused, and a Prepare sent again gets the same vote.
     */
    final Set<TxnId> votedReadOnly = Collections.newSetFromMap(tombstones());
    /** The stamps of commits known here ({@link Message.Commit#stamp()}), for answers to queries. */
    private final Map<TxnId, Long> commitStamps = tombstones();
    private List<StorageRecord> persist = new ArrayList<>();
    private List<Envelope> messages = new ArrayList<>();
    private List<Decision> decisions = new ArrayList<>();

    /** A map of what this host remembers of attempts it forgot, keeping the newest {@link #TOMBSTONES}. */
    private static <V> Map<TxnId, V> tombstones() {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<TxnId, V> eldest) {
                return size() > TOMBSTONES;
            }
        };
    }

    CoreState(int host, int resendTicks, long serialBase) {
        this.host = host;
        this.resendTicks = Math.max(1, resendTicks);
        this.serialBase = serialBase;
        this.serials = serialBase;
    }

    /**
     * Advances the clock for an event that orders shared appends (a vote's or a commit's stamp)
     * and returns it: one more than before, and, with real time on, at least the real time now.
     */
    long stamp() {
        clock = realTime == null ? clock + 1 : Math.max(clock + 1, realTime.getAsLong());
        return clock;
    }

    /**
     * True if a commit stamped {@code stamp} may become visible now: with real time on, once this
     * host's real time passed the stamp by the clocks' uncertainty, so that whatever any host
     * stamps after anyone saw the commit is stamped above it (Spanner's commit wait).
     */
    boolean mayReveal(long stamp) {
        return realTime == null || realTime.getAsLong() >= stamp + clockUncertainty;
    }

    /** Notes the stamp of {@code txn}'s commit, if known (not 0). */
    void committedAt(TxnId txn, long stamp) {
        if (stamp != 0) {
            commitStamps.put(txn, stamp);
        }
    }

    /** The stamp of {@code txn}'s commit, or 0 if not known here. */
    long commitStamp(TxnId txn) {
        return commitStamps.getOrDefault(txn, 0L);
    }

    /**
     * What the core produced since the last drain. The host layer drains until it gets an empty
     * one, several times per transaction, so an empty drain allocates nothing and a list that
     * stayed empty is kept (a fifth of the core's allocation per transaction went to fresh lists).
     */
    Outbox drain() {
        if (persist.isEmpty() && messages.isEmpty() && decisions.isEmpty()) {
            return NOTHING;
        }
        Outbox out = new Outbox(persist.isEmpty() ? List.of() : persist, messages.isEmpty() ? List.of() : messages,
                decisions.isEmpty() ? List.of() : decisions);
        if (!persist.isEmpty()) {
            persist = new ArrayList<>();
        }
        if (!messages.isEmpty()) {
            messages = new ArrayList<>();
        }
        if (!decisions.isEmpty()) {
            decisions = new ArrayList<>();
        }
        return out;
    }

    void send(int to, Message message) {
        messages.add(new Envelope(host, to, ++clock, message));
    }

    /** Sends a message nothing waits for soon: the transport may piggyback it (see {@link Envelope}). */
    void sendUnhurried(int to, Message message) {
        messages.add(new Envelope(host, to, ++clock, message, true));
    }

    void decide(Decision decision) {
        decisions.add(decision);
    }

    /** Asks the host layer to make {@code record} durable before this drain's messages leave. */
    void persist(StorageRecord record) {
        persist.add(record);
    }

    /** The participants other than this host and the coordinator: whom a participant in doubt asks. */
    Set<Integer> peersOf(Set<Integer> participants, int coordinator) {
        Set<Integer> peers = new TreeSet<>(participants);
        peers.remove(host);
        peers.remove(coordinator);
        return Collections.unmodifiableSet(peers);
    }

    /**
     * How many other participants a prepare names at most. A participant in doubt asks the
     * hosts its prepare named (cooperative termination), so naming all of them costs N² host
     * names per transaction and N² queries when the coordinator is lost: at 1,000 switches a
     * million names, whose encoding kept the coordinator's I/O threads from sending heartbeats
     * for longer than the services wait. Past this many, each participant is told its next
     * {@code NAMED_PEERS} in host order (a ring), so every participant is still asked by some.
     */
    static final int NAMED_PEERS = 16;

    /**
     * The participants a prepare sent to {@code recipient} names: all of them in a small
     * transaction, else {@code recipient} and its {@link #NAMED_PEERS} successors on the ring of
     * participants in host order. Naming fewer peers is safe: what a peer answers a query
     * never depends on who asked, so it only makes an in-doubt participant learn the outcome
     * from fewer places (and from the coordinator, which it always asks).
     */
    static Set<Integer> namedTo(int recipient, NavigableSet<Integer> participants) {
        if (participants.size() <= NAMED_PEERS + 1) {
            return participants;
        }
        // The successors are looked up in the sorted set, not copied out of it: a coordinator
        // re-sends its prepares to every participant that has not voted, and copying a
        // thousand-host ring for each of a thousand participants made those re-sends cost most
        // of an operator's CPU during a thousand-switch prepare.
        Set<Integer> named = new TreeSet<>();
        named.add(recipient);
        Integer next = recipient; // a recipient not (yet) among them starts from its place on the ring
        for (int step = 1; step <= NAMED_PEERS; step++) {
            next = participants.higher(next);
            if (next == null) {
                next = participants.first();
            }
            named.add(next);
        }
        return Collections.unmodifiableSet(named);
    }

    /**
     * A fixed copy of a host set that iterates in host order: {@code Set.copyOf}
     * iterates in an order salted per JVM, and the core must send the same
     * messages in the same order for the same inputs (simulation seeds replay).
     */
    static NavigableSet<Integer> inOrder(Set<Integer> hosts) {
        return Collections.unmodifiableNavigableSet(new TreeSet<>(hosts));
    }
}
