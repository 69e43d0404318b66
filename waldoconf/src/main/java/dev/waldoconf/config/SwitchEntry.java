package dev.waldoconf.config;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * One switch of the inventory.
 *
 * @param name the switch's name, used in plans and every message
 * @param service host:port where the switch's service is reached: its own {@code waldoconf serve
 *     --switch NAME}, or for a switch of a site the site agent's, shared by the site's switches
 * @param snmp host:port of its SNMP agent (UDP)
 * @param version the SNMP version to speak
 * @param credentials name of the inventory's credentials entry for it
 * @param portCount its number of bridge ports, if the inventory gives it
 * @param site the site it belongs to, if the inventory gives one: the switches of a site form a group
 *     of that name, served by one site agent ({@code waldoconf serve --site SITE}) at the site's address
 */
public record SwitchEntry(String name, HostPort service, HostPort snmp, SnmpVersion version, String credentials,
                          OptionalInt portCount, Optional<String> site) {
    /** A switch that belongs to no site. */
    public SwitchEntry(String name, HostPort service, HostPort snmp, SnmpVersion version, String credentials,
                       OptionalInt portCount) {
        this(name, service, snmp, version, credentials, portCount, Optional.empty());
    }
}
