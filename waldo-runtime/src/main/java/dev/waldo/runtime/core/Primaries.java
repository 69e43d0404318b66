package dev.waldo.runtime.core;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Per endpoint, the outstanding root transactions started on it, oldest first.
 * The oldest is the endpoint's primary (paper §4.3). A primary ranks by the
 * time its endpoint's previous primary committed, so an endpoint whose primary
 * has waited long beats one that committed recently: endpoints take turns.
 */
final class Primaries {
    private static final Comparator<RootRecord> OLDEST_FIRST =
            Comparator.comparingLong((RootRecord r) -> r.startedAt).thenComparingLong(r -> r.serial);

    private static final class Line {
        final TreeSet<RootRecord> outstanding = new TreeSet<>(OLDEST_FIRST);
        long lastPrimaryCommit;
    }

    private final Map<Long, Line> lines = new HashMap<>();
    private final boolean enabled;

    /** @param enabled false for plain wound-wait: no root is ever primary */
    Primaries(boolean enabled) {
        this.enabled = enabled;
    }

    void add(RootRecord root) {
        lines.computeIfAbsent(root.object, o -> new Line()).outstanding.add(root);
    }

    boolean isPrimary(RootRecord root) {
        if (!enabled) {
            return false;
        }
        Line line = lines.get(root.object);
        return line != null && !line.outstanding.isEmpty() && line.outstanding.first() == root;
    }

    /** The priority the root's attempts run with now. */
    Priority priorityOf(RootRecord root, int host) {
        if (isPrimary(root)) {
            return new Priority(true, lines.get(root.object).lastPrimaryCommit, host, root.serial);
        }
        return new Priority(false, root.startedAt, host, root.serial);
    }

    /**
     * Removes a finished root. Returns the root promoted to primary in its
     * place, or null if the primary did not change.
     *
     * @param committedAt the commit's Lamport time, or -1 if the root did not commit
     */
    RootRecord finish(RootRecord root, long committedAt) {
        Line line = lines.get(root.object);
        if (line == null) {
            return null;
        }
        boolean wasPrimary = isPrimary(root);
        line.outstanding.remove(root);
        if (!wasPrimary) {
            return null;
        }
        if (committedAt >= 0) {
            line.lastPrimaryCommit = committedAt;
        }
        return line.outstanding.isEmpty() ? null : line.outstanding.first();
    }
}
