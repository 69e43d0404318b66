package dev.waldoconf.service;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.WaldoObject;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.service.DeviceJournal.Stage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one binding of every device service: mirrors a service's {@code @snmp} variables onto its
 * device inside two-phase commit (DESIGN.md "Bound state"), with a durable {@link DeviceJournal},
 * so that a service killed at any point leaves nothing half done once it is back. What is
 * particular to a kind of device (reading it, planning and pushing a change, undoing it) is its
 * {@link DeviceAdapter}'s.
 *
 * <ul>
 *   <li><b>load</b>: a transaction starts a device variable from what the device holds now (read
 *       under the variable's lock), so a change made behind the service's back, or a trial's revert,
 *       is what the next transaction sees. Refused while a transaction left in doubt may hold it.</li>
 *   <li><b>prepare</b>: first pay every undo still owed (vote no while one cannot be paid); then
 *       the adapter plans the change; the device's undo data is read and journaled (stage
 *       {@code preparing}) with the record the service keeps if it commits, before anything is
 *       written; the adapter pushes the change and reads it back; the entry becomes
 *       {@code prepared} and the vote is yes. A refusal, a timeout, a wrong read-back, a device
 *       changed between the read and the push, or a journal that cannot be written votes no, the
 *       reason naming the device (and, where the adapter knows, the variable and object). The vote
 *       itself is the runtime's to log, with the transaction's peers, before it leaves.</li>
 *   <li><b>commit</b>: the entry goes and its record is folded into the committed one
 *       ({@link DeviceAdapter#committedAfter}), in one write; a committed record with trials is
 *       handed to the {@link TrialTimer}.</li>
 *   <li><b>abort</b>: the undo data is put back, newest first, and the entry forgotten. If the
 *       device does not answer, the entry stays {@code backed-out}: the undo is owed, and paid before
 *       the next load or prepare, at every {@link #reconcile() recheck} and at the next start.</li>
 *   <li><b>{@link #recover()}</b>, at start: an entry left {@code preparing} never voted yes, so its
 *       coordinator cannot have committed it, and a {@code backed-out} one is owed: both are undone.
 *       A {@code prepared} entry voted yes and its outcome never arrived: it is in doubt, kept until
 *       {@link #resolve} is told the outcome ({@link InDoubtRecovery} asks the runtime).</li>
 * </ul>
 * Trials: a transaction that stages, confirms or reverts a trial journals the {@link TrialRecord}
 * it leaves with its entry before the vote (so one write commits both), and a staged trial's
 * deadline is watched from prepare on, even if no decision ever arrives.
 *
 * <p>Journal keys carry a tag of this run: transaction ids restart with the process. The runtime
 * calls a binding on one thread per host; the methods are synchronized anyway, because recovery
 * and the trial timer come from other threads. Every method that talks to the device first takes a
 * turn of the process's {@link DeviceWorkLimit} (before this binding's lock, so a binding waiting
 * for its turn holds no lock), which bounds how many switches of a site agent are pushed at once.
 *
 * @param <S> the adapter's undo data
 */
public final class DeviceBinding<S> implements Binding {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceBinding.class);

    private final DeviceAdapter<S> adapter;
    private final String name;
    private final DeviceJournal<S> journal;
    /** Tells this run's journal entries from a previous run's. */
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    /** The committed record: the device's intended state and the pending trial, if any; null before any. */
    private volatile TrialRecord<S> committed;
    /** Records prepared here and not yet ended, by the runtime's transaction id; read by the timer. */
    private final Map<String, TrialRecord<S>> prepared = new ConcurrentHashMap<>();
    /** Journal keys of the entries {@link #recover()} found in doubt and nobody has resolved yet. Guarded by this. */
    private final Set<String> inDoubt = new LinkedHashSet<>();
    /** Set by {@link #close()}: the service stopped, and its next run may already use the device. */
    private volatile boolean closed;
    /** Told of every prepared and committed record with a trial, so it is checked at its deadline. */
    private volatile Consumer<TrialRecord<S>> onDeadline = record -> { };

    /**
     * A binding onto {@code adapter}'s device, journaling into {@code journal} (opened with the
     * adapter's format). Call {@link #recover()} before the first transaction.
     */
    public DeviceBinding(DeviceAdapter<S> adapter, DeviceJournal<S> journal) {
        this.adapter = adapter;
        this.name = adapter.deviceName();
        this.journal = journal;
        this.committed = journal.committed();
    }

    /** The runtime's id of the transaction journaled as {@code key}: the key without the run's tag. */
    public static String transactionId(String key) {
        return key.substring(key.indexOf('/') + 1);
    }

    /**
     * From now on, hands every prepared or committed record with a trial to {@code timer}, starting
     * with the committed pending trial and those of the transactions in doubt.
     */
    public synchronized void watchDeadlines(Consumer<TrialRecord<S>> timer) {
        onDeadline = timer;
        TrialRecord<S> pending = committed;
        if (pending != null && pending.hasTrial()) {
            timer.accept(pending);
        }
        for (DeviceJournal.Entry<S> entry : inDoubt()) {
            if (entry.record() != null && entry.record().hasTrial()) {
                timer.accept(entry.record());
            }
        }
    }

    /** The committed record (with {@link TrialRecord#hasTrial()} while a trial is pending), or null before any. */
    public TrialRecord<S> committed() {
        return committed;
    }

    /** Makes {@code record} the committed one, durably: how a service adopts its device at first start. */
    public synchronized void adopt(TrialRecord<S> record) throws IOException {
        journal.settle(null, record);
        committed = record;
    }

    /**
     * Transactions that prepared a record here and have no outcome yet, the previous run's in-doubt
     * ones included, by the runtime's id, each with whether it ends a trial (true) or not (false).
     */
    public synchronized Map<String, Boolean> undecided() {
        Map<String, Boolean> undecided = new HashMap<>();
        prepared.forEach((id, record) -> undecided.put(id, !record.hasTrial()));
        for (DeviceJournal.Entry<S> entry : inDoubt()) {
            if (entry.record() != null) {
                undecided.put(transactionId(entry.key()), !entry.record().hasTrial());
            }
        }
        return undecided;
    }

    /**
     * Settles what a previous run of the service left in the journal: undoes every entry that never
     * voted yes or was backed out, newest first, and keeps every entry that voted yes (in doubt).
     *
     * @return the in-doubt entries, which keep their undo data until {@link #resolve}
     * @throws DeviceException if an undo fails (the entry stays; start again once the device answers)
     * @throws IOException if the journal cannot be written
     */
    public List<DeviceJournal.Entry<S>> recover() throws DeviceException, IOException {
        try (DeviceWorkLimit.Turn turn = DeviceWorkLimit.PROCESS.take()) {
            return recoverNow();
        }
    }

    private synchronized List<DeviceJournal.Entry<S>> recoverNow() throws DeviceException, IOException {
        if (closed) {
            throw new DeviceException(stopped(), true);
        }
        for (DeviceJournal.Entry<S> entry : journal.entries().reversed()) {
            if (entry.stage() == Stage.PREPARED) {
                inDoubt.add(entry.key());
                LOG.warn("{}: transaction {} voted yes here before the service stopped, and its outcome never"
                        + " arrived: it is in doubt. The device keeps what it holds; its undo data stays in {} until"
                        + " the outcome is known.", name, entry.key(), journal.file());
                continue;
            }
            undo(entry, "the service stopped while transaction " + entry.key() + " was "
                    + (entry.stage() == Stage.PREPARING ? "preparing" : "being backed out"));
            journal.remove(entry.key());
            LOG.info("{}: put back the undo data of unfinished transaction {} ({})", name, entry.key(),
                    entry.stage().word());
        }
        return inDoubt();
    }

    /** The entries found in doubt at start that are not resolved yet, oldest first. */
    public synchronized List<DeviceJournal.Entry<S>> inDoubt() {
        return journal.entries().stream().filter(entry -> inDoubt.contains(entry.key())).toList();
    }

    /**
     * Ends the in-doubt entry {@code key} as its outcome says: committed keeps what the device
     * holds and makes its record (if any) the committed one; backed out puts its undo data back.
     *
     * @throws IllegalArgumentException if {@code key} is not in doubt
     * @throws IllegalStateException if a transaction of this run is unfinished here (try again
     *     later), or, to back it out, while a newer in-doubt entry puts back a part of the device in
     *     common (resolve that one first)
     * @throws DeviceException if the undo data cannot be put back (the entry stays in doubt)
     * @throws IOException if the journal cannot be written
     */
    public void resolve(String key, boolean commit) throws DeviceException, IOException {
        try (DeviceWorkLimit.Turn turn = DeviceWorkLimit.PROCESS.take()) {
            resolveNow(key, commit);
        }
    }

    private synchronized void resolveNow(String key, boolean commit) throws DeviceException, IOException {
        if (closed) {
            throw new DeviceException(stopped(), true);
        }
        DeviceJournal.Entry<S> entry = journal.entry(key).filter(e -> inDoubt.contains(key)).orElseThrow(() ->
                new IllegalArgumentException(name + ": no in-doubt transaction " + key + "; in doubt: " + inDoubt));
        for (DeviceJournal.Entry<S> other : journal.entries()) {
            if (!inDoubt.contains(other.key())) {
                throw new IllegalStateException(name + ": transaction " + other.key() + " is unfinished here;"
                        + " resolve " + key + " once it ends");
            }
        }
        if (commit) {
            journal.commit(key, adapter::trim, adapter::committedAfter);
            if (entry.record() != null) {
                committed(journal.committed());
            }
        } else {
            // Putting back this undo data would overwrite what a newer transaction on the same part
            // of the device may have committed; its outcome decides first.
            List<String> newer = newerOnTheSamePart(entry);
            if (!newer.isEmpty()) {
                throw new IllegalStateException(name + ": resolve " + newer + " first: newer, in doubt too, and"
                        + " on the same objects as " + key);
            }
            undo(entry, "in-doubt transaction " + key + " was backed out");
            journal.remove(key);
        }
        inDoubt.remove(key);
        LOG.info("{}: in-doubt transaction {} resolved as {}", name, key, commit ? "committed" : "backed out");
    }

    /**
     * Reads the device for a transaction that first touches a variable: refused while a transaction
     * left in doubt may hold what it reads, and while an undo is owed that cannot be paid (the
     * device may hold part of a change that did not commit, which no transaction may start from).
     */
    @Override
    public Object load(WaldoObject owner, String variable, Annotation annotation, String transaction)
            throws DeviceException {
        try (DeviceWorkLimit.Turn turn = DeviceWorkLimit.PROCESS.take()) {
            return loadNow(variable, annotation, transaction);
        }
    }

    /** Whether the adapter locks the map annotated {@code annotation} per key ({@link DeviceAdapter#keyed}). */
    @Override
    public boolean keyed(Annotation annotation) {
        return adapter.keyed(annotation);
    }

    private synchronized Object loadNow(String variable, Annotation annotation, String transaction)
            throws DeviceException {
        if (closed) {
            throw new DeviceException(stopped(), true);
        }
        for (DeviceJournal.Entry<S> entry : inDoubt()) {
            if (adapter.covers(entry.undo(), annotation)) {
                throw new DeviceException(name + ": the service restarted while transaction "
                        + transactionId(entry.key()) + " was being decided and is still asking its peers for the"
                        + " outcome, so '" + variable + "' cannot be read yet; try again in a few seconds", true);
            }
        }
        String owed = payOwedUndos();
        if (owed != null) {
            throw new DeviceException(owed, true);
        }
        return adapter.load(annotation, transaction);
    }

    @Override
    public Vote prepare(BoundTransaction transaction) {
        try (DeviceWorkLimit.Turn turn = DeviceWorkLimit.PROCESS.take()) {
            return prepareNow(transaction);
        }
    }

    private synchronized Vote prepareNow(BoundTransaction transaction) {
        if (closed) {
            return votingNo(stopped());
        }
        String owed = payOwedUndos();
        if (owed != null) {
            return votingNo(owed);
        }
        DeviceAdapter.Change<S> change;
        DeviceJournal.Entry<S> entry;
        try {
            change = adapter.plan(transaction, committed);
            if (!change.writes() && change.record() == null) {
                return Vote.yes();  // nothing to write, nothing to keep
            }
            S undo = change.writes() ? change.read() : null;
            entry = new DeviceJournal.Entry<>(key(transaction), change.writes() ? Stage.PREPARING : Stage.PREPARED,
                    undo, change.record());
            journal.put(entry);
        } catch (DeviceException e) {
            return votingNo(e.getMessage());
        } catch (IOException e) {
            return votingNo(journalProblem(e));
        }
        track(transaction.id(), change.record());
        return change.writes() ? push(change, entry) : Vote.yes();
    }

    /** Pushes a journaled change; the entry becomes prepared, or keeps what puts the device back. */
    private Vote push(DeviceAdapter.Change<S> change, DeviceJournal.Entry<S> entry) {
        try {
            S held = change.push(entry.undo());
            if (!held.equals(entry.undo())) {
                // Someone changed the device between this transaction's read and its push: what it
                // planned may no longer fit. Abort puts back what the device really held.
                journal.put(new DeviceJournal.Entry<>(entry.key(), Stage.PREPARING, held, entry.record()));
                return votingNo(name + ": the switch was changed by someone else while this change was being made"
                        + " (between its read and its push); nothing was changed. Run the command again.");
            }
            journal.put(entry.at(Stage.PREPARED));
            return Vote.yes();
        } catch (DeviceException e) {
            return votingNo(e.getMessage());
        } catch (IOException e) {
            return votingNo(journalProblem(e));
        }
    }

    /** Watches a prepared record: the timer may have to end it at its trial's deadline. */
    private void track(String transactionId, TrialRecord<S> record) {
        if (record == null) {
            return;
        }
        prepared.put(transactionId, record);
        if (record.hasTrial()) {
            onDeadline.accept(record);  // even if no decision ever arrives, the deadline is checked
        }
    }

    @Override
    public synchronized void commit(BoundTransaction transaction) throws IOException {
        if (closed) {
            return; // its entry stays prepared: the next start asks for the outcome and commits it
        }
        // One write: the entry goes, its record (if any) is folded into the committed one.
        journal.commit(key(transaction), adapter::trim, adapter::committedAfter);
        if (prepared.remove(transaction.id()) != null) {
            committed(journal.committed());
        }
    }

    private void committed(TrialRecord<S> record) {
        committed = record;
        if (record.hasTrial()) {
            onDeadline.accept(record);
        }
    }

    @Override
    public void abort(BoundTransaction transaction) throws IOException {
        try (DeviceWorkLimit.Turn turn = DeviceWorkLimit.PROCESS.take()) {
            abortNow(transaction);
        }
    }

    private synchronized void abortNow(BoundTransaction transaction) throws IOException {
        if (closed) {
            return; // its entry stays: the next start undoes it (or asks, if it voted yes)
        }
        prepared.remove(transaction.id());
        DeviceJournal.Entry<S> entry = journal.entry(key(transaction)).orElse(null);
        if (entry == null) {
            return;  // prepare journaled nothing, so it wrote nothing
        }
        try {
            undo(entry, "transaction " + entry.key() + " was backed out");
            journal.remove(entry.key());
        } catch (DeviceException e) {
            // The device keeps part of a change that did not commit; the journal keeps the debt, and
            // the next prepare, recheck or start pays it.
            journal.put(entry.at(Stage.BACKED_OUT));
            LOG.error("{}: could not undo a backed-out change; it is owed and tried again before the next change"
                    + " and at the next start: {}", name, e.getMessage());
        }
    }

    /**
     * Pays the undos still owed, unless a transaction of this run is between prepare and its
     * outcome here. The service's timer calls it at every recheck, so a device that answers again is
     * put right without waiting for the next change.
     *
     * @return null when nothing is owed any more, else what is still owed and why
     */
    public String reconcile() {
        try (DeviceWorkLimit.Turn turn = DeviceWorkLimit.PROCESS.take()) {
            return reconcileNow();
        }
    }

    private synchronized String reconcileNow() {
        if (closed) {
            return null;
        }
        for (DeviceJournal.Entry<S> entry : journal.entries()) {
            if (entry.stage() != Stage.BACKED_OUT && !inDoubt.contains(entry.key())) {
                return null;  // its change must not be undone; the prepare after it pays
            }
        }
        return payOwedUndos();
    }

    /**
     * Tries once more every undo a backed-out transaction still owes, newest first.
     *
     * @return null when nothing is owed any more, else why a new change must wait
     */
    private String payOwedUndos() {
        for (DeviceJournal.Entry<S> entry : journal.entries().reversed()) {
            if (entry.stage() != Stage.BACKED_OUT) {
                continue;
            }
            try {
                undo(entry, "transaction " + entry.key() + " was backed out");
                journal.remove(entry.key());
                LOG.info("{}: put the device back after a failed undo of {}", name, entry.key());
            } catch (DeviceException | IOException e) {
                return name + ": the undo of backed-out transaction " + entry.key() + " is still owed ("
                        + e.getMessage() + "); no new change until the device holds its old values again";
            }
        }
        return null;
    }

    /** Puts {@code entry}'s undo data back (none when it wrote nothing, or a commit overrode all of it). */
    private void undo(DeviceJournal.Entry<S> entry, String why) throws DeviceException {
        if (entry.undo() == null) {
            return;
        }
        try {
            adapter.undo(entry.undo());
        } catch (DeviceException e) {
            throw new DeviceException(name + ": " + why + ", and its old values could not all be put back ("
                    + e.getMessage() + "); they stay in " + journal.file(), false, e);
        }
    }

    /** The keys of the entries newer than {@code entry} whose undo data shares a part of the device with it. */
    private List<String> newerOnTheSamePart(DeviceJournal.Entry<S> entry) {
        List<String> newer = new ArrayList<>();
        if (entry.undo() == null) {
            return newer;
        }
        boolean after = false;
        for (DeviceJournal.Entry<S> other : journal.entries()) {
            if (after && other.undo() != null && adapter.overlaps(other.undo(), entry.undo())) {
                newer.add(other.key());
            }
            after = after || other.key().equals(entry.key());
        }
        return newer;
    }

    /**
     * Stops the binding with its service: waits for the device work in progress (a push, an undo)
     * to end, and turns every later call away untouched. The runtime's binding thread may still be
     * in a prepare when the service closes, and a new service on the same journal and device may
     * start right after (a site agent restarting a switch's service): the old binding must then
     * neither push nor write the journal. (It did: the new service's journal write found its temporary
     * file renamed away by the old one's.) What it left unfinished, the new one's recovery settles
     * from the journal, as after a crash.
     */
    public void close() {
        closed = true;
        synchronized (this) {
            // Entered once the call in progress returned: every later one sees closed.
        }
    }

    /** Why a call after {@link #close()} does nothing: the device belongs to the service's next run now. */
    private String stopped() {
        return name + ": the service is stopping; its next start settles what is unfinished";
    }

    private Vote votingNo(String reason) {
        LOG.warn("{}: voting no: {}", name, reason);
        return Vote.no(reason);
    }

    private String journalProblem(IOException e) {
        return name + ": cannot write the service's journal " + journal.file() + " (" + e.getMessage()
                + "); free space or fix its permissions, then try again";
    }

    private String key(BoundTransaction transaction) {
        return run + "/" + transaction.id();
    }
}
