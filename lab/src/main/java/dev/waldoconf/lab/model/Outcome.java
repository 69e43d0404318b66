package dev.waldoconf.lab.model;

/** What {@link Bridge#apply} decided about a whole SET request. */
public sealed interface Outcome {

    /** Every change is valid; {@code next} is the state the request leaves behind. */
    record Accepted(SwitchState next) implements Outcome { }

    /**
     * The request is refused and changes nothing.
     *
     * @param index zero-based index of the variable binding the error is reported on
     * @param error the error status
     * @param reason a sentence saying what rule was broken, for logs and tests
     */
    record Rejected(int index, SnmpError error, String reason) implements Outcome { }
}
