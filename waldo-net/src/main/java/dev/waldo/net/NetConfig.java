package dev.waldo.net;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * How a networked host talks to its peers.
 *
 * @param hostId this host's id, announced to every peer
 * @param stateDir where the host keeps its certificate, key and pinned peers
 * @param security TLS mode; {@link Security#SELF_SIGNED} unless told otherwise
 * @param maxFrameBytes the largest frame accepted or sent; larger input closes the connection
 * @param heartbeatPeriodMs how long a link may stay quiet before this host sends a heartbeat
 * @param heartbeatTimeoutMs how long without any frame from a peer before its link is declared down
 * @param acceptedRoles under {@link Security#MUTUAL}, the roles of which a peer's certificate must carry
 *     at least one, or empty to accept every peer the CA signed; ignored in the other modes, where
 *     certificates carry no roles anyone vouched for
 * @param ioThreads the I/O threads of a host that runs on threads of its own: with 1 (the default)
 *     it hears every event on that thread; with more, its links are spread over them and it hears
 *     its events, in order, on a serial executor of its own (for a host linked to a thousand peers,
 *     such as an operator changing a thousand switches, whose one thread would otherwise carry every
 *     handshake, message and heartbeat). Ignored on shared {@link NetLoops}.
 * @param authority which hosts a peer node may speak for: those of its own identity ({@link
 *     HostAuthority#SELF}, the default) and those {@link #withHostAuthority} adds, such as the
 *     switches an inventory says a site agent serves
 *
 * <p>On a node shared by several hosts ({@link NetNode#shared}) the node's configuration decides
 * how connections are made (identity, TLS, frames, heartbeats, roles, authority); a host on it uses
 * its own only for its host id and how often it dials a lost peer again.
 */
public record NetConfig(String hostId, Path stateDir, Security security, int maxFrameBytes,
                        long heartbeatPeriodMs, long heartbeatTimeoutMs, Set<String> acceptedRoles,
                        int ioThreads, HostAuthority authority) {
    /** 1 MiB: far above any sequence delta, small enough that a hostile peer cannot exhaust memory. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 20;
    /** Heartbeat period when none is given. */
    public static final long DEFAULT_HEARTBEAT_PERIOD_MS = 1_000;
    /** Heartbeat timeout when none is given: three missed heartbeats. */
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_MS = 3_000;

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException if the host id is empty, the frame limit under 64 bytes,
     *     the heartbeat timeout not longer than its period, or no I/O thread is asked for
     */
    public NetConfig {
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(authority, "authority");
        acceptedRoles = Set.copyOf(acceptedRoles);
        if (hostId.isEmpty()) {
            throw new IllegalArgumentException("hostId must not be empty");
        }
        if (maxFrameBytes < 64) {
            throw new IllegalArgumentException("maxFrameBytes must be at least 64, got " + maxFrameBytes);
        }
        if (heartbeatPeriodMs <= 0 || heartbeatTimeoutMs <= heartbeatPeriodMs) {
            throw new IllegalArgumentException("need 0 < heartbeatPeriodMs < heartbeatTimeoutMs, got "
                    + heartbeatPeriodMs + " and " + heartbeatTimeoutMs);
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("need at least one I/O thread, got " + ioThreads);
        }
    }

    /** The defaults: self-signed TLS, 1 MiB frames, 1 s heartbeats, 3 s timeout. */
    public static NetConfig defaults(String hostId, Path stateDir) {
        return new NetConfig(hostId, stateDir, Security.SELF_SIGNED, DEFAULT_MAX_FRAME_BYTES,
                DEFAULT_HEARTBEAT_PERIOD_MS, DEFAULT_HEARTBEAT_TIMEOUT_MS, Set.of(), 1, HostAuthority.SELF);
    }

    /** This configuration with another TLS mode. */
    public NetConfig withSecurity(Security mode) {
        return new NetConfig(hostId, stateDir, mode, maxFrameBytes, heartbeatPeriodMs, heartbeatTimeoutMs,
                acceptedRoles, ioThreads, authority);
    }

    /** This configuration with TLS off ({@code --insecure}). */
    public NetConfig insecure() {
        return withSecurity(Security.INSECURE);
    }

    /** This configuration with another heartbeat period and timeout. */
    public NetConfig withHeartbeat(long periodMs, long timeoutMs) {
        return new NetConfig(hostId, stateDir, security, maxFrameBytes, periodMs, timeoutMs, acceptedRoles,
                ioThreads, authority);
    }

    /**
     * This configuration accepting, under mutual TLS, only peers whose certificate carries one of
     * {@code roles} (see {@link CertificateAuthority#issueHost}).
     */
    public NetConfig withAcceptedRoles(Set<String> roles) {
        return new NetConfig(hostId, stateDir, security, maxFrameBytes, heartbeatPeriodMs, heartbeatTimeoutMs, roles,
                ioThreads, authority);
    }

    /** This configuration with another frame limit. */
    public NetConfig withMaxFrameBytes(int bytes) {
        return new NetConfig(hostId, stateDir, security, bytes, heartbeatPeriodMs, heartbeatTimeoutMs, acceptedRoles,
                ioThreads, authority);
    }

    /** This configuration with {@code threads} I/O threads for a host on threads of its own. */
    public NetConfig withIoThreads(int threads) {
        return new NetConfig(hostId, stateDir, security, maxFrameBytes, heartbeatPeriodMs, heartbeatTimeoutMs,
                acceptedRoles, threads, authority);
    }

    /**
     * This configuration letting peer nodes also speak for the hosts {@code authority} vouches for
     * (besides those of their own identity).
     */
    public NetConfig withHostAuthority(HostAuthority authority) {
        return new NetConfig(hostId, stateDir, security, maxFrameBytes, heartbeatPeriodMs, heartbeatTimeoutMs,
                acceptedRoles, ioThreads, HostAuthority.SELF.or(authority));
    }
}
