package dev.waldoconf.config;

import dev.waldoconf.snmp.SnmpCredentials;
import dev.waldoconf.snmp.SnmpTarget;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The SNMP agent of an inventory entry, as the SNMP driver and {@link dev.waldoconf.snmp.SnmpScalars}
 * need it. Secrets are read from the environment or their file only here, and never appear in a
 * message.
 */
public final class AgentTargets {
    private AgentTargets() {
    }

    /**
     * The agent of {@code entry}.
     *
     * @param environment where {@code {env: NAME}} secrets come from
     * @throws IllegalArgumentException naming the switch and what to fix (a missing secret, an
     *     unresolvable host), never a secret
     */
    public static SnmpTarget of(SwitchEntry entry, Credentials credentials, Map<String, String> environment) {
        SnmpCredentials snmp;
        try {
            snmp = switch (credentials) {
                case Credentials.Community community ->
                        new SnmpCredentials.Community(community.community().resolve(environment).revealString());
                case Credentials.Usm usm -> new SnmpCredentials.Usm(usm.user(),
                        SnmpCredentials.Auth.fromLabel(usm.authProtocol()),
                        usm.authPassphrase().resolve(environment).revealString(),
                        SnmpCredentials.Priv.fromLabel(usm.privProtocol()),
                        usm.privPassphrase().resolve(environment).revealString());
            };
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new IllegalArgumentException(entry.name() + ": credentials '" + credentials.name() + "': "
                    + e.getMessage(), e);
        }
        InetSocketAddress address = entry.snmp().resolve();
        if (address.isUnresolved()) {
            throw new IllegalArgumentException(entry.name() + ": cannot resolve SNMP host '" + entry.snmp().host()
                    + "'; check the inventory");
        }
        return SnmpTarget.of(address, snmp);
    }
}
