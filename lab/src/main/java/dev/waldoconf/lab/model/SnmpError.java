package dev.waldoconf.lab.model;

/**
 * The SNMP error statuses (RFC 3416 §3) that the simulated switch answers a SET with.
 * The codes are the wire values, so the SNMP layer can pass them through unchanged.
 */
public enum SnmpError {
    WRONG_TYPE(7, "wrongType"),
    WRONG_LENGTH(8, "wrongLength"),
    WRONG_VALUE(10, "wrongValue"),
    NO_CREATION(11, "noCreation"),
    INCONSISTENT_VALUE(12, "inconsistentValue"),
    COMMIT_FAILED(14, "commitFailed"),
    NOT_WRITABLE(17, "notWritable"),
    INCONSISTENT_NAME(18, "inconsistentName");

    private final int code;
    private final String mibName;

    SnmpError(int code, String mibName) {
        this.code = code;
        this.mibName = mibName;
    }

    /** The error-status value carried in the response PDU. */
    public int code() {
        return code;
    }

    /** The name RFC 3416 uses, e.g. {@code inconsistentValue}. */
    public String mibName() {
        return mibName;
    }

    /**
     * Looks an error up by its RFC 3416 name, ignoring case.
     *
     * @throws IllegalArgumentException naming the accepted names when none matches
     */
    public static SnmpError fromMibName(String name) {
        for (SnmpError error : values()) {
            if (error.mibName.equalsIgnoreCase(name)) {
                return error;
            }
        }
        throw new IllegalArgumentException("unknown SNMP error status '" + name
                + "'; expected one of commitFailed, inconsistentValue, wrongValue, ...");
    }
}
