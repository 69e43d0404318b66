package dev.waldo.runtime.bench;

import java.util.Arrays;
import java.util.Random;

/**
 * Keys drawn from a Zipf law over {@code 0 .. keys - 1}: key k has weight 1 / (k + 1)^s, so a
 * few hot keys take most draws. Shared by the contended benchmarks ({@link ClaretBenchmark},
 * {@link RubisBenchmark}).
 */
final class Zipf {
    private final double[] cdf;

    /** A law with exponent {@code exponent} (0.99 is Claret's default skew) over {@code keys} keys. */
    Zipf(double exponent, int keys) {
        cdf = new double[keys];
        double sum = 0;
        for (int k = 0; k < keys; k++) {
            sum += 1 / Math.pow(k + 1, exponent);
            cdf[k] = sum;
        }
        for (int k = 0; k < keys; k++) {
            cdf[k] /= sum;
        }
    }

    /** The next key, 0 the hottest. */
    int next(Random random) {
        int index = Arrays.binarySearch(cdf, random.nextDouble());
        return Math.min(cdf.length - 1, index >= 0 ? index : -index - 1);
    }
}
