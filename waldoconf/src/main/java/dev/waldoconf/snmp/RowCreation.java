package dev.waldoconf.snmp;

/**
 * How the VLAN driver creates dot1qVlanStaticTable rows (RFC 2579 RowStatus). Agents may
 * support only one of the two; the driver starts with the configured one and, when the agent
 * answers wrongValue to it, switches to the other for the rest of the device's life.
 */
public enum RowCreation {
    /** One SET of createAndGo: the row is active at once. Most agents support it. */
    CREATE_AND_GO,
    /** createAndWait, then active in a later SET: for agents that refuse createAndGo. */
    CREATE_AND_WAIT;

    /** The other way to create rows. */
    public RowCreation other() {
        return this == CREATE_AND_GO ? CREATE_AND_WAIT : CREATE_AND_GO;
    }

    /** The RowStatus value that creates a row this way. */
    int rowStatus() {
        return this == CREATE_AND_GO ? QBridge.ROW_CREATE_AND_GO : QBridge.ROW_CREATE_AND_WAIT;
    }

    /** The MIB name of that RowStatus value. */
    String mibName() {
        return this == CREATE_AND_GO ? "createAndGo" : "createAndWait";
    }
}
