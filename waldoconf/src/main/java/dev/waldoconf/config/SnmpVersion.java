package dev.waldoconf.config;

/** The SNMP versions WaldoConf speaks to switches. */
public enum SnmpVersion {
    /** SNMPv2c, authenticated by a community. */
    V2C("2c"),
    /** SNMPv3 with USM, authenticated and encrypted (authPriv). */
    V3("3");

    private final String label;

    SnmpVersion(String label) {
        this.label = label;
    }

    /** The version as the inventory writes it: {@code 2c} or {@code 3}. */
    public String label() {
        return label;
    }

    /** The version the inventory calls {@code label}. */
    public static SnmpVersion fromLabel(String label) {
        for (SnmpVersion version : values()) {
            if (version.label.equals(label)) {
                return version;
            }
        }
        throw new IllegalArgumentException("'" + label + "' is not an SNMP version; write '2c' or '3'");
    }
}
