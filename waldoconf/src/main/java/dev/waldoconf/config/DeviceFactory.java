package dev.waldoconf.config;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;

/**
 * Opens the {@link VlanDevice} for a switch of the inventory. The CLI reads current state
 * through it ({@code waldoconf plan}); the SNMP implementation speaks to {@link SwitchEntry#snmp()}
 * with the switch's credentials, tests use in-memory devices.
 */
@FunctionalInterface
public interface DeviceFactory {
    /**
     * Opens a connection to {@code entry}'s switch.
     *
     * @param entry the switch
     * @param credentials its credentials from the inventory (secrets are read from their
     *     {@link SecretRef}s only now, and never logged)
     * @throws DeviceException when the switch cannot be reached or the credentials cannot be read;
     *     the message names the switch and says what to check
     */
    VlanDevice open(SwitchEntry entry, Credentials credentials) throws DeviceException;
}
