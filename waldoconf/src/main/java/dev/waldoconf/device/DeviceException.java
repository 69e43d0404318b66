package dev.waldoconf.device;

/**
 * A switch refused, timed out or answered unexpectedly. The message names the
 * switch, the step and the agent's error status, so an operator can act on it.
 */
public class DeviceException extends Exception {
    private final boolean undone;

    /**
     * @param undone true if the switch is known to be back in the state it held
     *     before the failed push (or was never changed)
     */
    public DeviceException(String message, boolean undone, Throwable cause) {
        super(message, cause);
        this.undone = undone;
    }

    public DeviceException(String message, boolean undone) {
        this(message, undone, null);
    }

    /** Whether the switch is known to hold its previous state. */
    public boolean undone() {
        return undone;
    }
}
