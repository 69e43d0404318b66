package dev.waldoconf.snmp;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.BoundTransaction;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.service.DeviceAdapter;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.service.TrialRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.snmp4j.smi.OID;

/**
 * The {@link DeviceAdapter} of scalar SNMP objects: variables annotated
 * {@code @snmp(oid: '1.3.6.1.2.1.1.6.0')} (Text or Number), for an operator's own device service.
 * Its undo data is the list of {@link PreImage}s of the objects a transaction SETs, read from the
 * agent just before.
 *
 * <ul>
 *   <li><b>plan</b>: for each changed variable, in the order the transaction touched them, a SET of
 *       its new value; a value the object cannot hold is refused, naming the variable and OID.</li>
 *   <li><b>push</b>: SETs each and reads it back ({@link SnmpScalars#set}); a failure names the
 *       agent, the variable, the OID and the agent's error status.</li>
 *   <li><b>undo</b>: newest first, each object only if the agent no longer holds its old value.</li>
 * </ul>
 * <b>Trials</b> are kept by the shipped trial keeper ({@code WaldoConfTrial} in desk.wld), whose
 * variables carry {@code @snmp(trial: ...)} and change in the same transaction as the device
 * variables: a staging's record keeps the pre-image just read from the agent and the deadline; a
 * revert SETs that pre-image back like any change; a confirm forgets it. While a trial is pending,
 * any other change is refused.
 */
public final class ScalarOidAdapter implements DeviceAdapter<List<PreImage>> {
    /** The annotation argument that names a device object. */
    public static final String OID_KEY = "oid";
    /** The annotation argument that names a trial keeper's field. */
    public static final String TRIAL_KEY = "trial";
    /** The {@code trial} arguments of the trial keeper's variables in desk.wld. */
    private static final String TRIAL_CHANGE = "change";
    private static final String TRIAL_DEADLINE = "deadline";
    private static final String TRIAL_SWITCHES = "switches";
    private static final String TRIAL_OUTCOME = "outcome";
    /** How desk.wld's outcome starts for a revert, and for the trial a restarted server takes back. */
    private static final String REVERTED = "reverted ";
    private static final String RESTORED = "restored ";
    /** The committed record of a service that has no trial. */
    private static final TrialRecord<List<PreImage>> NO_TRIAL = TrialRecord.withoutTrial("none", List.of());

    private final String agentName;
    private final SnmpScalars agent;

    /** One SET a transaction makes, and where it comes from, for messages. */
    private record Planned(OID oid, ScalarValue value, String where) {
    }

    /**
     * An adapter onto {@code agent}.
     *
     * @param agentName the switch's inventory name, for messages (the agent's own messages carry it too)
     */
    public ScalarOidAdapter(String agentName, SnmpScalars agent) {
        this.agentName = agentName;
        this.agent = agent;
    }

    @Override
    public String deviceName() {
        return agentName;
    }

    @Override
    public DeviceJournal.StateFormat<List<PreImage>> format() {
        return PreImage.FORMAT;
    }

    /** A device variable starts from what the agent holds now; a trial field from its committed value. */
    @Override
    public Object load(Annotation annotation, String transaction) throws DeviceException {
        if (!annotation.arguments().containsKey(OID_KEY)) {
            return null;
        }
        return switch (agent.get(new OID(annotation.text(OID_KEY)))) {
            case ScalarValue.Text text -> text.value();
            case ScalarValue.Number number -> (double) number.value();
        };
    }

    /** A change in doubt holds only the objects it SET. */
    @Override
    public boolean covers(List<PreImage> undo, Annotation annotation) {
        return undo != null && annotation.arguments().containsKey(OID_KEY)
                && undo.stream().anyMatch(p -> p.oid().equals(new OID(annotation.text(OID_KEY))));
    }

    @Override
    public DeviceAdapter.Change<List<PreImage>> plan(BoundTransaction transaction,
            TrialRecord<List<PreImage>> committed) throws DeviceException {
        TrialRecord<List<PreImage>> pending = committed == null ? NO_TRIAL : committed;
        Map<String, Object> trialChanges = trialChanges(transaction);
        String outcome = (String) trialChanges.get(TRIAL_OUTCOME);
        List<Planned> plan = new ArrayList<>();
        if (outcome != null && outcome.startsWith(RESTORED)) {
            // The server takes its journaled trial back: the agent is as the journal says.
            return new ScalarChange(agent, plan, null);
        }
        Optional<TrialRecord.Trial<List<PreImage>>> trial = pending.onlyTrial();
        if (outcome != null && outcome.startsWith(REVERTED) && trial.isPresent()) {
            for (PreImage preImage : trial.get().before()) {
                plan.add(new Planned(preImage.oid(), preImage.old(), "the value before trial " + trial.get().change()
                        + " at " + preImage.oid()));
            }
        }
        for (BoundTransaction.Change change : transaction.changes()) {
            if (!isTrialVariable(change)) {
                plan.add(planned(change, outcome == null ? pending : NO_TRIAL));
            }
        }
        return new ScalarChange(agent, plan,
                outcome == null ? null : trialRecord(transaction.id(), plan, trialChanges));
    }

    /** The SET of one changed device variable, refused while a trial is pending. */
    private Planned planned(BoundTransaction.Change change, TrialRecord<List<PreImage>> pending)
            throws DeviceException {
        Optional<TrialRecord.Trial<List<PreImage>>> trial = pending.onlyTrial();
        if (trial.isPresent()) {
            throw new DeviceException(agentName + ": trial " + trial.get().change() + " is pending here (it reverts at "
                    + Instant.ofEpochSecond(trial.get().deadlineEpochSeconds()) + "); confirm or roll it back first",
                    true);
        }
        String oid = change.annotation().text(OID_KEY);  // the checker made sure it is there
        String where = "variable '" + change.variable() + "' @snmp(oid: '" + oid + "')";
        try {
            return new Planned(new OID(oid), toScalar(change.after()), where);
        } catch (IllegalArgumentException e) {
            throw new DeviceException(agentName + ": " + where + ": " + e.getMessage(), true);
        }
    }

    /** The SETs of one transaction, and the trial record it leaves (a staging's gets the pre-image read). */
    private static final class ScalarChange implements DeviceAdapter.Change<List<PreImage>> {
        private final SnmpScalars agent;
        private final List<Planned> plan;
        private TrialRecord<List<PreImage>> record;

        ScalarChange(SnmpScalars agent, List<Planned> plan, TrialRecord<List<PreImage>> record) {
            this.agent = agent;
            this.plan = plan;
            this.record = record;
        }

        @Override
        public boolean writes() {
            return !plan.isEmpty();
        }

        @Override
        public TrialRecord<List<PreImage>> record() {
            return record;
        }

        /** Reads what every planned object holds; a staged trial keeps it as what its revert puts back. */
        @Override
        public List<PreImage> read() throws DeviceException {
            List<PreImage> read = new ArrayList<>();
            for (Planned set : plan) {
                read.add(new PreImage(set.oid(), agent.get(set.oid())));
            }
            if (record != null && record.hasTrial()) {
                TrialRecord.Trial<List<PreImage>> staged = record.onlyTrial().orElseThrow();
                record = new TrialRecord<>(record.transaction(), record.intended(), List.of(new TrialRecord.Trial<>(
                        staged.change(), staged.deadlineEpochSeconds(), staged.switches(), List.copyOf(read))));
            }
            return List.copyOf(read);
        }

        @Override
        public List<PreImage> push(List<PreImage> undo) throws DeviceException {
            for (Planned set : plan) {
                try {
                    agent.set(set.oid(), set.value());
                } catch (DeviceException e) {
                    throw new DeviceException(set.where() + ": " + e.getMessage(), false, e);
                }
            }
            return undo;  // the agent has no whole state to compare: each SET reads its object back
        }
    }

    /** The trial keeper's variables this transaction changes, by their {@code trial} argument: their new values. */
    private static Map<String, Object> trialChanges(BoundTransaction transaction) {
        Map<String, Object> found = new HashMap<>();
        for (BoundTransaction.Change change : transaction.changes()) {
            if (isTrialVariable(change)) {
                found.put(change.annotation().text(TRIAL_KEY), change.after());
            }
        }
        return found;
    }

    private static boolean isTrialVariable(BoundTransaction.Change change) {
        return change.annotation().arguments().containsKey(TRIAL_KEY);
    }

    /**
     * The trial record this transaction leaves: a staged trial keeps the values it SETs and (once
     * read) the pre-image, with its deadline and switches; a confirm or revert leaves none.
     */
    private static TrialRecord<List<PreImage>> trialRecord(String transaction, List<Planned> plan,
            Map<String, Object> changes) {
        String change = (String) changes.getOrDefault(TRIAL_CHANGE, "");
        return change.isEmpty() ? TrialRecord.withoutTrial(transaction, List.of())
                : new TrialRecord<>(transaction, plan.stream().map(p -> new PreImage(p.oid(), p.value())).toList(),
                        List.of(new TrialRecord.Trial<>(change,
                                Math.round((Double) changes.getOrDefault(TRIAL_DEADLINE, 0.0)),
                                switches((String) changes.getOrDefault(TRIAL_SWITCHES, "")), List.of())));
    }

    private static List<String> switches(String commaSeparated) {
        return commaSeparated.isEmpty() ? List.of() : List.of(commaSeparated.split(","));
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

    /** Puts each old value back, newest first, only where the agent no longer holds it; goes on past a failure. */
    @Override
    public void undo(List<PreImage> undo) throws DeviceException {
        DeviceException first = null;
        for (PreImage preImage : undo.reversed()) {
            try {
                if (!agent.get(preImage.oid()).equals(preImage.old())) {
                    agent.restore(preImage.oid(), preImage.old());
                }
            } catch (DeviceException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** A committed value overrides whatever the older entry would put back on the same object. */
    /** A custom service keeps one record: the committing transaction's replaces the one before. */
    @Override
    public TrialRecord<List<PreImage>> committedAfter(TrialRecord<List<PreImage>> committed,
            TrialRecord<List<PreImage>> change) {
        return change;
    }

    @Override
    public List<PreImage> trim(List<PreImage> older, List<PreImage> committed) {
        Set<OID> set = committed.stream().map(PreImage::oid).collect(Collectors.toSet());
        List<PreImage> left = older.stream().filter(p -> !set.contains(p.oid())).toList();
        return left.isEmpty() ? null : left;
    }

    @Override
    public boolean overlaps(List<PreImage> newer, List<PreImage> older) {
        Set<OID> objects = older.stream().map(PreImage::oid).collect(Collectors.toSet());
        return newer.stream().anyMatch(p -> objects.contains(p.oid()));
    }
}
