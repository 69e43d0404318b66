package dev.waldo.check;

import java.util.List;

/**
 * Something a strictly serializable system could not have produced.
 *
 * @param type the anomaly's name, as Adya and Elle name them: {@code G0}, {@code G1a}, {@code G1b},
 *     {@code G1c}, {@code G-single}, {@code G2}, their {@code -realtime} forms (cycles that need
 *     real-time order), or a consistency failure ({@code incompatible-order}, {@code duplicate-append},
 *     {@code duplicate-elements}, {@code internal}, {@code garbage-read}, {@code lost-append})
 * @param explanation what was observed, naming the transactions, keys and values
 * @param txns the transactions involved (for a cycle, in cycle order)
 */
public record Anomaly(String type, String explanation, List<Integer> txns) {
    public Anomaly {
        txns = List.copyOf(txns);
    }

    @Override
    public String toString() {
        return type + ": " + explanation;
    }
}
