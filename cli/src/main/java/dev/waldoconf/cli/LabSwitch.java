package dev.waldoconf.cli;

import java.net.InetSocketAddress;

/**
 * One switch of a lab as the inventory describes it, wherever it runs (in the lab process or in
 * a container).
 *
 * @param name the switch's name, {@code lab-1}, {@code lab-2}, ...
 * @param snmp where its SNMP agent answers, on loopback
 * @param ports how many bridge ports it has
 * @param control its control interface (faults: {@code refuse}, {@code delay}, ...), or null when unknown
 */
record LabSwitch(String name, InetSocketAddress snmp, int ports, InetSocketAddress control) {
    /** A switch whose control interface the lab does not know. */
    LabSwitch(String name, InetSocketAddress snmp, int ports) {
        this(name, snmp, ports, null);
    }
}
