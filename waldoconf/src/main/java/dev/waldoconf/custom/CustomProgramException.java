package dev.waldoconf.custom;

/**
 * An operator's {@code .wld} device service cannot be used: it does not compile, or it does not
 * follow the rules for custom services (one Service with {@code @snmp(oid: ...)} variables of type
 * Text or Number, onCreate taking nothing or the switch's name). The message is what the operator
 * sees: each problem as {@code file:line:col: error: ...} with the source line and a caret.
 */
public final class CustomProgramException extends Exception {
    /** A problem described by {@code message} (already rendered for the operator). */
    public CustomProgramException(String message) {
        super(message);
    }
}
