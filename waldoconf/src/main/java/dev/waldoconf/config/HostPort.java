package dev.waldoconf.config;

import java.net.InetSocketAddress;

/**
 * A network address as the inventory writes it: {@code 127.0.0.1:16100}, {@code [::1]:161}.
 *
 * @param host a host name or IP address (IPv6 without brackets)
 * @param port 1 to 65535
 */
public record HostPort(String host, int port) {
    /** Checks the port range. */
    public HostPort {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 1..65535");
        }
    }

    /**
     * Parses {@code host:port}.
     *
     * @throws IllegalArgumentException saying what form is expected
     */
    public static HostPort parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not an address like 127.0.0.1:16100 (host:port)");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has no port number after the ':'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("'" + text + "': port " + port + " is outside 1..65535");
        }
        return new HostPort(host, port);
    }

    /**
     * The socket address, with the host name resolved now; a name that does not resolve gives an
     * unresolved address, which fails when something connects to it.
     */
    public InetSocketAddress resolve() {
        return new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
