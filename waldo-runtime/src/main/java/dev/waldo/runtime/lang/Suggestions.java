package dev.waldo.runtime.lang;

import java.util.Collection;
import java.util.Comparator;

/**
 * "did you mean" hints for misspelt names: of a Public function in
 * {@code invoke}, and of WaldoConf's inventory and plan names.
 */
public final class Suggestions {
    private Suggestions() {
    }

    /** {@code "; did you mean 'lab-1'?"} for the closest known name, or a list of known names. */
    public static String closest(String name, Collection<String> known) {
        if (known.isEmpty()) {
            return "";
        }
        String best = known.stream().min(Comparator.comparingInt(k -> distance(name, k))).orElseThrow();
        if (distance(name, best) <= Math.max(2, name.length() / 3)) {
            return "; did you mean '" + best + "'?";
        }
        return "; known: " + String.join(", ", known);
    }

    /** Levenshtein distance; names are short, so the quadratic table is fine. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
