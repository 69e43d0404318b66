package dev.waldoconf.device;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.VlanChange;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A switch whose VLAN configuration WaldoConf reads and changes. The
 * lifecycle follows the operator's: read what is there, compare it with what
 * should be, push the difference, and undo it if the wider change fails.
 * Implementations: the SNMP driver (Q-BRIDGE-MIB) and an in-memory device for
 * tests; both pass one contract test suite.
 */
public interface VlanDevice extends AutoCloseable {
    /** The switch's name, as the inventory gives it; used in every message. */
    String name();

    /**
     * Reads the switch's VLANs and PVIDs.
     *
     * @throws DeviceException if the switch does not answer or answers nonsense
     */
    SwitchState read() throws DeviceException;

    /**
     * The steps that would move the switch from what it holds now to {@code desired},
     * in the order {@link #push} sends them.
     */
    default List<VlanChange> compare(SwitchState desired) throws DeviceException {
        return dev.waldoconf.model.VlanDiff.between(read(), desired);
    }

    /**
     * Moves the switch to {@code desired}: {@link #push(UnaryOperator)} with a target that does not
     * depend on what the switch holds.
     *
     * @return the state the switch held before, which {@code push} of it undoes the change
     * @throws DeviceException as {@link #push(UnaryOperator)}
     */
    default SwitchState push(SwitchState desired) throws DeviceException {
        return push(held -> desired);
    }

    /**
     * Moves the switch to what {@code target} makes of the state it holds: reads it once, sends
     * the difference between that read and {@code target}'s answer phase by phase (splitting
     * requests the agent would find too big), and reads back what it set. If any step is refused,
     * times out or reads back differently, it undoes the steps already applied, in reverse order,
     * and throws. A target that answers the read itself sends nothing.
     *
     * <p>One read serves both the caller's decision and the SETs, so no write can land between a
     * read the caller checked and another the SETs were computed from (a second read cost a
     * switch's whole table walk at every prepare, and widened that window).
     *
     * @param target what the switch should hold, given what it holds now; called once, before any SET
     * @return the state the switch held before (what {@code target} was given), which {@code push}
     *     of it undoes the change
     * @throws DeviceException saying which step failed, the agent's error status, and
     *     whether the undo restored the previous state
     */
    SwitchState push(UnaryOperator<SwitchState> target) throws DeviceException;

    /** Releases the connection to the switch. */
    @Override
    void close();
}
