package dev.waldoconf.model;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/** Port lists as operators write them: {@code 1-4,7,9-10}. */
public final class PortRanges {
    private PortRanges() {
    }

    /** Formats ports as ranges, e.g. [1,2,3,7] as "1-3,7". */
    public static String format(SortedSet<Integer> ports) {
        List<String> parts = new ArrayList<>();
        Integer start = null;
        Integer previous = null;
        for (int port : ports) {
            if (start == null) {
                start = port;
            } else if (port != previous + 1) {
                parts.add(range(start, previous));
                start = port;
            }
            previous = port;
        }
        if (start != null) {
            parts.add(range(start, previous));
        }
        return String.join(",", parts);
    }

    private static String range(int from, int to) {
        return from == to ? Integer.toString(from) : from + "-" + to;
    }

    /**
     * Parses "1-4,7" into its ports.
     *
     * @throws IllegalArgumentException naming the part that is not a port or range
     */
    public static SortedSet<Integer> parse(String text) {
        SortedSet<Integer> ports = new TreeSet<>();
        for (String part : text.split(",")) {
            String trimmed = part.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            String[] bounds = trimmed.split("-", -1);
            try {
                int from = Integer.parseInt(bounds[0].trim());
                int to = bounds.length == 2 ? Integer.parseInt(bounds[1].trim()) : from;
                if (bounds.length > 2 || from < 1 || to < from) {
                    throw new NumberFormatException();
                }
                for (int port = from; port <= to; port++) {
                    ports.add(port);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + trimmed + "' is not a port or a port range like 1-4");
            }
        }
        return ports;
    }
}
