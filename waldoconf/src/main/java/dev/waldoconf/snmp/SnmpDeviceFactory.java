package dev.waldoconf.snmp;

import dev.waldoconf.config.AgentTargets;
import dev.waldoconf.config.Credentials;
import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import java.util.Map;

/**
 * Opens switches over SNMP ({@link SnmpVlanDevice}), reading each secret from the environment or
 * its file just before use. Messages name the switch and the missing secret, never its value.
 */
public final class SnmpDeviceFactory implements DeviceFactory {
    private final Map<String, String> environment;

    /** Opens switches with secrets read from {@code environment} (or their files). */
    public SnmpDeviceFactory(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public VlanDevice open(SwitchEntry entry, Credentials credentials) throws DeviceException {
        SnmpTarget target;
        try {
            target = AgentTargets.of(entry, credentials, environment);
        } catch (IllegalArgumentException e) {
            throw new DeviceException(e.getMessage(), true, e);  // nothing was sent to the switch
        }
        return SnmpVlanDevice.open(entry.name(), target);
    }
}
