package dev.waldoconf.lab;

import dev.waldoconf.lab.model.QuirkProfile;
import dev.waldoconf.lab.model.SwitchSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Everything needed to start one simulated switch. Build one with {@link #named(String)} and the
 * {@code with...} methods; unset values are the lab defaults (24 ports, standard profile,
 * 127.0.0.1 with ephemeral ports, communities {@code public}/{@code private}, the two default
 * USM users, no state file, the {@code fast} device profile).
 *
 * @param name the switch's name (sysName default, log prefix, engine ID seed)
 * @param host the address to bind; keep it on loopback (127.0.0.0/8)
 * @param snmpPort UDP port for SNMP; 0 picks a free one
 * @param controlPort TCP port of the control interface; 0 picks a free one, -1 disables it
 * @param spec port count and quirk profile
 * @param stateFile where configuration persists; null keeps it in memory only
 * @param readCommunity SNMPv1/v2c community that may read
 * @param writeCommunity SNMPv1/v2c community that may read and write
 * @param users SNMPv3 USM users (all may read and write)
 * @param profile how fast and how reliably its agent answers ({@link DeviceProfile#FAST} by default)
 */
public record SwitchConfig(String name, String host, int snmpPort, int controlPort, SwitchSpec spec,
                           Path stateFile, String readCommunity, String writeCommunity, List<UsmUserSpec> users,
                           DeviceProfile profile) {

    /** Checks required values. */
    public SwitchConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(readCommunity, "readCommunity");
        Objects.requireNonNull(writeCommunity, "writeCommunity");
        Objects.requireNonNull(profile, "profile");
        users = List.copyOf(users);
        if (snmpPort < 0 || snmpPort > 65535 || controlPort < -1 || controlPort > 65535) {
            throw new IllegalArgumentException("ports must be 0..65535 (control port -1 = off), got snmp "
                    + snmpPort + ", control " + controlPort);
        }
    }

    /** A switch with this name and every other setting at its default. */
    public static SwitchConfig named(String name) {
        return new SwitchConfig(name, "127.0.0.1", 0, 0, SwitchSpec.defaults(), null, "public", "private",
                List.of(UsmUserSpec.defaultSha256(), UsmUserSpec.defaultSha1()), DeviceProfile.FAST);
    }

    /** A copy with another name. */
    public SwitchConfig withName(String newName) {
        return new SwitchConfig(newName, host, snmpPort, controlPort, spec, stateFile, readCommunity, writeCommunity,
                users, profile);
    }

    /** A copy binding another loopback address. */
    public SwitchConfig withHost(String newHost) {
        return new SwitchConfig(name, newHost, snmpPort, controlPort, spec, stateFile, readCommunity, writeCommunity,
                users, profile);
    }

    /** A copy with another SNMP UDP port (0 = any free port). */
    public SwitchConfig withSnmpPort(int port) {
        return new SwitchConfig(name, host, port, controlPort, spec, stateFile, readCommunity, writeCommunity, users,
                profile);
    }

    /** A copy with another control TCP port (0 = any free port, -1 = off). */
    public SwitchConfig withControlPort(int port) {
        return new SwitchConfig(name, host, snmpPort, port, spec, stateFile, readCommunity, writeCommunity, users,
                profile);
    }

    /** A copy with another number of bridge ports. */
    public SwitchConfig withPortCount(int ports) {
        return withSpec(spec.withPortCount(ports));
    }

    /** A copy with another quirk profile. */
    public SwitchConfig withQuirks(QuirkProfile quirks) {
        return withSpec(spec.withQuirks(quirks));
    }

    /** A copy with another spec (port count, VLAN limit, quirks). */
    public SwitchConfig withSpec(SwitchSpec newSpec) {
        return new SwitchConfig(name, host, snmpPort, controlPort, newSpec, stateFile, readCommunity, writeCommunity,
                users, profile);
    }

    /** A copy keeping its configuration in {@code file} (null = memory only). */
    public SwitchConfig withStateFile(Path file) {
        return new SwitchConfig(name, host, snmpPort, controlPort, spec, file, readCommunity, writeCommunity, users,
                profile);
    }

    /** A copy with other v1/v2c communities. */
    public SwitchConfig withCommunities(String read, String write) {
        return new SwitchConfig(name, host, snmpPort, controlPort, spec, stateFile, read, write, users, profile);
    }

    /** A copy with other SNMPv3 USM users. */
    public SwitchConfig withUsers(List<UsmUserSpec> newUsers) {
        return new SwitchConfig(name, host, snmpPort, controlPort, spec, stateFile, readCommunity, writeCommunity,
                newUsers, profile);
    }

    /** A copy answering as {@code newProfile} says (delay, jitter, losses, rate limit). */
    public SwitchConfig withProfile(DeviceProfile newProfile) {
        return new SwitchConfig(name, host, snmpPort, controlPort, spec, stateFile, readCommunity, writeCommunity,
                users, newProfile);
    }
}
