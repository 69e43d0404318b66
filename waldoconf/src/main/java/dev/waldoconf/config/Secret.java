package dev.waldoconf.config;

import java.util.Arrays;

/**
 * A secret value (community, passphrase) read from where its {@link SecretRef} points. Its
 * {@link #toString()} never shows the value, so it is safe in logs and messages by accident.
 */
public final class Secret {
    private final char[] value;

    Secret(char[] value) {
        this.value = value.clone();
    }

    /** The secret's characters; callers hand them to the SNMP stack and nowhere else. */
    public char[] reveal() {
        return value.clone();
    }

    /** The secret as a string, for APIs that take nothing else (SNMP4J's OctetString). */
    public String revealString() {
        return new String(value);
    }

    @Override
    public String toString() {
        return "Secret[****]";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Secret secret && Arrays.equals(value, secret.value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(value);
    }
}
