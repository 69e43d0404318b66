package dev.waldoconf.lab;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.snmp4j.security.AuthHMAC128SHA224;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthHMAC256SHA384;
import org.snmp4j.security.AuthHMAC384SHA512;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES192;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;

/**
 * An SNMPv3 USM user of a simulated switch (authPriv: authentication and privacy).
 *
 * @param name the security name
 * @param auth the authentication protocol
 * @param authPassphrase at least 8 characters (RFC 3414 §11.2)
 * @param priv the privacy protocol
 * @param privPassphrase at least 8 characters
 */
public record UsmUserSpec(String name, Auth auth, String authPassphrase, Priv priv, String privPassphrase) {

    /** Authentication protocols, named as net-snmp's {@code -a} option names them. */
    public enum Auth {
        SHA("SHA", AuthSHA.ID),
        SHA_224("SHA-224", AuthHMAC128SHA224.ID),
        SHA_256("SHA-256", AuthHMAC192SHA256.ID),
        SHA_384("SHA-384", AuthHMAC256SHA384.ID),
        SHA_512("SHA-512", AuthHMAC384SHA512.ID);

        private final String label;
        private final OID id;

        Auth(String label, OID id) {
            this.label = label;
            this.id = id;
        }

        /** The net-snmp name, e.g. {@code SHA-256}. */
        public String label() {
            return label;
        }

        /** SNMP4J's protocol OID. */
        public OID id() {
            return id;
        }

        /** The protocol with this net-snmp name. */
        public static Auth fromLabel(String label) {
            return byLabel(values(), Auth::label, "authentication", label);
        }
    }

    /** Privacy protocols, named as net-snmp's {@code -x} option names them. */
    public enum Priv {
        AES("AES", PrivAES128.ID),
        AES_192("AES-192", PrivAES192.ID),
        AES_256("AES-256", PrivAES256.ID);

        private final String label;
        private final OID id;

        Priv(String label, OID id) {
            this.label = label;
            this.id = id;
        }

        /** The net-snmp name, e.g. {@code AES}. */
        public String label() {
            return label;
        }

        /** SNMP4J's protocol OID. */
        public OID id() {
            return id;
        }

        /** The protocol with this net-snmp name. */
        public static Priv fromLabel(String label) {
            return byLabel(values(), Priv::label, "privacy", label);
        }
    }

    /** The protocol whose net-snmp name is {@code wanted}, ignoring case, or an error listing the names. */
    private static <P> P byLabel(P[] protocols, Function<P, String> label, String kind, String wanted) {
        return Arrays.stream(protocols).filter(p -> label.apply(p).equalsIgnoreCase(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown " + kind + " protocol '" + wanted
                        + "'; choose one of " + Arrays.stream(protocols).map(label)
                        .collect(Collectors.joining(", "))));
    }

    /** Checks names and passphrase lengths. */
    public UsmUserSpec {
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(priv, "priv");
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a USM user needs a name");
        }
        if (authPassphrase == null || authPassphrase.length() < 8 || privPassphrase == null
                || privPassphrase.length() < 8) {
            throw new IllegalArgumentException("USM user '" + name + "': passphrases need at least 8 characters");
        }
    }

    /** The lab's default SHA-256 + AES-128 user: {@code waldo}. */
    public static UsmUserSpec defaultSha256() {
        return new UsmUserSpec("waldo", Auth.SHA_256, "waldo-auth-pass", Priv.AES, "waldo-priv-pass");
    }

    /** The lab's default SHA-1 + AES-128 user for old gear: {@code waldo-sha1}. */
    public static UsmUserSpec defaultSha1() {
        return new UsmUserSpec("waldo-sha1", Auth.SHA, "waldo-auth-pass", Priv.AES, "waldo-priv-pass");
    }

    /**
     * Parses {@code name:auth:authPass:priv:privPass}, e.g. {@code ops:SHA-512:secret123:AES-256:secret456}.
     *
     * @throws IllegalArgumentException saying which part is wrong
     */
    public static UsmUserSpec parse(String text) {
        String[] parts = text.split(":", 5);
        if (parts.length != 5) {
            throw new IllegalArgumentException("USM user '" + text + "' must look like name:auth:authPass:priv:privPass");
        }
        return new UsmUserSpec(parts[0], Auth.fromLabel(parts[1]), parts[2], Priv.fromLabel(parts[3]), parts[4]);
    }

    /** The SNMP4J user. */
    public UsmUser toUsmUser() {
        return new UsmUser(new OctetString(name), auth.id(), new OctetString(authPassphrase), priv.id(),
                new OctetString(privPassphrase));
    }

    /** Hides the passphrases, so a spec can be logged. */
    @Override
    public String toString() {
        return "UsmUserSpec[" + name + ", " + auth.label() + ", " + priv.label() + "]";
    }
}
