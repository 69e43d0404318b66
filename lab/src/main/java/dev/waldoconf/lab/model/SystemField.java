package dev.waldoconf.lab.model;

/** The writable scalars of the SNMPv2-MIB system group, with their sub-identifiers. */
public enum SystemField {
    CONTACT(4, "sysContact"),
    NAME(5, "sysName"),
    LOCATION(6, "sysLocation");

    private final int subId;
    private final String mibName;

    SystemField(int subId, String mibName) {
        this.subId = subId;
        this.mibName = mibName;
    }

    /** The sub-identifier under {@code system} (1.3.6.1.2.1.1). */
    public int subId() {
        return subId;
    }

    /** The object's descriptor in SNMPv2-MIB. */
    public String mibName() {
        return mibName;
    }
}
