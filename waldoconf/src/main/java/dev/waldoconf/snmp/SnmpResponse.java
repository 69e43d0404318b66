package dev.waldoconf.snmp;

import java.util.List;
import org.snmp4j.smi.VariableBinding;

/**
 * An agent's answer to one request.
 *
 * @param errorStatus the RFC 3416 error status, 0 for noError
 * @param errorIndex the 1-based position of the variable binding the error is about, 0 if none
 * @param bindings the variable bindings of the response
 * @param afterTimeout whether this answers a resend of a SET whose earlier try got no answer:
 *     that try may have been applied (only its answer lost), so an error here may be the agent
 *     refusing to do twice what it already did
 */
public record SnmpResponse(int errorStatus, int errorIndex, List<VariableBinding> bindings, boolean afterTimeout) {
    /** Error-status names of RFC 3416 §3, by value. */
    private static final List<String> ERROR_NAMES = List.of("noError", "tooBig", "noSuchName", "badValue",
            "readOnly", "genErr", "noAccess", "wrongType", "wrongLength", "wrongEncoding", "wrongValue",
            "noCreation", "inconsistentValue", "resourceUnavailable", "commitFailed", "undoFailed",
            "authorizationError", "notWritable", "inconsistentName");
    /** The error status of a request too big for the agent (RFC 3416 §4.2.5). */
    public static final int TOO_BIG = 1;
    /** wrongValue: the agent cannot take this value, e.g. a RowStatus action it does not support. */
    public static final int WRONG_VALUE = 10;

    /** Copies the bindings. */
    public SnmpResponse {
        bindings = List.copyOf(bindings);
    }

    /** An answer to a request's first try. */
    public SnmpResponse(int errorStatus, int errorIndex, List<VariableBinding> bindings) {
        this(errorStatus, errorIndex, bindings, false);
    }

    /** Whether the agent answered noError. */
    public boolean isOk() {
        return errorStatus == 0;
    }

    /** The RFC 3416 name of the error status, e.g. {@code inconsistentValue}. */
    public String errorName() {
        return errorName(errorStatus);
    }

    /** The RFC 3416 name of an error status. */
    public static String errorName(int status) {
        return status >= 0 && status < ERROR_NAMES.size() ? ERROR_NAMES.get(status) : "error(" + status + ")";
    }
}
