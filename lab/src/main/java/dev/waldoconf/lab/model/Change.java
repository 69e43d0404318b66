package dev.waldoconf.lab.model;

/**
 * One variable binding of a SET request, decoded into what it asks the switch to change.
 * Values are kept raw (as the manager sent them) so that {@link Bridge} can judge them.
 */
public sealed interface Change {

    /** Sets sysName, sysContact or sysLocation. */
    record SetSystem(SystemField field, String value) implements Change { }

    /** Sets dot1qVlanStaticName of a VLAN. */
    record SetVlanName(int vlanId, String name) implements Change { }

    /** Sets one of the PortList columns of a VLAN; {@code portList} is the value as sent. */
    record SetVlanPorts(int vlanId, PortColumn column, byte[] portList) implements Change { }

    /** Sets dot1qVlanStaticRowStatus of a VLAN; {@code action} is the INTEGER as sent. */
    record SetRowStatus(int vlanId, int action) implements Change { }

    /** Sets dot1qPvid of a port; {@code vlanId} is the value as sent. */
    record SetPvid(int port, int vlanId) implements Change { }

    /** The VLAN this change names or points at, or 0 for changes that concern no VLAN. */
    default int vlanTouched() {
        return switch (this) {
            case SetSystem ignored -> 0;
            case SetVlanName c -> c.vlanId();
            case SetVlanPorts c -> c.vlanId();
            case SetRowStatus c -> c.vlanId();
            case SetPvid c -> c.vlanId();
        };
    }
}
