package dev.waldoconf.snmp;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.device.VlanStateRules;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.VlanChange;
import dev.waldoconf.model.VlanChange.Phase;
import dev.waldoconf.model.VlanDiff;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.MessageException;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

/**
 * A Q-BRIDGE-MIB switch (RFC 4363) driven over SNMP: the VLAN driver WaldoConf uses for real
 * switches and the lab's simulated ones.
 *
 * <pre>
 * SnmpTarget target = SnmpTarget.of(new InetSocketAddress("10.0.0.5", 161),
 *         new SnmpCredentials.Usm("ops", Auth.SHA256, authKey, Priv.AES128, privKey));
 * try (SnmpVlanDevice sw = SnmpVlanDevice.open("core-1", target)) {
 *     SwitchState before = sw.push(desired);   // throws DeviceException, undone or not
 * }
 * </pre>
 *
 * <p>A push reads the switch, computes {@link VlanDiff#between} and sends it phase by phase,
 * each phase as its own SET PDUs (split to at most {@link Options#maxVarbindsPerPdu} bindings,
 * and split further when the agent answers tooBig). Before the next phase starts, the objects the
 * phase set are read back (a GET of those objects: a port is only pruned from its old VLAN once
 * the switch holds it in its new one); after the last phase the whole switch is read back and
 * compared with the intended state.
 * Because phases are separate PDUs, agents that only accept a VLAN in untagged lists and PVIDs
 * once it was created by an earlier PDU work too. On a refusal, timeout or read-back mismatch
 * it undoes what was applied by pushing the difference back to the previous state, verifies
 * that by reading back, and throws. A SET whose first try got no answer is sent again; if the
 * resend is answered with an error (the first try may have landed: a second createAndGo of the
 * same row is inconsistentValue), the SET's objects are read back and the step counts as done
 * when the switch holds exactly what it asked for. Thread-safe: operations on one device run one
 * at a time (a service's binding and its trial timer may share it).
 */
public final class SnmpVlanDevice implements VlanDevice {
    private static final Logger LOG = LoggerFactory.getLogger(SnmpVlanDevice.class);
    /** How many missing steps a read-back mismatch lists; the rest are counted, to keep messages readable. */
    private static final int MAX_LISTED_STEPS = 5;

    /**
     * How the driver shapes its requests.
     *
     * @param maxVarbindsPerPdu the most variable bindings in one SET PDU; at least 2, because a
     *     VLAN's egress and untagged lists always travel together
     * @param rowCreation how to create VLAN rows first; the driver switches to the other way
     *     if the agent answers wrongValue
     */
    public record Options(int maxVarbindsPerPdu, RowCreation rowCreation) {
        /** Bindings per PDU when none is configured; keeps a 52-port switch's PDUs near 1 KB. */
        public static final int DEFAULT_MAX_VARBINDS = 20;

        /** Checks the values. */
        public Options {
            Objects.requireNonNull(rowCreation, "rowCreation");
            if (maxVarbindsPerPdu < 2) {
                throw new IllegalArgumentException("max varbinds per PDU must be at least 2 (a VLAN's egress and "
                        + "untagged lists go in one PDU), got " + maxVarbindsPerPdu);
            }
        }

        /** 20 bindings per PDU, createAndGo first. */
        public static Options defaults() {
            return new Options(DEFAULT_MAX_VARBINDS, RowCreation.CREATE_AND_GO);
        }

        /** These options with another PDU size limit. */
        public Options withMaxVarbindsPerPdu(int max) {
            return new Options(max, rowCreation);
        }

        /** These options with another first way to create rows. */
        public Options withRowCreation(RowCreation creation) {
            return new Options(maxVarbindsPerPdu, creation);
        }
    }

    private final String name;
    private final SnmpSession session;
    private final Options options;
    private RowCreation rowCreation;
    private boolean rowCreationLearned;
    /** VLAN rows the last read found (0 before the first), to size the next read's requests. */
    private int knownRows;

    /**
     * A driver on an open session (tests pass one that watches or disturbs requests).
     *
     * @param name the switch's inventory name, used in every message
     */
    public SnmpVlanDevice(String name, SnmpSession session, Options options) {
        this.name = Objects.requireNonNull(name, "name");
        this.session = Objects.requireNonNull(session, "session");
        this.options = Objects.requireNonNull(options, "options");
        this.rowCreation = options.rowCreation();
    }

    /** Opens a UDP session to {@code target} with default options. */
    public static SnmpVlanDevice open(String name, SnmpTarget target) throws DeviceException {
        return open(name, target, Options.defaults());
    }

    /**
     * Opens a UDP session to {@code target}. Nothing is sent until the first read or push.
     *
     * @throws DeviceException if no local socket can be opened
     */
    public static SnmpVlanDevice open(String name, SnmpTarget target, Options options) throws DeviceException {
        try {
            return new SnmpVlanDevice(name, Snmp4jSession.open(target), options);
        } catch (IOException e) {
            throw new DeviceException(name + ": " + e.getMessage(), true, e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** How the driver creates rows now: the configured way, or the other once the agent refused it. */
    public synchronized RowCreation rowCreation() {
        return rowCreation;
    }

    /**
     * Reads dot1qVlanStaticTable (every row, active or not) and dot1qPvid.
     *
     * @throws DeviceException if the switch does not answer or answers something that is not
     *     Q-BRIDGE-MIB; {@code undone} is true, as reading changes nothing
     */
    @Override
    public synchronized SwitchState read() throws DeviceException {
        return snapshot().state();
    }

    /**
     * Moves the switch to what {@code target} makes of it, as {@link VlanDevice#push(UnaryOperator)}
     * says. The result is checked against the switch's port count before anything is sent.
     */
    @Override
    public synchronized SwitchState push(UnaryOperator<SwitchState> target) throws DeviceException {
        QBridgeReader.Snapshot before = snapshot();
        SwitchState desired = target.apply(before.state());
        List<VlanChange> steps = VlanDiff.between(before.state(), desired);
        VlanStateRules.check(name, VlanDiff.apply(before.state(), steps), before.portCount());
        if (steps.isEmpty()) {
            return before.state();
        }
        LOG.info("{}: pushing {} step(s) to {}", name, steps.size(), session.agent());
        try {
            applyVerified(before, steps);
        } catch (StepFailure failure) {
            LOG.warn("{}: '{}' failed: {}; undoing", name, failure.step(), failure.status());
            String undoProblem = undo(before);
            throw DeviceException.pushFailed(name, failure.step(), failure.status(), undoProblem == null,
                    undoProblem, failure.getCause());
        }
        LOG.info("{}: push verified", name);
        return before.state();
    }

    private QBridgeReader.Snapshot snapshot() throws DeviceException {
        try {
            return readSwitch(knownRows);
        } catch (IOException e) {
            throw new DeviceException(name + ": cannot read the VLAN configuration (nothing was changed): "
                    + e.getMessage(), true, e);
        }
    }

    /** Reads the switch, its static table with one GETBULK sized for about {@code expectedRows} rows. */
    private QBridgeReader.Snapshot readSwitch(int expectedRows) throws IOException {
        QBridgeReader.Snapshot read = QBridgeReader.read(session, expectedRows);
        knownRows = read.state().vlans().size();
        return read;
    }

    /**
     * Sends the steps phase by phase. A phase's own objects are read back before the next phase
     * (one GET of each object it set, at the value last set), and the whole switch after the last:
     * reading every table back after every phase cost two walks of the switch per phase, most of
     * a push's SNMP work, for what the last read-back checks anyway.
     */
    private void applyVerified(QBridgeReader.Snapshot before, List<VlanChange> steps) throws StepFailure {
        SwitchState expected = before.state();
        List<Phase> phases = Arrays.stream(Phase.values()).filter(phase -> !stepsIn(phase, steps).isEmpty()).toList();
        for (Phase phase : phases) {
            List<VlanChange> inPhase = stepsIn(phase, steps);
            Map<OID, VariableBinding> set = new LinkedHashMap<>();
            sendPhase(expected, inPhase, before.portCount(), null, set);
            expected = VlanDiff.apply(expected, inPhase);
            String difference = phase == phases.getLast()
                    ? difference(readBack(phase, expected.vlans().size()), expected,
                            before.inactiveVlans())
                    : objectsDiffer(phase, List.copyOf(set.values()));
            if (difference != null) {
                throw new StepFailure("read back after phase " + phase, "the switch reports " + difference, null);
            }
        }
    }

    /**
     * How the objects a phase set differ from what it set, read back a PDU of at most {@link
     * Options#maxVarbindsPerPdu} objects at a time, or null when the switch holds all of it.
     */
    private String objectsDiffer(Phase phase, List<VariableBinding> set) throws StepFailure {
        List<String> differences = new ArrayList<>();
        int most = options.maxVarbindsPerPdu();
        try {
            for (int from = 0; from < set.size(); from += most) {
                String found = SetReadBack.differences(session, set.subList(from, Math.min(set.size(), from + most)));
                if (found != null) {
                    differences.add(found);
                }
            }
        } catch (IOException e) {
            throw new StepFailure("read back after phase " + phase, statusOf(e), e);
        }
        return differences.isEmpty() ? null : "objects that differ from what was set: " + String.join("; ", differences);
    }

    private QBridgeReader.Snapshot readBack(Phase phase, int expectedRows) throws StepFailure {
        try {
            return readSwitch(expectedRows);
        } catch (IOException e) {
            throw new StepFailure("read back after phase " + phase, statusOf(e), e);
        }
    }

    /**
     * Restores {@code before}, best effort: it pushes the difference from what the switch holds
     * now, keeps going past failed PDUs (a lost response may hide a SET that did apply), and
     * judges success only by reading back.
     *
     * @return null when the switch reads back as before, else why not
     */
    private String undo(QBridgeReader.Snapshot before) {
        try {
            QBridgeReader.Snapshot now = readSwitch(knownRows);
            List<VlanChange> back = VlanDiff.between(now.state(), before.state());
            List<StepFailure> failures = new ArrayList<>();
            SwitchState expected = now.state();
            for (Phase phase : Phase.values()) {
                List<VlanChange> inPhase = stepsIn(phase, back);
                if (!inPhase.isEmpty()) {
                    sendPhase(expected, inPhase, now.portCount(), failures, new LinkedHashMap<>());
                    expected = VlanDiff.apply(expected, inPhase);
                }
            }
            String difference = difference(readSwitch(before.state().vlans().size()),
                    before.state(), before.inactiveVlans());
            if (difference == null) {
                LOG.info("{}: undo verified, the switch holds its previous state", name);
                return null;
            }
            return "the switch reports " + difference + failures.stream().findFirst()
                    .map(f -> " after '" + f.step() + "' failed: " + f.status()).orElse("");
        } catch (IOException e) {
            return statusOf(e);
        } catch (StepFailure failure) {
            return "'" + failure.step() + "' failed: " + failure.status();
        }
    }

    /**
     * Sends one phase. If the agent refuses the way rows are created, it switches to the other
     * way (once per device) and re-plans the phase from what the switch holds now, because the
     * refused PDU changed nothing but earlier PDUs of the phase may have.
     *
     * @param failures null to stop at the first failure; else failures are added here and the
     *     phase goes on
     * @param set the bindings sent, the last one for each object, by object
     */
    private void sendPhase(SwitchState before, List<VlanChange> steps, int portCount, List<StepFailure> failures,
            Map<OID, VariableBinding> set) throws StepFailure {
        try {
            sendBatches(SetPlanner.plan(steps, before, portCount, rowCreation), failures, set);
        } catch (StepFailure.RowCreationRefused refused) {
            rowCreationLearned = true;
            rowCreation = rowCreation.other();
            LOG.info("{}: the agent refused {} ({}); creating rows with {} from now on", name,
                    rowCreation.other().mibName(), refused.status(), rowCreation.mibName());
            SwitchState now;
            try {
                now = readSwitch(knownRows).state();
            } catch (IOException e) {
                throw new StepFailure(refused.step(), statusOf(e), e);
            }
            List<VlanChange> rest = VlanDiff.between(now, VlanDiff.apply(before, steps));
            sendBatches(SetPlanner.plan(rest, now, portCount, rowCreation), failures, set);
        }
    }

    private void sendBatches(List<List<SetUnit>> batches, List<StepFailure> failures, Map<OID, VariableBinding> set)
            throws StepFailure {
        for (List<SetUnit> batch : batches) {
            for (List<SetUnit> pdu : SetPlanner.pack(batch, options.maxVarbindsPerPdu())) {
                try {
                    sendPdu(pdu);
                    pdu.forEach(unit -> unit.bindings().forEach(binding -> {
                        set.remove(binding.getOid()); // the last value set stays, in the order set
                        set.put(binding.getOid(), binding);
                    }));
                } catch (StepFailure failure) {
                    if (failures == null || failure instanceof StepFailure.RowCreationRefused) {
                        throw failure;
                    }
                    failures.add(failure);
                }
            }
        }
    }

    /** Sends one PDU; halves it while the agent (or SNMP4J, before sending) finds it too big. */
    private void sendPdu(List<SetUnit> pdu) throws StepFailure {
        List<VariableBinding> bindings = pdu.stream().flatMap(unit -> unit.bindings().stream()).toList();
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: SET {}", name, bindings.stream()
                    .map(vb -> QBridge.describe(vb.getOid()) + "=" + vb.getVariable())
                    .collect(Collectors.joining(", ")));
        }
        SnmpResponse response;
        try {
            response = session.set(bindings);
        } catch (IOException e) {
            // SNMP4J throws MessageException when it cannot encode or send a message, most often
            // because it exceeds the transport's maximum size. Halving is harmless for its other
            // causes: they then fail at a single unit, with their own message.
            if (e instanceof MessageException && pdu.size() > 1) {
                LOG.debug("{}: a SET of {} bindings could not be sent ({}); splitting it", name, bindings.size(),
                        e.getMessage());
                sendHalves(pdu);
                return;
            }
            throw new StepFailure(describe(pdu), statusOf(e), e);
        }
        if (response.errorStatus() == SnmpResponse.TOO_BIG && pdu.size() > 1) {
            LOG.debug("{}: the agent answered tooBig to a SET of {} bindings; splitting it", name, bindings.size());
            sendHalves(pdu);
            return;
        }
        if (!response.isOk() && response.afterTimeout()) {
            landedEarlier(pdu, bindings, response);
            return;
        }
        if (!response.isOk()) {
            throw refusal(pdu, bindings, response);
        }
    }

    /**
     * Judges an error answered to the resend of a SET whose first try went unanswered: the first
     * try may have been applied and only its answer lost, so the agent may be refusing to do twice
     * what it did once (createAndGo of the row the first try created is inconsistentValue). The
     * SET's objects are read back: if the switch holds exactly what the SET asked for, the step is
     * done; otherwise it fails, saying what was found.
     */
    private void landedEarlier(List<SetUnit> pdu, List<VariableBinding> bindings, SnmpResponse response)
            throws StepFailure {
        StepFailure refused = refusal(pdu, bindings, response);
        String found;
        try {
            found = SetReadBack.differences(session, bindings);
        } catch (IOException e) {
            found = "reading its objects back failed too (" + statusOf(e) + ")";
        }
        if (found == null) {
            LOG.info("{}: the first try of a SET got no answer and its resend was answered {}, but the switch holds"
                    + " what it asked for: the first try was applied", name, refused.status());
            return;
        }
        if (refused instanceof StepFailure.RowCreationRefused) {
            throw refused;  // the agent does not create rows this way: sendPhase switches to the other
        }
        throw new StepFailure(refused.step(), "the first try got no answer (timeout), its resend was answered "
                + refused.status() + ", and the switch does not hold what was asked: " + found, null);
    }

    private void sendHalves(List<SetUnit> pdu) throws StepFailure {
        int half = pdu.size() / 2;
        sendPdu(pdu.subList(0, half));
        sendPdu(pdu.subList(half, pdu.size()));
    }

    /** The failure for an error status, blaming the unit that holds the binding at the error index. */
    private StepFailure refusal(List<SetUnit> pdu, List<VariableBinding> bindings, SnmpResponse response) {
        int index = response.errorIndex();
        if (index < 1 || index > bindings.size()) {
            return new StepFailure(describe(pdu), response.errorName(), null);
        }
        VariableBinding culprit = bindings.get(index - 1);
        SetUnit unit = unitHolding(pdu, index - 1);
        String status = response.errorName() + " at " + QBridge.describe(culprit.getOid());
        if (response.errorStatus() == SnmpResponse.WRONG_VALUE && !rowCreationLearned && createsRow(culprit)) {
            return new StepFailure.RowCreationRefused(unit.step(), status);
        }
        return new StepFailure(unit.step(), status, null);
    }

    private boolean createsRow(VariableBinding vb) {
        OID oid = vb.getOid();
        return oid.startsWith(QBridge.VLAN_STATIC_ENTRY) && oid.size() == QBridge.VLAN_STATIC_ENTRY.size() + 2
                && oid.get(QBridge.VLAN_STATIC_ENTRY.size()) == QBridge.COLUMN_ROW_STATUS
                && vb.getVariable().toInt() == rowCreation.rowStatus();
    }

    private static SetUnit unitHolding(List<SetUnit> pdu, int bindingIndex) {
        int seen = 0;
        for (SetUnit unit : pdu) {
            seen += unit.bindings().size();
            if (bindingIndex < seen) {
                return unit;
            }
        }
        throw new IllegalArgumentException("binding " + bindingIndex + " is not in this PDU");
    }

    private static String describe(List<SetUnit> pdu) {
        return pdu.stream().map(SetUnit::step).collect(Collectors.joining("; "));
    }

    private static String statusOf(IOException e) {
        return (e instanceof SnmpTimeoutException ? "timeout: " : "no answer: ") + e.getMessage();
    }

    private static List<VlanChange> stepsIn(Phase phase, List<VlanChange> steps) {
        return steps.stream().filter(step -> step.phase() == phase).toList();
    }

    /**
     * How the switch differs from {@code expected}, in steps still needed, or null if it does
     * not. Rows left inactive count as a difference, unless they were inactive before the push.
     */
    private static String difference(QBridgeReader.Snapshot now, SwitchState expected, Set<Integer> inactiveBefore) {
        List<String> problems = new ArrayList<>();
        Set<Integer> inactive = new TreeSet<>(now.inactiveVlans());
        inactive.removeAll(inactiveBefore);
        if (!inactive.isEmpty()) {
            problems.add("VLAN row(s) " + inactive + " not active");
        }
        List<VlanChange> missing = VlanDiff.between(now.state(), expected);
        if (!missing.isEmpty()) {
            String listed = missing.stream().limit(MAX_LISTED_STEPS).map(VlanChange::describe)
                    .collect(Collectors.joining("; "));
            int more = missing.size() - MAX_LISTED_STEPS;
            problems.add("a state that still needs: " + listed + (more > 0 ? "; and " + more + " more step(s)" : ""));
        }
        return problems.isEmpty() ? null : String.join(", and ", problems);
    }

    /** Closes the SNMP session. */
    @Override
    public void close() {
        session.close();
    }

    @Override
    public String toString() {
        return "SnmpVlanDevice[" + name + " at " + session.agent() + "]";
    }
}
