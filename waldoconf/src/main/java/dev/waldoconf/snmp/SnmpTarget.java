package dev.waldoconf.snmp;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * One SNMP agent and how to talk to it: its UDP address, the credentials (which fix the SNMP
 * version), and how long to wait for an answer. A request is sent at most {@code retries + 1}
 * times, each time waiting {@code timeoutMs}.
 *
 * <pre>
 * SnmpTarget target = SnmpTarget.of(new InetSocketAddress("10.0.0.5", 161),
 *         new SnmpCredentials.Usm("ops", Auth.SHA256, authKey, Priv.AES128, privKey))
 *     .withTimeoutMs(2000).withRetries(1);
 * </pre>
 *
 * @param address the agent's UDP address (port 161 on real switches)
 * @param credentials a v2c community or a v3 USM user
 * @param timeoutMs how long to wait for each answer, in milliseconds
 * @param retries how many times to resend a request that got no answer
 */
public record SnmpTarget(InetSocketAddress address, SnmpCredentials credentials, int timeoutMs, int retries) {
    /** The timeout when none is given: generous enough for a busy switch CPU. */
    public static final int DEFAULT_TIMEOUT_MS = 2000;
    /** The retries when none are given. */
    public static final int DEFAULT_RETRIES = 1;

    /** Checks the values. */
    public SnmpTarget {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(credentials, "credentials");
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("SNMP timeout must be at least 1 ms, got " + timeoutMs);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("SNMP retries must be 0 or more, got " + retries);
        }
    }

    /** A target with the default timeout and retries. */
    public static SnmpTarget of(InetSocketAddress address, SnmpCredentials credentials) {
        return new SnmpTarget(address, credentials, DEFAULT_TIMEOUT_MS, DEFAULT_RETRIES);
    }

    /** This target with another timeout per try. */
    public SnmpTarget withTimeoutMs(int newTimeoutMs) {
        return new SnmpTarget(address, credentials, newTimeoutMs, retries);
    }

    /** This target with another number of retries. */
    public SnmpTarget withRetries(int newRetries) {
        return new SnmpTarget(address, credentials, timeoutMs, newRetries);
    }

    /** The SNMP version, {@code v2c} or {@code v3}. */
    public String version() {
        return credentials.version();
    }

    /** How long a request may take before it counts as timed out, over all tries. */
    public long budgetMs() {
        return (long) timeoutMs * (retries + 1);
    }

    /** Address, version and user without secrets, e.g. {@code 127.0.0.1:1161 v3 user 'ops' (...)}. */
    @Override
    public String toString() {
        return address.getHostString() + ":" + address.getPort() + " " + credentials;
    }
}
