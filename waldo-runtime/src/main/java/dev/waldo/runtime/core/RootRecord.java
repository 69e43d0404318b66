package dev.waldo.runtime.core;

import java.util.Collections;
import java.util.HashSet;
import java.util.NavigableSet;
import java.util.Set;

/** A root transaction started on this host: its attempts and, per attempt, the coordinator's state. */
final class RootRecord {
    /** Where the current attempt's commit stands. */
    enum Phase {
        /** The body runs. */
        RUNNING,
        /** Prepare sent; collecting votes. */
        VOTING,
        /**
         * Every vote was yes; the decision register is asked to settle the attempt as committed
         * ({@link HostCore#useReplicatedDecisions}). Its answer decides: a participant in doubt
         * may have settled it as backed out first.
         */
        REGISTERING,
        /**
         * The body left nothing on this host and took part on one other host only: that host was
         * asked to decide alone ({@link Message.Delegate}, Walter's fast commit) and its answer is
         * the outcome. Until it comes the outcome is unknown here, even if the link drops: the
         * delegation is sent again until that host answers.
         */
        DELEGATED,
        /**
         * Every vote was yes (and the register, if any, settled it so), but the commit's stamp is
         * still ahead of this host's real time: it goes out once real time passed it ({@link
         * HostCore#useRealTimeStamps}). Until then the outcome is told to no one.
         */
        WAITING,
        /**
         * Decided; collecting acknowledgements of commit or backout. A commit
         * is reported to the root's caller as soon as no host whose bindings
         * took part still owes its acknowledgement: the others' acks only
         * free this record.
         */
        DECIDED
    }

    final long serial;
    final long object;
    /** Lamport time of the first attempt's start; every retry keeps it. */
    final long startedAt;
    TxnId attempt;
    Phase phase = Phase.RUNNING;
    /** The hosts other than this one that take part in the attempt's commit. */
    NavigableSet<Integer> participants = Collections.emptyNavigableSet();
    /** Hosts whose vote (in VOTING) or acknowledgement (in DECIDED) is missing; may include this host. */
    final Set<Integer> awaiting = new HashSet<>();
    /** Hosts (this one included) that voted yes with bindings taking part: the caller waits for their acks. */
    final Set<Integer> bound = new HashSet<>();
    /** Hosts that voted {@link Message.Verdict#READ_ONLY}: they forgot the attempt, and the decision is not for them. */
    final Set<Integer> votedReadOnly = new HashSet<>();
    /** The root's caller was told the outcome ({@link Decision.RootDone}); acks may still be missing. */
    boolean reported;
    Decision.Result result;
    String reason;
    long committedAt;
    int ticksSinceSend;
    /** The host whose call carried the prepare in this attempt ({@link Message.Call#prepareWith()}), or -1. */
    int earlyPrepareHost = -1;
    /** That call's id, or -1. */
    long earlyPrepareCall = -1;
    /** Hosts whose yes vote came back in a reply: no Prepare is sent to them. */
    final Set<Integer> earlyVoted = new HashSet<>();
    /** Why a vote that came back in a reply refused, or null. */
    String earlyRefusal;
    /**
     * Why the attempt cannot commit after a call that carried the prepare failed: the callee may
     * have prepared and voted yes, so committing without it would leave it installing (its
     * coordinator says committed) what the body was told had failed. Null if none failed.
     */
    String earlyPrepareLost;
    /**
     * The body called again after the call that carried the prepare (the mark was wrong for this
     * root): its later attempts never carry the prepare with a call. Kept across attempts.
     */
    boolean earlyPrepareOff;

    RootRecord(long serial, long object, long startedAt) {
        this.serial = serial;
        this.object = object;
        this.startedAt = startedAt;
    }
}
