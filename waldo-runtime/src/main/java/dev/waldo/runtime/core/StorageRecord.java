package dev.waldo.runtime.core;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What a host must remember across a crash about one transaction attempt, as
 * the core asks for it in {@link Outbox#persist()}. The host layer makes the
 * records of one drain durable before it applies that drain's decisions or
 * sends its messages ("persist before you send", as in etcd/raft), and hands
 * the records that survived back to {@link HostCore#restore} when the host
 * starts again.
 *
 * <p>The log is presumed-abort two-phase commit: a coordinator logs only a
 * commit decision, so after a crash an attempt it coordinated with no
 * {@link Committed} record was backed out.
 */
public sealed interface StorageRecord {
    /** The attempt the record concerns. */
    TxnId txn();

    /**
     * A participant prepared {@code txn} and is about to vote yes: whom to ask
     * should it lose the coordinator, which variables to keep locked while in
     * doubt, and the host layer's own data for finishing or undoing the
     * attempt locally ({@code payload}, opaque to the core; may be empty).
     *
     * @param coordinator the attempt's coordinator
     * @param peers the other participants the coordinator named
     * @param locks the whole-variable locks the attempt held here
     * @param payload what the host layer gave {@link HostCore#vote} to keep
     */
    record Prepared(TxnId txn, int coordinator, Set<Integer> peers, List<LockId> locks, byte[] payload)
            implements StorageRecord {
        public Prepared {
            peers = Set.copyOf(peers);
            locks = List.copyOf(locks);
            payload = payload.clone();
        }

        @Override
        public byte[] payload() {
            return payload.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Prepared that && txn.equals(that.txn) && coordinator == that.coordinator
                    && peers.equals(that.peers) && locks.equals(that.locks) && Arrays.equals(payload, that.payload);
        }

        @Override
        public int hashCode() {
            return txn.hashCode() * 31 + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Prepared[" + txn + " coordinator " + coordinator + " peers " + peers + " locks " + locks
                    + " payload " + payload.length + " bytes]";
        }
    }

    /**
     * The coordinator decided to commit {@code txn}, which {@code participants}
     * (not the coordinator itself) must learn: logged before any Commit leaves, with the
     * commit's {@code stamp} (see {@link Message.Commit}), which a restart sends again unchanged.
     */
    record Committed(TxnId txn, Set<Integer> participants, long stamp) implements StorageRecord {
        public Committed {
            participants = Set.copyOf(participants);
        }

        /** A commit logged without a stamp, as logs written before stamps existed hold. */
        public Committed(TxnId txn, Set<Integer> participants) {
            this(txn, participants, 0);
        }
    }

    /**
     * A participant applied the outcome of an attempt it had logged as
     * {@link Prepared}: logged before its acknowledgement leaves, so that a
     * restart neither applies it twice nor asks again.
     */
    record Ended(TxnId txn, boolean committed) implements StorageRecord {
    }

    /**
     * Nothing about {@code txn} is needed any more (every participant
     * acknowledged the coordinator's commit; a participant acknowledged the
     * outcome): its records may be compacted away.
     */
    record Forgotten(TxnId txn) implements StorageRecord {
    }
}
