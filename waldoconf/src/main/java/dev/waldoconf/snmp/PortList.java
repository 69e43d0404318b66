package dev.waldoconf.snmp;

import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The PortList textual convention of Q-BRIDGE-MIB (RFC 4363): one bit per bridge port, octet 1
 * holding ports 1 to 8, and within an octet the most significant bit standing for the
 * lowest-numbered port.
 */
public final class PortList {
    private PortList() {
    }

    /**
     * Encodes ports as a PortList of exactly the octets a switch with {@code portCount} ports
     * uses. Agents answer wrongLength to longer lists, so the length follows the port count.
     *
     * @throws IllegalArgumentException if a port is outside 1..portCount
     */
    public static byte[] encode(SortedSet<Integer> ports, int portCount) {
        byte[] octets = new byte[octetsFor(portCount)];
        for (int port : ports) {
            if (port < 1 || port > portCount) {
                throw new IllegalArgumentException("port " + port + " is outside 1.." + portCount);
            }
            octets[(port - 1) / 8] |= (byte) (0x80 >>> ((port - 1) % 8));
        }
        return octets;
    }

    /** Decodes a PortList of any length into its port numbers. */
    public static SortedSet<Integer> decode(byte[] octets) {
        SortedSet<Integer> ports = new TreeSet<>();
        for (int i = 0; i < octets.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                if ((octets[i] & (0x80 >>> bit)) != 0) {
                    ports.add(i * 8 + bit + 1);
                }
            }
        }
        return Collections.unmodifiableSortedSet(ports);
    }

    /** The number of octets a PortList for {@code portCount} ports has. */
    public static int octetsFor(int portCount) {
        return (portCount + 7) / 8;
    }
}
