package dev.waldoconf.lab.container;

import java.net.InetSocketAddress;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The addresses in the line a switch process (or container) prints once it listens:
 * {@code lab switch NAME listening snmp=udp:HOST:PORT control=tcp:HOST:PORT ...}. Tools and tests
 * outside the lab start switches with {@code --port 0} and read their ports from it.
 *
 * @param snmp the switch's SNMP agent (UDP)
 * @param control its control interface (TCP)
 */
public record ListeningAddresses(InetSocketAddress snmp, InetSocketAddress control) {
    private static final Pattern LINE = Pattern.compile(
            "lab switch \\S+ listening snmp=udp:([0-9.]+):(\\d+) control=tcp:([0-9.]+):(\\d+)");

    /**
     * Finds the listening line in a process's or container's output.
     *
     * @return the addresses, or null when the output holds no listening line (yet)
     */
    public static ListeningAddresses find(String output) {
        Matcher m = LINE.matcher(output);
        if (!m.find()) {
            return null;
        }
        return new ListeningAddresses(new InetSocketAddress(m.group(1), Integer.parseInt(m.group(2))),
                new InetSocketAddress(m.group(3), Integer.parseInt(m.group(4))));
    }
}
