package dev.waldoconf.snmp;

import java.io.IOException;

/** An agent did not answer a request within the target's timeout, after every retry. */
public class SnmpTimeoutException extends IOException {
    /** @param message says which agent and how long was waited */
    public SnmpTimeoutException(String message) {
        super(message);
    }
}
