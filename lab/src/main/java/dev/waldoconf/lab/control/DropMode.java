package dev.waldoconf.lab.control;

/** Which responses the drop fault swallows. */
public enum DropMode {
    /** Every response is sent (the default). */
    OFF,
    /** Responses to SET requests are dropped; the SET itself is still applied. */
    SET,
    /** Every response is dropped; requests are still processed. */
    ALL
}
