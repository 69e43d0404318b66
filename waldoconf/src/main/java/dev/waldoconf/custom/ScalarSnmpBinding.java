package dev.waldoconf.custom;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.WaldoObject;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.service.DeviceJournal.Stage;
import dev.waldoconf.service.TrialRecord;
import dev.waldoconf.snmp.ScalarValue;
import dev.waldoconf.snmp.SnmpScalars;
import java.io.IOException;
import java.time.Instant;
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
import org.snmp4j.smi.OID;

/**
 * Mirrors variables annotated {@code @snmp(oid: '1.3.6.1.2.1.1.6.0')} (Text or Number) onto
 * scalar objects of one SNMP agent inside two-phase commit (DESIGN.md "Bound state"), with a
 * durable {@link DeviceJournal} (the one every device service keeps) so that a service killed at any point leaves nothing half done
 * once it is back.
 *
 * <ul>
 *   <li><b>prepare</b>: read every changed object's old value, journal them (stage
 *       {@code preparing}), then for each changed variable, in the order the transaction touched
 *       them, SET the new value and read it back ({@link SnmpScalars#set}); then journal the stage
 *       {@code prepared} and vote yes. A refusal, a timeout, a wrong read-back, a value the object
 *       cannot hold, or a journal that cannot be written votes no; the reason names the agent, the
 *       variable, the OID and the agent's error status.</li>
 *   <li><b>abort</b>: put the journaled old values back, newest first, each only if the agent no
 *       longer holds it, and forget the entry. If the agent does not answer, the entry stays as
 *       {@code backed-out} and the undo is owed: the next prepare (or the next start) pays it first,
 *       and votes no while it cannot.</li>
 *   <li><b>commit</b>: forget the entry; the values are already on the agent.</li>
 *   <li><b>{@link #recover()}</b>, at start: an entry left {@code preparing} never voted yes, so its
 *       coordinator cannot have committed it: it is undone. A {@code backed-out} entry is undone. A
 *       {@code prepared} entry voted yes and its outcome never arrived: it is in doubt, and is kept,
 *       values and pre-image alike, until {@link #resolve} is told the outcome ({@link CustomService}
 *       asks the runtime, which asks the peers it logged with the vote, see {@link dev.waldoconf.service.InDoubtRecovery}).</li>
 * </ul>
 * <b>Trials</b>: the shipped trial keeper's variables ({@code @snmp(trial: ...)} in desk.wld) change in
 * the same transaction as the device variables. A staging journals, in prepare and before the vote,
 * a {@link TrialRecord} with the pre-image just read from the agent and the deadline, in the
 * transaction's journal entry (so one write commits the entry and keeps its trial), and hands it to the {@link dev.waldoconf.service.TrialTimer};
 * a revert SETs that pre-image back like any change (undone on abort); a confirm forgets it. While a
 * trial is pending, any other change votes no. {@link #load} starts every device variable from the
 * agent's value, so a revert is what the next transaction sees.
 *
 * <p>The old value put back is what the agent held, not what the Waldo variable held: a change made
 * behind the service's back is put back as it was. The runtime calls a binding on one thread per
 * host; the methods are synchronized anyway, because {@link #resolve} comes from elsewhere.
 */
public final class ScalarSnmpBinding implements Binding {
    private static final Logger LOG = LoggerFactory.getLogger(ScalarSnmpBinding.class);
    /** The {@code trial} arguments of the trial keeper's variables in desk.wld. */
    private static final String TRIAL_CHANGE = "change";
    private static final String TRIAL_DEADLINE = "deadline";
    private static final String TRIAL_SWITCHES = "switches";
    private static final String TRIAL_OUTCOME = "outcome";
    /** How desk.wld's outcome starts for a revert, and for the trial a restarted server takes back. */
    private static final String REVERTED = "reverted ";
    private static final String RESTORED = "restored ";

    private final String agentName;
    private final SnmpScalars agent;
    private final DeviceJournal<List<PreImage>> journal;
    /** The committed trial record: the pending trial and its pre-image, or one with no trial. */
    private volatile TrialRecord<List<PreImage>> trial = NO_TRIAL;
    /** Trial records prepared here and not yet ended, by the runtime's transaction id. */
    private final Map<String, TrialRecord<List<PreImage>>> preparedTrials = new ConcurrentHashMap<>();
    /** Told of every prepared and committed record with a trial, so it is checked at its deadline. */
    private volatile Consumer<TrialRecord<?>> onDeadline = record -> { };
    /** Tells this run's journal entries from a previous run's: transaction ids restart with the process. */
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    /** Journal keys of the entries {@link #recover()} found in doubt and nobody has resolved yet. */
    private final Set<String> inDoubt = new LinkedHashSet<>();

    private static final TrialRecord<List<PreImage>> NO_TRIAL =
            new TrialRecord<>("none", List.of(), "", 0, List.of(), List.of());

    /** One object a transaction changes. */
    private record Planned(OID oid, ScalarValue value, String where) {
    }

    /**
     * A binding onto {@code agent}, journaling undo data and trials into {@code journal} (opened with
     * {@link PreImage#FORMAT}). Call {@link #recover()} before the first transaction.
     *
     * @param agentName the switch's inventory name, for messages (the agent's own messages carry it too)
     */
    public ScalarSnmpBinding(String agentName, SnmpScalars agent, DeviceJournal<List<PreImage>> journal) {
        this.agentName = agentName;
        this.agent = agent;
        this.journal = journal;
    }

    /** The runtime's id of the transaction journaled as {@code key}: the key without the service run's tag. */
    public static String transactionId(String key) {
        return key.substring(key.indexOf('/') + 1);
    }

    /**
     * From now on, hands every prepared or committed record with a trial to {@code timer}, starting
     * with the pending trial {@link #recover()} found.
     */
    public void watchDeadlines(Consumer<TrialRecord<?>> timer) {
        onDeadline = timer;
        TrialRecord<List<PreImage>> pending = trial;
        if (pending.hasTrial()) {
            timer.accept(pending);
        }
    }

    /** The committed trial record: {@link TrialRecord#hasTrial()} while a trial is pending here. */
    public TrialRecord<List<PreImage>> trial() {
        return trial;
    }

    /**
     * Transactions that prepared a trial record here and have not ended, by the runtime's id, each
     * with whether it ends the trial (true) or stages one (false).
     */
    public Map<String, Boolean> undecidedTrials() {
        Map<String, Boolean> undecided = new HashMap<>();
        preparedTrials.forEach((id, record) -> undecided.put(id, !record.hasTrial()));
        return undecided;
    }

    /**
     * Settles what a previous run of the service left in the journal: undoes every entry that never
     * voted yes or was backed out, newest first, and keeps every entry that voted yes (in doubt).
     *
     * @return the in-doubt entries, which keep their pre-images until {@link #resolve}
     * @throws DeviceException if an undo fails (the entry stays; start again once the agent answers)
     * @throws IOException if the journal cannot be written
     */
    public synchronized List<DeviceJournal.Entry<List<PreImage>>> recover() throws DeviceException, IOException {
        List<DeviceJournal.Entry<List<PreImage>>> entries = new ArrayList<>(journal.entries());
        TrialRecord<List<PreImage>> committedTrial = journal.committed();
        trial = committedTrial == null ? NO_TRIAL : committedTrial;
        for (DeviceJournal.Entry<List<PreImage>> entry : entries.reversed()) {
            if (entry.stage() == Stage.PREPARED) {
                inDoubt.add(entry.key());
                LOG.warn("{}: transaction {} voted yes here before the service stopped, and its outcome never"
                        + " arrived: it is in doubt. The agent keeps what it holds; the pre-image stays in {} until"
                        + " the outcome is known.", agentName, entry.key(), journal.file());
                continue;
            }
            undo(entry, "the service stopped while transaction " + entry.key() + " was "
                    + (entry.stage() == Stage.PREPARING ? "preparing" : "being backed out"));
            journal.remove(entry.key());
            LOG.info("{}: put back the pre-image of unfinished transaction {} ({})", agentName, entry.key(),
                    entry.stage().word());
        }
        return inDoubt();
    }

    /** The entries found in doubt at start that are not resolved yet. */
    public synchronized List<DeviceJournal.Entry<List<PreImage>>> inDoubt() {
        return journal.entries().stream().filter(e -> inDoubt.contains(e.key())).toList();
    }

    /**
     * Ends an in-doubt entry found at start, once its outcome is known: committed keeps the agent as
     * it is, backed out puts the pre-image back (except objects a later committed transaction set).
     *
     * @param key the entry's key, as {@link #inDoubt()} lists it
     * @throws IllegalArgumentException if no such entry is in doubt
     * @throws IllegalStateException while a transaction of this run is unfinished here (try again
     *     later), or, to back it out, while a newer in-doubt entry holds the same objects (resolve
     *     that one first)
     * @throws DeviceException if the pre-image cannot be put back (the entry stays in doubt)
     * @throws IOException if the journal cannot be written
     */
    public synchronized void resolve(String key, boolean commit) throws DeviceException, IOException {
        DeviceJournal.Entry<List<PreImage>> entry = journal.entry(key).filter(e -> inDoubt.contains(key))
                .orElseThrow(() ->
                new IllegalArgumentException(agentName + ": no in-doubt transaction " + key + "; in doubt: "
                        + inDoubt));
        for (DeviceJournal.Entry<List<PreImage>> other : journal.entries()) {
            if (!inDoubt.contains(other.key())) {
                throw new IllegalStateException(agentName + ": transaction " + other.key() + " is unfinished here;"
                        + " resolve " + key + " once it ends");
            }
        }
        if (commit) {
            journal.commit(key, ScalarSnmpBinding::overridden);
            if (entry.record() != null) {
                trial = entry.record();
                if (trial.hasTrial()) {
                    onDeadline.accept(trial);
                }
            }
        } else {
            // Putting back this pre-image would overwrite what a newer transaction on the same objects
            // may have committed; its outcome decides first.
            List<String> newer = newerOnTheSameObjects(key);
            if (!newer.isEmpty()) {
                throw new IllegalStateException(agentName + ": resolve " + newer + " first: newer, in doubt too, and"
                        + " on the same objects as " + key);
            }
            undo(entry, "in-doubt transaction " + key + " was backed out");
            journal.remove(key);
        }
        inDoubt.remove(key);
        LOG.info("{}: in-doubt transaction {} resolved as {}", agentName, key, commit ? "committed" : "backed out");
    }

    /**
     * A transaction starts a device variable from what the agent holds now (read under the
     * variable's lock), not from what the service last committed: so a trial's revert, which puts
     * the agent back through this binding, or a change made behind the service's back, never leaves
     * a variable that claims another value, and setting a value the agent does not hold always
     * SETs it. The trial keeper's variables start from their committed values.
     *
     * @throws DeviceException if the agent does not answer (the transaction fails, naming the agent)
     */
    @Override
    public Object load(WaldoObject owner, String variable, Annotation annotation) throws DeviceException {
        if (!annotation.arguments().containsKey(CustomProgram.OID_KEY)) {
            return null;
        }
        return switch (agent.get(new OID(annotation.text(CustomProgram.OID_KEY)))) {
            case ScalarValue.Text text -> text.value();
            case ScalarValue.Number number -> (double) number.value();
        };
    }

    @Override
    public synchronized Vote prepare(BoundTransaction transaction) {
        String owed = payOwedUndos();
        if (owed != null) {
            return Vote.no(owed);
        }
        Map<String, Object> trialChanges = trialChanges(transaction);
        String outcome = (String) trialChanges.get(TRIAL_OUTCOME);
        if (outcome != null && outcome.startsWith(RESTORED)) {
            return Vote.yes();  // the server takes its journaled trial back; the agent is as the journal says
        }
        TrialRecord<List<PreImage>> pending = trial;
        List<Planned> plan = new ArrayList<>();
        if (outcome != null && outcome.startsWith(REVERTED)) {
            for (PreImage preImage : pending.before()) {
                plan.add(new Planned(preImage.oid(), preImage.old(), "the value before trial " + pending.trial()
                        + " at " + preImage.oid()));
            }
        }
        for (BoundTransaction.Change change : transaction.changes()) {
            if (isTrialVariable(change)) {
                continue;
            }
            if (outcome == null && pending.hasTrial()) {
                return votingNo(agentName + ": trial " + pending.trial() + " is pending here (it reverts at "
                        + Instant.ofEpochSecond(pending.deadlineEpochSeconds()) + "); confirm or roll it back first");
            }
            String oid = change.annotation().text(CustomProgram.OID_KEY);  // the checker made sure it is there
            String where = "variable '" + change.variable() + "' @snmp(oid: '" + oid + "')";
            try {
                plan.add(new Planned(new OID(oid), toScalar(change.after()), where));
            } catch (IllegalArgumentException e) {
                return Vote.no(agentName + ": " + where + ": " + e.getMessage());
            }
        }
        DeviceJournal.Entry<List<PreImage>> entry;
        try {
            List<PreImage> preImages = readPreImages(plan);
            TrialRecord<List<PreImage>> record = outcome == null ? null
                    : trialRecord(key(transaction), preImages, plan, trialChanges);
            entry = new DeviceJournal.Entry<>(key(transaction), Stage.PREPARING, preImages, record);
            journal.put(entry);
            if (record != null) {
                preparedTrials.put(transaction.id(), record);
                if (record.hasTrial()) {
                    onDeadline.accept(record);  // even if no decision ever arrives, the deadline is checked
                }
            }
        } catch (DeviceException e) {
            return votingNo(e.getMessage());
        } catch (IOException e) {
            return votingNo(journalProblem(e));
        }
        for (Planned set : plan) {
            try {
                agent.set(set.oid(), set.value());
            } catch (DeviceException e) {
                return votingNo(set.where() + ": " + e.getMessage());
            }
        }
        try {
            journal.put(entry.at(Stage.PREPARED));
        } catch (IOException e) {
            return votingNo(journalProblem(e));
        }
        return Vote.yes();
    }

    /** The trial keeper's variables this transaction changes, by their {@code trial} argument: their new values. */
    private static Map<String, Object> trialChanges(BoundTransaction transaction) {
        Map<String, Object> found = new HashMap<>();
        for (BoundTransaction.Change change : transaction.changes()) {
            if (isTrialVariable(change)) {
                found.put(change.annotation().text(CustomProgram.TRIAL_KEY), change.after());
            }
        }
        return found;
    }

    private static boolean isTrialVariable(BoundTransaction.Change change) {
        return change.annotation().arguments().containsKey(CustomProgram.TRIAL_KEY);
    }

    /**
     * The trial record this transaction leaves, journaled with its entry before the vote: a staged
     * trial keeps the pre-image just read (what the agent held, not what Waldo held) with its
     * deadline and switches; a confirm or revert leaves none.
     */
    private static TrialRecord<List<PreImage>> trialRecord(String key, List<PreImage> preImages, List<Planned> plan,
            Map<String, Object> changes) {
        String change = (String) changes.getOrDefault(TRIAL_CHANGE, "");
        return change.isEmpty() ? new TrialRecord<>(key, List.of(), "", 0, List.of(), List.of())
                : new TrialRecord<>(key, plan.stream().map(p -> new PreImage(p.oid(), p.value())).toList(),
                        change, Math.round((Double) changes.getOrDefault(TRIAL_DEADLINE, 0.0)),
                        switches((String) changes.getOrDefault(TRIAL_SWITCHES, "")), preImages);
    }

    private static List<String> switches(String commaSeparated) {
        return commaSeparated.isEmpty() ? List.of() : List.of(commaSeparated.split(","));
    }

    /** Reads what every planned object holds, to journal it before anything is SET. */
    private List<PreImage> readPreImages(List<Planned> plan) throws DeviceException {
        List<PreImage> preImages = new ArrayList<>();
        for (Planned set : plan) {
            preImages.add(new PreImage(set.oid(), agent.get(set.oid())));
        }
        return preImages;
    }

    private Vote votingNo(String reason) {
        LOG.warn("{}: voting no: {}", agentName, reason);
        return Vote.no(reason);
    }

    private String journalProblem(IOException e) {
        return agentName + ": cannot write the service's journal " + journal.file() + " (" + e.getMessage()
                + "); free space or fix its permissions, then try again";
    }

    /**
     * Tries once more every undo a backed-out transaction still owes.
     *
     * @return null when nothing is owed any more, else why a new change must wait
     */
    private String payOwedUndos() {
        for (DeviceJournal.Entry<List<PreImage>> entry : journal.entries().reversed()) {
            if (entry.stage() != Stage.BACKED_OUT) {
                continue;
            }
            try {
                undo(entry, "transaction " + entry.key() + " was backed out");
                journal.remove(entry.key());
            } catch (DeviceException | IOException e) {
                return agentName + ": the undo of backed-out transaction " + entry.key() + " is still owed ("
                        + e.getMessage() + "); no new change until the agent holds its old values again";
            }
        }
        return null;
    }

    /**
     * The SNMP value of a Waldo Text or Number.
     *
     * @throws IllegalArgumentException for a number that is not a whole Integer32, or another type
     */
    static ScalarValue toScalar(Object value) {
        if (value instanceof String text) {
            return new ScalarValue.Text(text);
        }
        if (value instanceof Double number) {
            if (number != Math.rint(number) || number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(number + " is not a whole number in Integer32's range"
                        + " (-2147483648 to 2147483647)");
            }
            return new ScalarValue.Number(number.intValue());
        }
        throw new IllegalArgumentException("a " + (value == null ? "missing value" : value.getClass().getSimpleName())
                + " cannot be an SNMP scalar; use Text or Number");
    }

    @Override
    public synchronized void commit(BoundTransaction transaction) throws IOException {
        // One write: the entry goes, its trial record (if any) becomes the committed one.
        journal.commit(key(transaction), ScalarSnmpBinding::overridden);
        TrialRecord<List<PreImage>> record = preparedTrials.remove(transaction.id());
        if (record != null) {
            trial = record;
            if (record.hasTrial()) {
                onDeadline.accept(record);
            }
        }
    }

    @Override
    public synchronized void abort(BoundTransaction transaction) throws IOException {
        preparedTrials.remove(transaction.id());
        DeviceJournal.Entry<List<PreImage>> entry = journal.entry(key(transaction)).orElse(null);
        if (entry == null) {
            return;  // prepare failed before it journaled anything, so it SET nothing
        }
        try {
            undo(entry, "transaction " + entry.key() + " was backed out");
            journal.remove(entry.key());
        } catch (DeviceException e) {
            // The agent keeps part of a change that did not commit; the journal keeps the debt, and
            // the next prepare or start pays it.
            journal.put(entry.at(Stage.BACKED_OUT));
            LOG.error("{}: could not undo a backed-out change; it is owed and tried again before the next change"
                    + " and at the next start: {}", agentName, e.getMessage());
        }
    }

    /**
     * Puts {@code entry}'s pre-image back, newest first, each object only if it no longer holds its
     * old value (so an object whose SET never happened, or was refused, is not written). Goes on past
     * a failure, so as much as possible is put back.
     *
     * @throws DeviceException naming {@code why} and the first object that could not be put back
     */
    private void undo(DeviceJournal.Entry<List<PreImage>> entry, String why) throws DeviceException {
        DeviceException first = null;
        List<PreImage> preImages = entry.undo() == null ? List.of() : entry.undo();  // null: all overridden
        for (PreImage preImage : preImages.reversed()) {
            try {
                if (!agent.get(preImage.oid()).equals(preImage.old())) {
                    agent.restore(preImage.oid(), preImage.old());
                }
            } catch (DeviceException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw new DeviceException(agentName + ": " + why + ", and its old values could not all be put back ("
                    + first.getMessage() + "); they stay in " + journal.file(), false, first);
        }
    }

    /**
     * What is left of an older unfinished entry's pre-images once a newer transaction committed
     * {@code committed}: a committed value overrides whatever the older one would have put back on
     * the same object. Null when nothing is left.
     */
    private static List<PreImage> overridden(List<PreImage> older, List<PreImage> committed) {
        Set<OID> set = committed.stream().map(PreImage::oid).collect(java.util.stream.Collectors.toSet());
        List<PreImage> left = older.stream().filter(p -> !set.contains(p.oid())).toList();
        return left.isEmpty() ? null : left;
    }

    /** The keys of the entries newer than {@code key}'s that hold a pre-image of one of its objects. */
    private List<String> newerOnTheSameObjects(String key) {
        DeviceJournal.Entry<List<PreImage>> entry = journal.entry(key).orElse(null);
        if (entry == null || entry.undo() == null) {
            return List.of();
        }
        Set<OID> objects = entry.undo().stream().map(PreImage::oid).collect(java.util.stream.Collectors.toSet());
        List<String> newer = new ArrayList<>();
        boolean after = false;
        for (DeviceJournal.Entry<List<PreImage>> other : journal.entries()) {
            if (after && other.undo() != null && other.undo().stream().anyMatch(p -> objects.contains(p.oid()))) {
                newer.add(other.key());
            }
            after = after || other.key().equals(key);
        }
        return newer;
    }

    private String key(BoundTransaction transaction) {
        return run + "/" + transaction.id();
    }
}
