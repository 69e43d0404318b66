package dev.waldoconf.device;

import dev.waldoconf.model.PortRanges;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The rules every VLAN state must follow before a driver sends anything, so that an operator's
 * mistake in a plan is reported before it touches a switch rather than as an agent's terse
 * error status half-way through a push.
 */
public final class VlanStateRules {
    /** SnmpAdminString (SIZE (0..32)) of dot1qVlanStaticName (RFC 4363). */
    public static final int MAX_NAME_OCTETS = 32;

    private VlanStateRules() {
    }

    /**
     * Checks the state a push would leave on a switch with {@code portCount} ports: every port
     * exists, every PVID names a VLAN of that state, and every VLAN name fits.
     *
     * @throws DeviceException (with {@code undone} true, as nothing was sent) naming the first
     *     rule broken
     */
    public static void check(String switchName, SwitchState target, int portCount) throws DeviceException {
        for (Vlan vlan : target.vlans().values()) {
            SortedSet<Integer> outside = outside(vlan.egress(), portCount);
            if (!outside.isEmpty()) {
                throw refused(switchName, "VLAN " + vlan.id() + " names port(s) " + PortRanges.format(outside)
                        + " but the switch has ports 1-" + portCount);
            }
            if (vlan.name().getBytes(StandardCharsets.UTF_8).length > MAX_NAME_OCTETS) {
                throw refused(switchName, "VLAN " + vlan.id() + " name '" + vlan.name() + "' is longer than "
                        + MAX_NAME_OCTETS + " octets");
            }
        }
        for (Map.Entry<Integer, Integer> pvid : target.pvids().entrySet()) {
            if (pvid.getKey() < 1 || pvid.getKey() > portCount) {
                throw refused(switchName, "a PVID is given for port " + pvid.getKey() + " but the switch has ports 1-"
                        + portCount);
            }
            if (!target.vlans().containsKey(pvid.getValue())) {
                throw refused(switchName, "port " + pvid.getKey() + " would have PVID " + pvid.getValue()
                        + ", a VLAN the switch would not have; add the VLAN or change the PVID");
            }
        }
    }

    private static SortedSet<Integer> outside(SortedSet<Integer> ports, int portCount) {
        SortedSet<Integer> result = new TreeSet<>();
        for (int port : ports) {
            if (port < 1 || port > portCount) {
                result.add(port);
            }
        }
        return result;
    }

    private static DeviceException refused(String switchName, String problem) {
        return new DeviceException(switchName + ": plan rejected before anything was sent: " + problem, true);
    }
}
