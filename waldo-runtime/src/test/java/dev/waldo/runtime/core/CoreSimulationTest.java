package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deterministic simulation of the protocol core (see {@link Simulation}).
 * Runs seeds 1..100 by default ({@code -Dsim.seeds=N} for another count);
 * {@code -Dsim.seed=N} runs just seed N, and every failure names the seed
 * that reproduces it.
 */
class CoreSimulationTest {
    /** Seeds 1..N run by default; {@code -Dsim.seeds=N} runs more (or fewer). */
    private static final int DEFAULT_SEEDS = Integer.getInteger("sim.seeds", 100);

    @Test
    void committedHistoryIsSerializableUnderReorderingLossAndCutLinks() {
        List<Long> seeds = new ArrayList<>();
        Long chosen = Long.getLong("sim.seed");
        if (chosen != null) {
            seeds.add(chosen);
        } else {
            for (long seed = 1; seed <= DEFAULT_SEEDS; seed++) {
                seeds.add(seed);
            }
        }
        for (long seed : seeds) {
            runSeed(seed);
        }
    }

    private static void runSeed(long seed) {
        int hosts = 2 + (int) (seed % 4);
        // Every other seed also cuts and heals links.
        double cutRate = seed % 2 == 0 ? 0.002 : 0;
        Simulation simulation = new Simulation(seed, hosts, 300, 0.05, cutRate);
        boolean finished;
        List<String> violations;
        try {
            finished = simulation.run(2_000_000);
            violations = simulation.check();
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError("simulation crashed; reproduce with: -Dsim.seed=" + seed, e);
        }
        assertThat(finished)
                .as("every transaction finishes (%s); reproduce with: -Dsim.seed=%d", simulation.summary(), seed)
                .isTrue();
        assertThat(violations)
                .as("serializable, atomic and clean (%s); reproduce with: -Dsim.seed=%d", simulation.summary(), seed)
                .isEmpty();
        System.out.println("seed " + seed + ": " + simulation.summary());
    }
}
