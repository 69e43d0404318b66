package dev.waldoconf.device;

/**
 * A switch refused, timed out or answered unexpectedly. The message names the
 * switch, the step and the agent's error status, so an operator can act on it.
 */
public class DeviceException extends Exception {
    private final boolean undone;

    /**
     * A failure with its cause.
     *
     * @param message what failed, where, and what to do next
     * @param undone true if the switch is known to be back in the state it held
     *     before the failed push (or was never changed)
     */
    public DeviceException(String message, boolean undone, Throwable cause) {
        super(message, cause);
        this.undone = undone;
    }

    /** A failure without an underlying exception; see {@link #DeviceException(String, boolean, Throwable)}. */
    public DeviceException(String message, boolean undone) {
        this(message, undone, null);
    }

    /**
     * The exception for a push that failed part-way, worded the same for every driver:
     * {@code sw-1: 'add untagged ports 3-4 to VLAN 20' failed: commitFailed at
     * dot1qVlanStaticUntaggedPorts.20. Undo succeeded: the switch holds its previous state.}
     *
     * @param switchName the switch, as the inventory names it
     * @param step the step (or steps, when one request carried several) that failed
     * @param status what the agent answered or that it did not answer, e.g. {@code commitFailed}
     * @param undone whether the undo restored the previous state, verified by reading it back
     * @param undoProblem why the undo did not restore it; ignored when {@code undone}
     */
    public static DeviceException pushFailed(String switchName, String step, String status, boolean undone,
                                             String undoProblem, Throwable cause) {
        String outcome = undone
                ? "Undo succeeded: the switch holds its previous state."
                : "Undo FAILED (" + undoProblem + "): the switch may hold part of the change; read it and push "
                        + "its previous state again once it answers.";
        return new DeviceException(switchName + ": '" + step + "' failed: " + status + ". " + outcome, undone,
                cause);
    }

    /** Whether the switch is known to hold its previous state. */
    public boolean undone() {
        return undone;
    }
}
