package dev.waldo.net;

import java.util.Objects;
import java.util.Set;

/**
 * Who is at the other end of a link, as far as this host could check it.
 *
 * <p>A certificate names an identity, and every process that holds it announces a host id: the
 * identity itself, or the identity, {@value #RUN_SEPARATOR} and a run suffix. The suffix lets one
 * identity run as several processes at once (an operator's two commands, say) without their links
 * replacing each other, since the runtime keeps one link per host id; the identity stays the name
 * that is checked, pinned and recorded.
 *
 * @param hostId the host id the peer announced
 * @param name the identity: the host id up to {@value #RUN_SEPARATOR}
 * @param roles the roles its certificate carries (empty unless {@code certified})
 * @param certified true when a project CA vouched for the name and roles ({@link Security#MUTUAL});
 *     false under trust on first use or without TLS, where the name is only what the peer announced
 */
public record PeerIdentity(String hostId, String name, Set<String> roles, boolean certified) {
    /** Separates an identity from a run suffix in a host id: {@code operator-alice~4711}. */
    public static final char RUN_SEPARATOR = '~';

    /** Checks the parts; roles are copied. */
    public PeerIdentity {
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(name, "name");
        roles = Set.copyOf(roles);
    }

    /** The identity a host id stands for: {@code operator-alice~4711} is {@code operator-alice}. */
    public static String nameOf(String hostId) {
        int separator = hostId.indexOf(RUN_SEPARATOR);
        return separator < 0 ? hostId : hostId.substring(0, separator);
    }

    /** The host id of one run of identity {@code name}: {@code name~run}. */
    public static String hostIdOf(String name, String run) {
        checkName(name);
        return name + RUN_SEPARATOR + run;
    }

    /** True if the certificate carries {@code role}. */
    public boolean hasRole(String role) {
        return roles.contains(role);
    }

    /**
     * Checks that {@code name} can name an identity in a certificate.
     *
     * @throws IllegalArgumentException if it is empty, contains white space or {@value #RUN_SEPARATOR}
     */
    static void checkName(String name) {
        if (name.isEmpty() || name.indexOf(RUN_SEPARATOR) >= 0 || name.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("'" + name + "' cannot name a host: use a non-empty name without"
                    + " white space or '" + RUN_SEPARATOR + "'");
        }
    }
}
