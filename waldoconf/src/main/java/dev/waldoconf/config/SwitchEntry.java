package dev.waldoconf.config;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One switch of the inventory.
 *
 * @param name the switch's name, used in plans and every message
 * @param service host:port of the switch's {@code waldoconf serve}
 * @param snmp host:port of its SNMP agent (UDP)
 * @param version the SNMP version to speak
 * @param credentials name of the inventory's credentials entry for it
 * @param portCount its number of bridge ports, if the inventory gives it
 * @param site the site it belongs to, if the inventory gives one: the switches of a site form a group
 *     of that name, served by one site agent ({@code waldoconf serve --switches SITE})
 */
public record SwitchEntry(String name, HostPort service, HostPort snmp, SnmpVersion version, String credentials,
                          OptionalInt portCount, Optional<String> site) {
    /** A switch that belongs to no site. */
    public SwitchEntry(String name, HostPort service, HostPort snmp, SnmpVersion version, String credentials,
                       OptionalInt portCount) {
        this(name, service, snmp, version, credentials, portCount, Optional.empty());
    }

    /** Where each of {@code switches} has its service, resolved, by switch name, in their order. */
    public static Map<String, InetSocketAddress> serviceAddresses(List<SwitchEntry> switches) {
        Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();
        switches.forEach(entry -> addresses.put(entry.name(), entry.service().resolve()));
        return addresses;
    }
}
