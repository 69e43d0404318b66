package dev.waldoconf.snmp;

import java.util.Objects;
import org.snmp4j.security.AuthHMAC128SHA224;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthHMAC256SHA384;
import org.snmp4j.security.AuthHMAC384SHA512;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.AuthenticationProtocol;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES192;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.PrivacyProtocol;

/**
 * How WaldoConf proves itself to an agent: an SNMPv2c community or an SNMPv3 USM user with
 * authentication and privacy (authPriv). Secrets never appear in {@code toString()}, so a
 * credential can be logged or put into a message without leaking them.
 */
public sealed interface SnmpCredentials {

    /** The SNMP version these credentials speak, as operators write it: {@code v2c} or {@code v3}. */
    String version();

    /**
     * An SNMPv2c community. The community is a password on the wire, so it is kept out of
     * {@code toString}.
     *
     * @param community the write community (e.g. {@code private} on the lab switches)
     */
    record Community(String community) implements SnmpCredentials {
        /** Checks that the community is present. */
        public Community {
            if (community == null || community.isEmpty()) {
                throw new IllegalArgumentException("an SNMPv2c community must not be empty");
            }
        }

        @Override
        public String version() {
            return "v2c";
        }

        @Override
        public String toString() {
            return "v2c community (hidden)";
        }
    }

    /**
     * An SNMPv3 USM user at security level authPriv.
     *
     * @param user the USM security name
     * @param auth the authentication protocol; SHA-2 for current gear, {@link Auth#SHA1} for old
     * @param authPassphrase at least 8 characters (RFC 3414 §11.2)
     * @param priv the privacy protocol
     * @param privPassphrase at least 8 characters
     */
    record Usm(String user, Auth auth, String authPassphrase, Priv priv, String privPassphrase)
            implements SnmpCredentials {
        /** Checks the user name and passphrase lengths; the message never repeats a passphrase. */
        public Usm {
            Objects.requireNonNull(auth, "auth");
            Objects.requireNonNull(priv, "priv");
            if (user == null || user.isEmpty()) {
                throw new IllegalArgumentException("an SNMPv3 user needs a name");
            }
            if (authPassphrase == null || authPassphrase.length() < 8) {
                throw new IllegalArgumentException("SNMPv3 user '" + user
                        + "': the authentication passphrase needs at least 8 characters");
            }
            if (privPassphrase == null || privPassphrase.length() < 8) {
                throw new IllegalArgumentException("SNMPv3 user '" + user
                        + "': the privacy passphrase needs at least 8 characters");
            }
        }

        @Override
        public String version() {
            return "v3";
        }

        @Override
        public String toString() {
            return "v3 user '" + user + "' (" + auth.label() + ", " + priv.label() + ", passphrases hidden)";
        }
    }

    /** USM authentication protocols, named as net-snmp's {@code -a} option names them. */
    enum Auth {
        /** HMAC-SHA-96 (RFC 3414), for old gear; SNMP4J 3.13 no longer enables it by default. */
        SHA1("SHA"),
        /** HMAC-SHA-224 (usmHMAC128SHA224AuthProtocol, RFC 7860). */
        SHA224("SHA-224"),
        /** HMAC-SHA-256 (usmHMAC192SHA256AuthProtocol, RFC 7860): the usual choice today. */
        SHA256("SHA-256"),
        /** HMAC-SHA-384 (usmHMAC256SHA384AuthProtocol, RFC 7860). */
        SHA384("SHA-384"),
        /** HMAC-SHA-512 (usmHMAC384SHA512AuthProtocol, RFC 7860). */
        SHA512("SHA-512");

        private final String label;

        Auth(String label) {
            this.label = label;
        }

        /** The net-snmp name, e.g. {@code SHA-256}. */
        public String label() {
            return label;
        }

        /** A fresh SNMP4J protocol object for this protocol. */
        AuthenticationProtocol protocol() {
            return switch (this) {
                case SHA1 -> new AuthSHA();
                case SHA224 -> new AuthHMAC128SHA224();
                case SHA256 -> new AuthHMAC192SHA256();
                case SHA384 -> new AuthHMAC256SHA384();
                case SHA512 -> new AuthHMAC384SHA512();
            };
        }

        /**
         * The protocol with this net-snmp name, ignoring case.
         *
         * @throws IllegalArgumentException listing the names it knows
         */
        public static Auth fromLabel(String label) {
            for (Auth auth : values()) {
                if (auth.label.equalsIgnoreCase(label)) {
                    return auth;
                }
            }
            throw new IllegalArgumentException("unknown SNMPv3 authentication protocol '" + label
                    + "'; use SHA, SHA-224, SHA-256, SHA-384 or SHA-512");
        }
    }

    /** USM privacy protocols, named as net-snmp's {@code -x} option names them. */
    enum Priv {
        /** AES-128 in CFB mode (RFC 3826), what net-snmp calls AES. */
        AES128("AES"),
        /** AES-192 (the Blumenthal draft as net-snmp and SNMP4J implement it). */
        AES192("AES-192"),
        /** AES-256 (the Blumenthal draft as net-snmp and SNMP4J implement it). */
        AES256("AES-256");

        private final String label;

        Priv(String label) {
            this.label = label;
        }

        /** The net-snmp name, e.g. {@code AES}. */
        public String label() {
            return label;
        }

        /** A fresh SNMP4J protocol object for this protocol. */
        PrivacyProtocol protocol() {
            return switch (this) {
                case AES128 -> new PrivAES128();
                case AES192 -> new PrivAES192();
                case AES256 -> new PrivAES256();
            };
        }

        /**
         * The protocol with this net-snmp name, ignoring case.
         *
         * @throws IllegalArgumentException listing the names it knows
         */
        public static Priv fromLabel(String label) {
            for (Priv priv : values()) {
                if (priv.label.equalsIgnoreCase(label)) {
                    return priv;
                }
            }
            throw new IllegalArgumentException("unknown SNMPv3 privacy protocol '" + label
                    + "'; use AES, AES-192 or AES-256");
        }
    }
}
