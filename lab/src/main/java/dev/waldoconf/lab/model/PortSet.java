package dev.waldoconf.lab.model;

import java.util.BitSet;
import java.util.HexFormat;
import java.util.stream.IntStream;

/**
 * An immutable set of bridge ports, numbered from 1, convertible to and from the PortList
 * textual convention of RFC 4363: octet 1 holds ports 1 to 8, and within an octet the most
 * significant bit is the lowest-numbered port.
 */
public final class PortSet {
    private static final PortSet EMPTY = new PortSet(new BitSet());

    private final BitSet ports;

    private PortSet(BitSet ports) {
        this.ports = ports;
    }

    /** The set with no ports. */
    public static PortSet empty() {
        return EMPTY;
    }

    /** The set of the given port numbers (each 1 or more). */
    public static PortSet of(int... portNumbers) {
        BitSet bits = new BitSet();
        for (int port : portNumbers) {
            if (port < 1) {
                throw new IllegalArgumentException("port numbers start at 1, got " + port);
            }
            bits.set(port);
        }
        return new PortSet(bits);
    }

    /** Ports 1 to {@code count}. */
    public static PortSet firstPorts(int count) {
        BitSet bits = new BitSet();
        bits.set(1, count + 1);
        return new PortSet(bits);
    }

    /** Decodes a PortList value; bits past the last octet are simply absent. */
    public static PortSet fromPortList(byte[] octets) {
        BitSet bits = new BitSet();
        for (int i = 0; i < octets.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                if ((octets[i] & (0x80 >>> bit)) != 0) {
                    bits.set(i * 8 + bit + 1);
                }
            }
        }
        return new PortSet(bits);
    }

    /** Decodes a PortList written as hex digits (as in a state file); an empty string is the empty set. */
    public static PortSet fromHex(String hex) {
        return fromPortList(HexFormat.of().parseHex(hex));
    }

    /** Encodes this set as a PortList of exactly the octets needed for {@code portCount} ports. */
    public byte[] toPortList(int portCount) {
        byte[] octets = new byte[octetsFor(portCount)];
        ports.stream().filter(p -> p <= portCount).forEach(p ->
                octets[(p - 1) / 8] |= (byte) (0x80 >>> ((p - 1) % 8)));
        return octets;
    }

    /** Hex digits of {@link #toPortList(int)}, for state files and messages. */
    public String toHex(int portCount) {
        return HexFormat.of().formatHex(toPortList(portCount));
    }

    /** The number of octets a PortList for {@code portCount} ports has. */
    public static int octetsFor(int portCount) {
        return (portCount + 7) / 8;
    }

    /** Whether the port is in the set. */
    public boolean contains(int port) {
        return port >= 1 && ports.get(port);
    }

    /** Whether every port of this set is also in {@code other}. */
    public boolean isSubsetOf(PortSet other) {
        BitSet rest = (BitSet) ports.clone();
        rest.andNot(other.ports);
        return rest.isEmpty();
    }

    /** The ports that are in both sets. */
    public PortSet intersection(PortSet other) {
        BitSet both = (BitSet) ports.clone();
        both.and(other.ports);
        return new PortSet(both);
    }

    /** The ports of this set that are not in {@code other}. */
    public PortSet minus(PortSet other) {
        BitSet rest = (BitSet) ports.clone();
        rest.andNot(other.ports);
        return new PortSet(rest);
    }

    /** Whether the set has no ports. */
    public boolean isEmpty() {
        return ports.isEmpty();
    }

    /** The highest port number in the set, or 0 when empty. */
    public int highestPort() {
        return Math.max(ports.length() - 1, 0);
    }

    /** The port numbers in ascending order. */
    public IntStream stream() {
        return ports.stream();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PortSet set && set.ports.equals(ports);
    }

    @Override
    public int hashCode() {
        return ports.hashCode();
    }

    /** Lists the ports compactly, e.g. {@code {1-4,7}}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("{");
        int port = ports.nextSetBit(0);
        while (port >= 0) {
            int end = ports.nextClearBit(port) - 1;
            text.append(text.length() > 1 ? "," : "").append(port);
            if (end > port) {
                text.append('-').append(end);
            }
            port = ports.nextSetBit(end + 1);
        }
        return text.append('}').toString();
    }
}
