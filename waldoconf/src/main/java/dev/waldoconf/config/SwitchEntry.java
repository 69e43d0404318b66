package dev.waldoconf.config;

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
 */
public record SwitchEntry(String name, HostPort service, HostPort snmp, SnmpVersion version, String credentials,
                          OptionalInt portCount) {
}
