package dev.waldoconf.lab;

import java.net.InetSocketAddress;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The addresses in the line {@link SwitchMain} prints once it listens. */
record ListeningLine(InetSocketAddress snmp, InetSocketAddress control) {
    private static final Pattern LINE = Pattern.compile(
            "lab switch \\S+ listening snmp=udp:([0-9.]+):(\\d+) control=tcp:([0-9.]+):(\\d+)");

    /** Finds the listening line in a process's or container's output. */
    static ListeningLine find(String output) {
        Matcher m = LINE.matcher(output);
        if (!m.find()) {
            throw new IllegalStateException("no listening line in output:\n" + output);
        }
        return new ListeningLine(new InetSocketAddress(m.group(1), Integer.parseInt(m.group(2))),
                new InetSocketAddress(m.group(3), Integer.parseInt(m.group(4))));
    }
}
