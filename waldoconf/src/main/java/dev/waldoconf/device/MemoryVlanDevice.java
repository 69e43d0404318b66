package dev.waldoconf.device;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.VlanChange;
import dev.waldoconf.model.VlanDiff;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * A switch that lives in memory, for fast tests of everything above the device layer. It
 * applies a push step by step, as the SNMP driver does PDU by PDU, and can be told to fail:
 * refuse every step that touches some VLANs (as an agent's commitFailed would), or stop
 * answering after a number of steps (as a switch that hangs mid-push). It passes the same
 * contract tests as the SNMP driver. Thread-safe.
 */
public final class MemoryVlanDevice implements VlanDevice {
    private final String name;
    private final int portCount;
    private SwitchState state;
    private final Set<Integer> refusedVlans = new TreeSet<>();
    private int stepsBeforeTimeout = -1;
    private int stepsApplied;
    private boolean closed;

    /** A switch with {@code portCount} ports in its factory state (VLAN 1 untagged everywhere). */
    public MemoryVlanDevice(String name, int portCount) {
        this(name, portCount, SwitchState.factoryDefault(portCount));
    }

    /** A switch with {@code portCount} ports holding {@code initial}. */
    public MemoryVlanDevice(String name, int portCount, SwitchState initial) {
        if (portCount < 1) {
            throw new IllegalArgumentException("a switch needs at least one port, got " + portCount);
        }
        this.name = name;
        this.portCount = portCount;
        this.state = initial;
    }

    @Override
    public String name() {
        return name;
    }

    /** The number of ports. */
    public int portCount() {
        return portCount;
    }

    /** Refuses every later step that touches one of {@code vlans} (creates, changes, deletes, or sets as PVID). */
    public synchronized void refuseVlans(Set<Integer> vlans) {
        refusedVlans.addAll(vlans);
    }

    /**
     * Lets {@code steps} more steps through, then fails the next one as a timeout, once. 0
     * fails the very next step.
     */
    public synchronized void failAfterSteps(int steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("steps must be 0 or more, got " + steps);
        }
        stepsBeforeTimeout = steps;
    }

    /** Turns every injected failure off. */
    public synchronized void clearFailures() {
        refusedVlans.clear();
        stepsBeforeTimeout = -1;
    }

    /** How many steps this device has applied so far, undo steps included. */
    public synchronized int stepsApplied() {
        return stepsApplied;
    }

    @Override
    public synchronized SwitchState read() throws DeviceException {
        requireOpen();
        return state;
    }

    @Override
    public synchronized SwitchState push(UnaryOperator<SwitchState> target) throws DeviceException {
        requireOpen();
        SwitchState before = state;
        SwitchState desired = target.apply(before);
        List<VlanChange> steps = VlanDiff.between(before, desired);
        VlanStateRules.check(name, VlanDiff.apply(before, steps), portCount);
        for (VlanChange step : steps) {
            String failure = failureOf(step);
            if (failure != null) {
                String undoProblem = undo(before);
                throw DeviceException.pushFailed(name, step.describe(), failure, undoProblem == null, undoProblem,
                        null);
            }
            applyOne(step);
        }
        return before;
    }

    /** Moves back to {@code before} step by step; returns why that failed, or null on success. */
    private String undo(SwitchState before) {
        for (VlanChange step : VlanDiff.between(state, before)) {
            String failure = failureOf(step);
            if (failure != null) {
                return "'" + step.describe() + "' " + failure;
            }
            applyOne(step);
        }
        return state.equals(before) ? null : "the switch still differs from its previous state";
    }

    /** Why the device fails this step, or null if it takes it; consumes the one-shot timeout. */
    private String failureOf(VlanChange step) {
        if (stepsBeforeTimeout == 0) {
            stepsBeforeTimeout = -1;
            return "timeout (simulated: the switch stopped answering)";
        }
        if (refusedVlans.contains(vlanTouched(step))) {
            return "refused (simulated refusal of VLAN " + vlanTouched(step) + ")";
        }
        if (stepsBeforeTimeout > 0) {
            stepsBeforeTimeout--;
        }
        return null;
    }

    private void applyOne(VlanChange step) {
        state = VlanDiff.apply(state, List.of(step));
        stepsApplied++;
    }

    /** The VLAN a step names or points at, as an agent's refusal would see it. */
    private static int vlanTouched(VlanChange step) {
        return switch (step) {
            case VlanChange.CreateVlan c -> c.vlan();
            case VlanChange.RenameVlan c -> c.vlan();
            case VlanChange.AddPorts c -> c.vlan();
            case VlanChange.SetPvid c -> c.to();
            case VlanChange.RemovePorts c -> c.vlan();
            case VlanChange.DeleteVlan c -> c.vlan();
        };
    }

    private void requireOpen() throws DeviceException {
        if (closed) {
            throw new DeviceException(name + ": the device was closed", true);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "MemoryVlanDevice[" + name + ", " + portCount + " ports]";
    }
}
