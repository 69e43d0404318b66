package dev.waldoconf.lab.model;

import dev.waldoconf.lab.model.Change.SetPvid;
import dev.waldoconf.lab.model.Change.SetRowStatus;
import dev.waldoconf.lab.model.Change.SetSystem;
import dev.waldoconf.lab.model.Change.SetVlanName;
import dev.waldoconf.lab.model.Change.SetVlanPorts;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The Q-BRIDGE rules of a simulated switch, free of any SNMP library: it takes the committed
 * state and all changes of one SET request, and either returns the state the whole request
 * leaves behind or the first variable binding that breaks a rule, with the error status a real
 * agent answers.
 *
 * <p>Checks run in the order RFC 3416 §4.2.5 gives them: first each change on its own
 * (wrongLength, wrongValue, noCreation), then RowStatus transitions, then column values, and
 * last the consistency of the resulting state (inconsistentValue). Consistency is judged on the
 * state as the whole PDU would leave it, never varbind by varbind.
 */
public final class Bridge {
    /** SnmpAdminString (SIZE (0..32)) of dot1qVlanStaticName. */
    public static final int MAX_VLAN_NAME_OCTETS = 32;
    /** DisplayString (SIZE (0..255)) of the system group. */
    public static final int MAX_SYSTEM_TEXT_OCTETS = 255;

    private final SwitchSpec spec;

    /** A rule engine for switches with this spec. */
    public Bridge(SwitchSpec spec) {
        this.spec = spec;
    }

    /** The spec these rules enforce. */
    public SwitchSpec spec() {
        return spec;
    }

    /**
     * Judges one SET request as a whole.
     *
     * @param committed the state before the request
     * @param changes the request's variable bindings, in PDU order
     * @param nowCs sysUpTime now, stamped on VLANs that become active
     * @return {@link Outcome.Accepted} with the new state, or {@link Outcome.Rejected} naming the
     *     first offending variable binding; a rejected request changes nothing
     */
    public Outcome apply(SwitchState committed, List<Change> changes, long nowCs) {
        for (int i = 0; i < changes.size(); i++) {
            Optional<Outcome.Rejected> rejected = checkAlone(i, changes.get(i));
            if (rejected.isPresent()) {
                return rejected.get();
            }
        }
        SwitchState working = committed;
        for (int i = 0; i < changes.size(); i++) {
            if (changes.get(i) instanceof SetRowStatus change) {
                Result step = applyRowStatus(i, working, change, nowCs);
                if (step.rejected != null) {
                    return step.rejected;
                }
                working = step.state;
            }
        }
        for (int i = 0; i < changes.size(); i++) {
            Result step = applyValue(i, working, changes.get(i));
            if (step.rejected != null) {
                return step.rejected;
            }
            working = step.state;
        }
        for (int i = 0; i < changes.size(); i++) {
            Optional<Outcome.Rejected> rejected = checkConsistent(i, changes, committed, working);
            if (rejected.isPresent()) {
                return rejected.get();
            }
        }
        return new Outcome.Accepted(working);
    }

    /** Either the state after a step or the rejection that stopped it. */
    private record Result(SwitchState state, Outcome.Rejected rejected) {
        static Result ok(SwitchState state) {
            return new Result(state, null);
        }

        static Result no(int index, SnmpError error, String reason) {
            return new Result(null, new Outcome.Rejected(index, error, reason));
        }
    }

    // ---- pass 1: each change on its own -------------------------------------------------

    private Optional<Outcome.Rejected> checkAlone(int i, Change change) {
        return switch (change) {
            case SetSystem c -> octets(c.value()) > MAX_SYSTEM_TEXT_OCTETS
                    ? reject(i, SnmpError.WRONG_LENGTH, c.field().mibName() + " is longer than 255 octets")
                    : Optional.empty();
            case SetVlanName c -> octets(c.name()) > MAX_VLAN_NAME_OCTETS
                    ? reject(i, SnmpError.WRONG_LENGTH, "VLAN name is longer than 32 octets")
                    : checkCreatable(i, c.vlanId());
            case SetVlanPorts c -> checkPortList(i, c).or(() -> checkCreatable(i, c.vlanId()));
            case SetRowStatus c -> checkRowStatusAction(i, c).or(() -> checkCreatable(i, c.vlanId()));
            case SetPvid c -> spec.isCreatableVlan(c.vlanId())
                    ? Optional.empty()
                    : reject(i, SnmpError.WRONG_VALUE, "PVID " + c.vlanId() + " is not a VLAN id (1.."
                            + spec.maxVlanId() + ")");
        };
    }

    private Optional<Outcome.Rejected> checkCreatable(int i, int vlanId) {
        return spec.isCreatableVlan(vlanId)
                ? Optional.empty()
                : reject(i, SnmpError.NO_CREATION, "VLAN " + vlanId + " can never exist on this switch (ids are 1.."
                        + spec.maxVlanId() + ")");
    }

    private Optional<Outcome.Rejected> checkPortList(int i, SetVlanPorts c) {
        if (c.portList().length > spec.portListOctets()) {
            return reject(i, SnmpError.WRONG_LENGTH, c.column().mibName() + " has " + c.portList().length
                    + " octets but this switch has " + spec.portCount() + " ports (at most "
                    + spec.portListOctets() + " octets)");
        }
        PortSet ports = PortSet.fromPortList(c.portList());
        if (ports.highestPort() > spec.portCount()) {
            return reject(i, SnmpError.WRONG_VALUE, c.column().mibName() + " names port " + ports.highestPort()
                    + " but this switch has " + spec.portCount() + " ports");
        }
        return Optional.empty();
    }

    private Optional<Outcome.Rejected> checkRowStatusAction(int i, SetRowStatus c) {
        Optional<RowStatus> action = RowStatus.fromCode(c.action());
        if (action.isEmpty() || action.get() == RowStatus.NOT_READY) {
            return reject(i, SnmpError.WRONG_VALUE, "RowStatus " + c.action() + " cannot be set (use active, "
                    + "notInService, createAndGo, createAndWait or destroy)");
        }
        if (action.get() == RowStatus.CREATE_AND_WAIT && spec.quirks() == QuirkProfile.NO_CREATE_AND_WAIT) {
            return reject(i, SnmpError.WRONG_VALUE, "this switch (no-create-and-wait) does not support "
                    + "createAndWait; use createAndGo");
        }
        return Optional.empty();
    }

    // ---- pass 2: RowStatus transitions (RFC 2579) --------------------------------------

    private Result applyRowStatus(int i, SwitchState state, SetRowStatus c, long nowCs) {
        RowStatus action = RowStatus.fromCode(c.action()).orElseThrow();
        VlanRow row = state.vlan(c.vlanId());
        return switch (action) {
            case CREATE_AND_GO, CREATE_AND_WAIT -> row != null
                    ? Result.no(i, SnmpError.INCONSISTENT_VALUE, "VLAN " + c.vlanId() + " already exists; "
                            + action.mibName() + " only creates new rows (set active or destroy instead)")
                    : Result.ok(state.withVlan(VlanRow.created(c.vlanId(),
                            action == RowStatus.CREATE_AND_GO ? RowStatus.ACTIVE : RowStatus.NOT_IN_SERVICE, nowCs)));
            case ACTIVE, NOT_IN_SERVICE -> row == null
                    ? Result.no(i, SnmpError.INCONSISTENT_VALUE, "VLAN " + c.vlanId() + " does not exist; create it "
                            + "with createAndGo or createAndWait before setting it " + action.mibName())
                    : Result.ok(state.withVlan(row.withStatus(action, nowCs)));
            case DESTROY -> row == null ? Result.ok(state) : Result.ok(state.withoutVlan(c.vlanId()));
            case NOT_READY -> throw new IllegalStateException("notReady was refused in pass 1");
        };
    }

    // ---- pass 3: column values -------------------------------------------------------------

    private Result applyValue(int i, SwitchState state, Change change) {
        return switch (change) {
            case SetSystem c -> Result.ok(state.withSystem(c.field(), c.value()));
            case SetVlanName c -> withRow(i, state, c.vlanId(), row -> row.withName(c.name()));
            case SetVlanPorts c -> withRow(i, state, c.vlanId(),
                    row -> row.withPorts(c.column(), PortSet.fromPortList(c.portList())));
            case SetRowStatus ignored -> Result.ok(state);
            case SetPvid c -> Result.ok(state.withPvid(c.port(), c.vlanId()));
        };
    }

    private Result withRow(int i, SwitchState state, int vlanId, java.util.function.UnaryOperator<VlanRow> edit) {
        VlanRow row = state.vlan(vlanId);
        if (row == null) {
            return Result.no(i, SnmpError.INCONSISTENT_NAME, "VLAN " + vlanId + " does not exist; create it with "
                    + "dot1qVlanStaticRowStatus createAndGo or createAndWait (in this PDU or before)");
        }
        return Result.ok(state.withVlan(edit.apply(row)));
    }

    // ---- pass 4: consistency of the resulting state ---------------------------------------

    private Optional<Outcome.Rejected> checkConsistent(int i, List<Change> changes, SwitchState committed,
                                                       SwitchState next) {
        return switch (changes.get(i)) {
            case SetVlanPorts c -> checkMembership(i, c, committed, next.vlan(c.vlanId()),
                    setsColumn(changes, c.vlanId(), PortColumn.UNTAGGED));
            case SetRowStatus c -> checkNoPvidLeftBehind(i, c.vlanId(), next);
            case SetPvid c -> checkPvid(i, c, committed, next);
            case SetSystem ignored -> Optional.empty();
            case SetVlanName ignored -> Optional.empty();
        };
    }

    /**
     * Checks a VLAN's memberships after a PortList change. An untagged set that is not within
     * the egress set is blamed on the untagged varbind when the PDU has one, else on the egress one.
     */
    private Optional<Outcome.Rejected> checkMembership(int i, SetVlanPorts c, SwitchState committed, VlanRow row,
                                                       boolean pduSetsUntagged) {
        boolean untaggedMatters = c.column() == PortColumn.UNTAGGED
                || (c.column() == PortColumn.EGRESS && !pduSetsUntagged);
        boolean forbiddenMatters = c.column() != PortColumn.UNTAGGED;
        if (untaggedMatters && !row.untagged().isSubsetOf(row.egress())) {
            return reject(i, SnmpError.INCONSISTENT_VALUE, "VLAN " + row.vlanId() + ": untagged ports "
                    + row.untagged().minus(row.egress()) + " are not egress ports; add them to "
                    + "dot1qVlanStaticEgressPorts in the same PDU");
        }
        PortSet clash = row.egress().intersection(row.forbidden());
        if (forbiddenMatters && !clash.isEmpty()) {
            return reject(i, SnmpError.INCONSISTENT_VALUE, "VLAN " + row.vlanId() + ": ports " + clash
                    + " are both egress and forbidden");
        }
        if (c.column() == PortColumn.UNTAGGED && spec.quirks() == QuirkProfile.STRICT_ORDER
                && !row.untagged().isEmpty() && !committed.isActiveVlan(row.vlanId())) {
            return reject(i, SnmpError.INCONSISTENT_VALUE, "strict-order: VLAN " + row.vlanId() + " is not active "
                    + "yet; create it in an earlier PDU before adding untagged ports");
        }
        return Optional.empty();
    }

    private Optional<Outcome.Rejected> checkNoPvidLeftBehind(int i, int vlanId, SwitchState next) {
        PortSet users = next.portsWithPvid(vlanId);
        if (!next.isActiveVlan(vlanId) && !users.isEmpty()) {
            return reject(i, SnmpError.INCONSISTENT_VALUE, "VLAN " + vlanId + " is still the PVID of ports " + users
                    + "; move those PVIDs to another VLAN first (or in the same PDU)");
        }
        return Optional.empty();
    }

    private Optional<Outcome.Rejected> checkPvid(int i, SetPvid c, SwitchState committed, SwitchState next) {
        if (!next.isActiveVlan(c.vlanId())) {
            return reject(i, SnmpError.INCONSISTENT_VALUE, "PVID of port " + c.port() + " names VLAN " + c.vlanId()
                    + ", which does not exist or is not active");
        }
        if (spec.quirks() == QuirkProfile.STRICT_ORDER && !committed.isActiveVlan(c.vlanId())) {
            return reject(i, SnmpError.INCONSISTENT_VALUE, "strict-order: VLAN " + c.vlanId() + " is not active "
                    + "yet; create it in an earlier PDU before using it as a PVID");
        }
        return Optional.empty();
    }

    private static boolean setsColumn(List<Change> changes, int vlanId, PortColumn column) {
        return changes.stream().anyMatch(change -> change instanceof SetVlanPorts ports
                && ports.vlanId() == vlanId && ports.column() == column);
    }

    private static Optional<Outcome.Rejected> reject(int index, SnmpError error, String reason) {
        return Optional.of(new Outcome.Rejected(index, error, reason));
    }

    private static int octets(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
