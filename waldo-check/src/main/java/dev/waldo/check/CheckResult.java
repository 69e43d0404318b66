package dev.waldo.check;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link ListAppendChecker} found in a history.
 *
 * @param committed transactions that committed
 * @param failed transactions that were backed out
 * @param unknown transactions whose outcome the client never learned
 * @param unknownSeen of those, how many some read shows an append of: they committed
 * @param edges dependency and real-time edges in the graph that was searched for cycles
 * @param anomalies everything found; empty when the history is strictly serializable as far as it shows
 */
public record CheckResult(int committed, int failed, int unknown, int unknownSeen, long edges,
                          List<Anomaly> anomalies) {
    public CheckResult {
        anomalies = List.copyOf(anomalies);
    }

    /** True when no anomaly was found. */
    public boolean valid() {
        return anomalies.isEmpty();
    }

    /** How many anomalies of each type. */
    public Map<String, Integer> countsByType() {
        Map<String, Integer> counts = new TreeMap<>();
        for (Anomaly anomaly : anomalies) {
            counts.merge(anomaly.type(), 1, Integer::sum);
        }
        return counts;
    }

    /**
     * One line of figures and then, one per line, the first {@code limitPerType} anomalies of
     * each type (so that a few cycles are not hidden behind many consistency failures).
     */
    public String summary(int limitPerType) {
        StringBuilder out = new StringBuilder(String.format(
                "%d transactions checked (%d committed, %d failed, %d unknown of which %d seen committed), %d edges,"
                        + " %d anomalies %s",
                committed + failed + unknown, committed, failed, unknown, unknownSeen, edges, anomalies.size(),
                countsByType()));
        Map<String, Integer> shown = new TreeMap<>();
        int hidden = 0;
        for (Anomaly anomaly : anomalies) {
            if (shown.merge(anomaly.type(), 1, Integer::sum) <= limitPerType) {
                out.append("\n  ").append(anomaly);
            } else {
                hidden++;
            }
        }
        if (hidden > 0) {
            out.append("\n  ... and ").append(hidden).append(" more");
        }
        return out.toString();
    }
}
