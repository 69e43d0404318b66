package dev.waldo.net;

import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.core.TxnId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Host-wide memory of what this host sent and received, against which it
 * checks that a peer's protocol messages could have been caused by this
 * host's own. The rules flag only what can never happen between correct hosts
 * (re-sent and late messages are correct and pass):
 * <ul>
 *   <li>a Vote is an answer to a Prepare this host sent that peer, for an attempt this host coordinates;</li>
 *   <li>a Reply answers a Call this host sent that peer;</li>
 *   <li>a Prepare comes from the attempt's coordinator (its root's host), for an attempt that reached
 *       this host in a Call;</li>
 *   <li>a Commit comes from the attempt's coordinator, or concerns an attempt of this host's
 *       that it delegated to that peer (fast commit: the delegate commits and tells, again after
 *       a restart of either side) or that an earlier run of this host started;</li>
 *   <li>a Delegate comes from the attempt's coordinator (not checked against the calls that
 *       reached this run: a delegate that restarted must answer it, from its log);</li>
 *   <li>an Answer answers a Query this host sent that peer.</li>
 * </ul>
 * A Commit or a Query about an attempt this run of the host never saw is correct: the attempt may
 * have reached an earlier run, before a restart (a coordinator re-sends its logged commit until it
 * is acknowledged, and a participant in doubt asks every other participant). The core acknowledges
 * such a Commit and answers such a Query from what its log restored; refusing them cut the link
 * the acknowledgement had to travel on, so the coordinator re-sent forever.
 * A violation closes the peer's connection; the core never sees the message.
 */
final class ProtocolGuard {
    /** How many sent Prepares and Calls per peer are remembered; far beyond any in-flight window. */
    private static final int MEMORY = 100_000;
    private final int localHost;
    /** This run's attempt serials start above it; lower ones are attempts of earlier runs of this host. */
    private final long serialBase;
    private final Map<Integer, Recent<TxnId>> preparesSent = new ConcurrentHashMap<>();
    private final Map<Integer, Recent<TxnId>> delegationsSent = new ConcurrentHashMap<>();
    private final Map<Integer, Recent<Long>> callsSent = new ConcurrentHashMap<>();
    private final Map<Integer, Recent<TxnId>> queriesSent = new ConcurrentHashMap<>();
    /** Highest attempt serial that reached this host in a Call, by root host. */
    private final Map<Integer, Long> highestCalled = new ConcurrentHashMap<>();

    ProtocolGuard(int localHost, long serialBase) {
        this.localHost = localHost;
        this.serialBase = serialBase;
    }

    /** Notes a message this host is sending to host {@code to}. */
    void sent(int to, Message message) {
        switch (message) {
            case Message.Prepare prepare -> recent(preparesSent, to).add(prepare.txn());
            case Message.Delegate delegate -> {
                recent(preparesSent, to).add(delegate.txn()); // its Vote answers it
                recent(delegationsSent, to).add(delegate.txn());
            }
            case Message.Call call -> recent(callsSent, to).add(call.callId());
            case Message.Query query -> recent(queriesSent, to).add(query.txn());
            default -> { }
        }
    }

    /**
     * Checks a message from host {@code from}.
     *
     * @throws ProtocolViolationException if no correct host could have sent it
     */
    void received(int from, Message message) {
        switch (message) {
            case Message.Call call -> highestCalled.merge(call.txn().host(), call.txn().serial(), Math::max);
            case Message.Vote vote -> checkVote(from, vote.txn());
            case Message.Reply reply -> {
                if (!recent(callsSent, from).contains(reply.callId())) {
                    throw new ProtocolViolationException("reply for call " + reply.callId() + " of attempt "
                            + reply.txn() + " that this host never sent to that peer");
                }
            }
            case Message.Prepare prepare -> checkFromCoordinator(from, prepare.txn(), "prepare");
            case Message.Commit commit -> checkCommit(from, commit.txn());
            case Message.Delegate delegate -> checkCoordinates(from, delegate.txn(), "delegation");
            case Message.Answer answer -> {
                if (!recent(queriesSent, from).contains(answer.txn())) {
                    throw new ProtocolViolationException("answer about attempt " + answer.txn()
                            + ", which this host never asked that peer about");
                }
            }
            default -> { }
        }
    }

    private void checkVote(int from, TxnId txn) {
        if (txn.host() != localHost) {
            throw new ProtocolViolationException("vote for attempt " + txn + ", which this host does not coordinate");
        }
        if (!recent(preparesSent, from).contains(txn)) {
            throw new ProtocolViolationException("vote for attempt " + txn + ", which this host never prepared"
                    + " with that peer");
        }
    }

    private void checkCommit(int from, TxnId txn) {
        boolean delegatedHere = txn.host() == localHost
                && (txn.serial() <= serialBase || recent(delegationsSent, from).contains(txn));
        if (!delegatedHere) {
            checkCoordinates(from, txn, "commit");
        }
    }

    private void checkFromCoordinator(int from, TxnId txn, String what) {
        checkCoordinates(from, txn, what);
        checkReachedHere(txn, what);
    }

    private static void checkCoordinates(int from, TxnId txn, String what) {
        if (txn.host() != from) {
            throw new ProtocolViolationException(what + " for attempt " + txn
                    + " from a host that does not coordinate it");
        }
    }

    private void checkReachedHere(TxnId txn, String what) {
        Long highest = highestCalled.get(txn.host());
        if (highest == null || txn.serial() > highest) {
            throw new ProtocolViolationException(what + " for unknown transaction " + txn
                    + ": it never reached this host");
        }
    }

    private static <K> Recent<K> recent(Map<Integer, Recent<K>> byHost, int host) {
        return byHost.computeIfAbsent(host, h -> new Recent<>());
    }

    /** A bounded, thread-safe set that forgets its oldest entries first. */
    private static final class Recent<K> {
        private final Map<K, Boolean> entries = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, Boolean> eldest) {
                return size() > MEMORY;
            }
        };

        synchronized void add(K key) {
            entries.put(key, Boolean.TRUE);
        }

        synchronized boolean contains(K key) {
            return entries.containsKey(key);
        }
    }
}
