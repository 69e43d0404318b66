package dev.waldo.runtime.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Installs shared appends to a list in the same order on every host: the order of their
 * commits' stamps. Appends commute as Claret's abstract locks see them (neither reads the list),
 * so two attempts may hold one list's APPEND lock at once; but a Waldo list is ordered, and two
 * attempts that both append to lists on two hosts must land in the same order on both, or no
 * serial order explains the lists (a G0 cycle).
 *
 * <p>The order is the host clocks' time. A participant's yes vote is stamped with its clock
 * ({@link TxnRecord#preparedAt}); the coordinator decides after every vote reached it, so its
 * clock then, the commit's stamp ({@link Message.Commit#stamp()}), is above every vote's; and a
 * participant's clock passes the stamp when the commit arrives. Ties are broken by attempt id.
 * A committed appender installs here only once every other attempt that holds an overlapping
 * APPEND lock here is known to come after it:
 * <ul>
 *   <li>one committed with a greater stamp;</li>
 *   <li>one that voted yes with a stamp at or above this commit's (its own commit's stamp will be
 *       greater still);</li>
 *   <li>one that has not voted: it votes later, above this host's clock, which passed this
 *       commit's stamp when it arrived.</li>
 * </ul>
 * Any other, one that voted yes below the stamp and is undecided or committed with a smaller
 * stamp, holds the install back until it ended here. Every host that holds both decides the same
 * way, since the stamps and ids are the same everywhere. An install held back keeps its locks, so
 * readers of the list, whose READ conflicts with APPEND, wait for it; and an appender's vote is
 * bound (see {@link Message.Vote#bound()}), so the root's caller returns only once it installed.
 *
 * <p>Counted events alone (a Lamport clock) keep the lists serializable, not strictly so (the
 * deterministic simulation found it): an attempt U that returned after installing behind T on
 * one host may return while T's commit has not reached another host, where an attempt V begun
 * after U returned votes below T's stamp and lands before T. Hosts that share appends therefore
 * stamp with real time ({@link HostCore#useRealTimeStamps}): a vote is stamped at least at the
 * real time it is cast, and no one hears of a commit before real time passed its stamp, so V,
 * begun after anyone saw T, votes above T's stamp.
 *
 * <p>A vote restored from the log after a restart (by a host layer whose values survive it, so
 * that the attempt keeps its locks) has no stamp (0): it holds back every commit that overlaps it
 * until it is decided, which is safe, only slower. The log keeps whole locks without their mode,
 * so any lock of a restored attempt counts as an append (it learns its commit's stamp from a
 * Commit, an Answer or the decision register, which keeps stamps with outcomes). A
 * commit this host logged is restored the same way and installs with its logged stamp once every
 * record is restored: in the run that logged it, its install may have been held back behind an
 * attempt restored in doubt. Such a host layer also gives the restarted core its clock back
 * ({@link HostCore#advanceClock}), so that its next votes are stamped above the commits its
 * values already hold.
 */
final class AppendOrder {
    /**
     * A deliberately broken order, for the deterministic simulation's test that it catches one
     * ({@link HostCore#breakByInstallingAppendsAsTheyArrive}): every commit installs as it
     * arrives, and an appender's vote is not bound (its root returns at the decision), as when
     * appends first shared. Never set it elsewhere.
     */
    boolean unordered;

    /** Orders commits by stamp, then by attempt id, as every host does. */
    private static final Comparator<TxnRecord> BY_COMMIT = Comparator.<TxnRecord>comparingLong(r -> r.commitStamp)
            .thenComparingInt(r -> r.id.host()).thenComparingLong(r -> r.id.serial());

    /** Attempts holding an APPEND lock here that voted yes, until they end here. */
    private final Set<TxnRecord> voted = new LinkedHashSet<>();

    /** True if {@code record} holds an APPEND lock here: its install may be ordered. */
    static boolean appends(TxnRecord record) {
        for (LockId lock : record.held) {
            if (mayAppend(record, lock)) {
                return true;
            }
        }
        return false;
    }

    /** True if {@code record} may append through {@code lock} (see {@link TxnRecord#anyLockMayAppend}). */
    private static boolean mayAppend(TxnRecord record, LockId lock) {
        return lock.mode() == LockMode.APPEND || record.anyLockMayAppend;
    }

    /** An attempt that holds an APPEND lock voted yes, with the stamp set in {@code record.preparedAt}. */
    void voted(TxnRecord record) {
        voted.add(record);
    }

    /** True if {@code record} takes part in the order here: it needs its commit's stamp to install. */
    boolean orders(TxnRecord record) {
        return voted.contains(record);
    }

    /** The attempt ended here (installed or backed out): it holds back nothing any more. */
    void ended(TxnRecord record) {
        voted.remove(record);
    }

    /** True if some commit waits here for its turn to install. */
    boolean holdsBack() {
        for (TxnRecord record : voted) {
            if (record.commitStamp != 0) {
                return true;
            }
        }
        return false;
    }

    /** True if {@code committed}, whose commit stamp is set, may install now. */
    boolean mayInstall(TxnRecord committed) {
        if (unordered) {
            return true;
        }
        for (TxnRecord other : voted) {
            if (other != committed && before(other, committed) && overlap(other, committed)) {
                return false;
            }
        }
        return true;
    }

    /** The committed attempts whose install waits here, in the order they must install. */
    List<TxnRecord> heldBack() {
        List<TxnRecord> committed = new ArrayList<>();
        for (TxnRecord record : voted) {
            if (record.commitStamp != 0) {
                committed.add(record);
            }
        }
        committed.sort(BY_COMMIT);
        return committed;
    }

    /** True if {@code other} may have to install before {@code committed} (see the class comment). */
    private static boolean before(TxnRecord other, TxnRecord committed) {
        if (other.commitStamp != 0) {
            return BY_COMMIT.compare(other, committed) < 0;
        }
        return other.preparedAt < committed.commitStamp;
    }

    /** True if the two attempts hold APPEND locks here on a common list. */
    private static boolean overlap(TxnRecord a, TxnRecord b) {
        for (LockId mine : a.held) {
            if (!mayAppend(a, mine)) {
                continue;
            }
            for (LockId theirs : b.held) {
                if (mayAppend(b, theirs) && mine.overlaps(theirs)) {
                    return true;
                }
            }
        }
        return false;
    }
}
