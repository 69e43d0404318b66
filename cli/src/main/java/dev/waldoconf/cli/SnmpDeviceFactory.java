package dev.waldoconf.cli;

import dev.waldoconf.config.Credentials;
import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.snmp.SnmpCredentials;
import dev.waldoconf.snmp.SnmpTarget;
import dev.waldoconf.snmp.SnmpVlanDevice;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * Opens switches over SNMP ({@link SnmpVlanDevice}), reading each secret from the environment or
 * its file just before use. Messages name the switch and the missing secret, never its value.
 */
final class SnmpDeviceFactory implements DeviceFactory {
    private final Map<String, String> environment;

    SnmpDeviceFactory(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public VlanDevice open(SwitchEntry entry, Credentials credentials) throws DeviceException {
        SnmpCredentials snmp;
        try {
            snmp = toSnmp(credentials);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new DeviceException(entry.name() + ": credentials '" + credentials.name() + "': " + e.getMessage(),
                    true, null);
        }
        InetSocketAddress address = new InetSocketAddress(entry.snmp().host(), entry.snmp().port());
        if (address.isUnresolved()) {
            throw new DeviceException(entry.name() + ": cannot resolve SNMP host '" + entry.snmp().host()
                    + "'; check the inventory", true);
        }
        return SnmpVlanDevice.open(entry.name(), SnmpTarget.of(address, snmp));
    }

    private SnmpCredentials toSnmp(Credentials credentials) {
        return switch (credentials) {
            case Credentials.Community community ->
                    new SnmpCredentials.Community(community.community().resolve(environment).revealString());
            case Credentials.Usm usm -> new SnmpCredentials.Usm(usm.user(),
                    SnmpCredentials.Auth.fromLabel(usm.authProtocol()),
                    usm.authPassphrase().resolve(environment).revealString(),
                    SnmpCredentials.Priv.fromLabel(usm.privProtocol()),
                    usm.privPassphrase().resolve(environment).revealString());
        };
    }
}
