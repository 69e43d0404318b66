package dev.waldoconf.lab.model;

/** The PortList columns of dot1qVlanStaticEntry, with their column numbers in RFC 4363. */
public enum PortColumn {
    EGRESS(2, "dot1qVlanStaticEgressPorts"),
    FORBIDDEN(3, "dot1qVlanForbiddenEgressPorts"),
    UNTAGGED(4, "dot1qVlanStaticUntaggedPorts");

    private final int column;
    private final String mibName;

    PortColumn(int column, String mibName) {
        this.column = column;
        this.mibName = mibName;
    }

    /** The sub-identifier of the column under dot1qVlanStaticEntry. */
    public int column() {
        return column;
    }

    /** The object's descriptor in Q-BRIDGE-MIB. */
    public String mibName() {
        return mibName;
    }
}
