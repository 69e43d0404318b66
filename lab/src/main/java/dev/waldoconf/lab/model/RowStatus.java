package dev.waldoconf.lab.model;

import java.util.Optional;

/** RowStatus (RFC 2579): the states a conceptual row can be in and the actions a manager can ask for. */
public enum RowStatus {
    ACTIVE(1, "active"),
    NOT_IN_SERVICE(2, "notInService"),
    NOT_READY(3, "notReady"),
    CREATE_AND_GO(4, "createAndGo"),
    CREATE_AND_WAIT(5, "createAndWait"),
    DESTROY(6, "destroy");

    private final int code;
    private final String mibName;

    RowStatus(int code, String mibName) {
        this.code = code;
        this.mibName = mibName;
    }

    /** The INTEGER value on the wire. */
    public int code() {
        return code;
    }

    /** The enumeration label of the textual convention, e.g. {@code createAndGo}. */
    public String mibName() {
        return mibName;
    }

    /** The RowStatus with this wire value, or empty when the value is outside 1..6. */
    public static Optional<RowStatus> fromCode(int code) {
        for (RowStatus status : values()) {
            if (status.code == code) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }

    /** The RowStatus with this label (as written in a state file). */
    public static Optional<RowStatus> fromMibName(String name) {
        for (RowStatus status : values()) {
            if (status.mibName.equals(name)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
