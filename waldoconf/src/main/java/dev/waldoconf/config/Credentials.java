package dev.waldoconf.config;

/**
 * Named SNMP credentials from the inventory. They hold {@link SecretRef}s only; the secrets
 * themselves are read when a device is opened.
 */
public sealed interface Credentials {
    /** The name switches use to refer to these credentials. */
    String name();

    /** The SNMP version these credentials are for. */
    SnmpVersion version();

    /**
     * SNMPv2c: a community that may write.
     *
     * @param name the credentials' name
     * @param community where the community string comes from
     */
    record Community(String name, SecretRef community) implements Credentials {
        @Override
        public SnmpVersion version() {
            return SnmpVersion.V2C;
        }
    }

    /**
     * SNMPv3 USM, authPriv.
     *
     * @param name the credentials' name
     * @param user the USM security name
     * @param authProtocol SHA, SHA-224, SHA-256, SHA-384 or SHA-512 (net-snmp's names)
     * @param authPassphrase where the authentication passphrase comes from
     * @param privProtocol AES, AES-192 or AES-256
     * @param privPassphrase where the privacy passphrase comes from
     */
    record Usm(String name, String user, String authProtocol, SecretRef authPassphrase, String privProtocol,
               SecretRef privPassphrase) implements Credentials {
        @Override
        public SnmpVersion version() {
            return SnmpVersion.V3;
        }
    }
}
