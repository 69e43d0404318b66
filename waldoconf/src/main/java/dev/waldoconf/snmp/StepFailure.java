package dev.waldoconf.snmp;

/**
 * A step of a push that the agent refused, did not answer, or that read back differently. The
 * VLAN driver catches it to undo and turn it into a {@link dev.waldoconf.device.DeviceException}.
 */
class StepFailure extends Exception {
    private final String step;
    private final String status;

    /**
     * @param step the step(s) in the operator's words
     * @param status what went wrong, e.g. {@code commitFailed at dot1qVlanStaticRowStatus.30}
     */
    StepFailure(String step, String status, Throwable cause) {
        super(step + ": " + status, cause);
        this.step = step;
        this.status = status;
    }

    String step() {
        return step;
    }

    String status() {
        return status;
    }

    /** The agent answered wrongValue to the RowStatus that creates a row: it does not support that way. */
    static final class RowCreationRefused extends StepFailure {
        RowCreationRefused(String step, String status) {
            super(step, status, null);
        }
    }
}
