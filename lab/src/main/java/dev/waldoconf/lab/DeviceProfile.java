package dev.waldoconf.lab;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * How fast and how reliably a simulated switch's SNMP agent answers, to make a lab behave like
 * real switches instead of answering every PDU in well under a millisecond. A switch handles one
 * PDU at a time (its agent has one thread, as the management CPU of most switches gives SNMP one
 * task), so a per-PDU delay also limits how many PDUs a second it can take.
 *
 * <p>Per PDU, in this order: a PDU beyond the rate limit is dropped (as a control-plane policer
 * drops it); otherwise a seeded draw may lose it (no answer, and it is not processed, as when the
 * agent's input queue overflows or the datagram is lost); otherwise it is processed after
 * {@code delayMs} plus a seeded jitter of 0 to {@code jitterMs}. The manager sees a lost or
 * rate-limited PDU as a timeout. The draws come from a generator seeded with {@code seed} and the
 * switch's name, so a lab with the same seed sees the same delays and losses, PDU by PDU.
 *
 * <p>The named profiles are in {@link #NAMED}; lab/README.md says what real figures they model.
 *
 * @param name the profile's name on command lines ({@code fast}, {@code slow-cpu}, ...)
 * @param delayMs processing time of every PDU, in milliseconds
 * @param jitterMs up to this much more per PDU, drawn uniformly, in milliseconds
 * @param lossPercent how many PDUs in 100 get no answer (and are not processed)
 * @param ratePerSecond PDUs a second the agent takes on average; 0 = no limit
 * @param burst PDUs it takes at once before the rate limit applies (the policer's bucket)
 * @param seed seeds the jitter and loss draws, together with the switch's name
 */
public record DeviceProfile(String name, long delayMs, long jitterMs, double lossPercent, int ratePerSecond,
                            int burst, long seed) {
    /** The default seed of the named profiles. */
    public static final long DEFAULT_SEED = 1;

    /** Answers every PDU at once: the lab as it always was, for tests and fast runs. */
    public static final DeviceProfile FAST = new DeviceProfile("fast", 0, 0, 0, 0, 0, DEFAULT_SEED);
    /** A switch with a slow management CPU: 20 to 30 ms per PDU, so at most about 40 PDUs a second. */
    public static final DeviceProfile SLOW_CPU = new DeviceProfile("slow-cpu", 20, 10, 0, 0, 0, DEFAULT_SEED);
    /** A fast agent behind a control-plane policer: 50 PDUs a second, bursts of 20; the rest are dropped. */
    public static final DeviceProfile RATE_LIMITED = new DeviceProfile("rate-limited", 1, 1, 0, 50, 20, DEFAULT_SEED);
    /** A busy switch on a lossy management network: 10 to 50 ms per PDU, and 2 PDUs in 100 get no answer. */
    public static final DeviceProfile FLAKY = new DeviceProfile("flaky", 10, 40, 2, 0, 0, DEFAULT_SEED);
    /** Every named profile, {@link #FAST} first. */
    public static final List<DeviceProfile> NAMED = List.of(FAST, SLOW_CPU, RATE_LIMITED, FLAKY);

    /** Checks the figures. */
    public DeviceProfile {
        if (delayMs < 0 || jitterMs < 0) {
            throw new IllegalArgumentException("delay and jitter must be 0 or more ms, got " + delayMs + " and "
                    + jitterMs);
        }
        if (!(lossPercent >= 0 && lossPercent <= 100)) {
            throw new IllegalArgumentException("loss must be 0..100 percent, got " + lossPercent);
        }
        if (ratePerSecond < 0 || (ratePerSecond > 0 && burst < 1)) {
            throw new IllegalArgumentException("a rate limit needs a rate of 0 (off) or more PDUs a second and a"
                    + " burst of at least 1, got rate " + ratePerSecond + " and burst " + burst);
        }
    }

    /**
     * The named profile {@code name}.
     *
     * @throws IllegalArgumentException listing the names when none matches
     */
    public static DeviceProfile named(String name) {
        return NAMED.stream().filter(profile -> profile.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown device profile '" + name + "'; choose "
                        + names()));
    }

    /** The named profiles' names, for help texts: {@code fast | slow-cpu | ...}. */
    public static String names() {
        return NAMED.stream().map(DeviceProfile::name).collect(Collectors.joining(" | "));
    }

    /** A copy whose draws come from {@code newSeed}. */
    public DeviceProfile withSeed(long newSeed) {
        return new DeviceProfile(name, delayMs, jitterMs, lossPercent, ratePerSecond, burst, newSeed);
    }

    /** Whether every PDU is answered at once (nothing to pace). */
    public boolean isInstant() {
        return delayMs == 0 && jitterMs == 0 && lossPercent == 0 && ratePerSecond == 0;
    }

    /** One line for logs and the control interface, e.g. {@code slow-cpu(20+0..10ms loss=0% rate=off seed=1)}. */
    public String describe() {
        return name + "(" + delayMs + "+0.." + jitterMs + "ms loss=" + lossPercent + "% rate="
                + (ratePerSecond == 0 ? "off" : ratePerSecond + "/s burst " + burst) + " seed=" + seed + ")";
    }

    /** The sequence of fates of the PDUs that reach switch {@code switchName}, from its first. */
    public Pacer pacer(String switchName) {
        return new Pacer(this, new SplittableRandom(seed * 31 + Arrays.hashCode(
                switchName.getBytes(StandardCharsets.UTF_8))));
    }

    /** What happens to one PDU. */
    public enum Outcome {
        /** Processed and answered after the delay. */
        ANSWERED,
        /** Lost: not processed, not answered. */
        LOST,
        /** Beyond the rate limit: dropped, not processed. */
        RATE_LIMITED
    }

    /**
     * One PDU's fate.
     *
     * @param outcome whether it is answered
     * @param delayMs how long processing it takes, when it is answered
     */
    public record Fate(Outcome outcome, long delayMs) {
    }

    /**
     * The fates of one switch's PDUs, one call per PDU in arrival order. Not thread-safe: a switch's
     * agent processes one PDU at a time.
     */
    public static final class Pacer {
        private final DeviceProfile profile;
        private final SplittableRandom random;
        private double tokens;
        private long lastRefillNanos;
        private boolean started;

        private Pacer(DeviceProfile profile, SplittableRandom random) {
            this.profile = profile;
            this.random = random;
            this.tokens = profile.burst;
        }

        /** The fate of the PDU that arrived at {@code nowNanos} ({@link System#nanoTime()}). */
        public Fate next(long nowNanos) {
            // Both draws are made for every PDU, so the seeded losses do not depend on the rate limit's timing.
            boolean lost = random.nextDouble() * 100 < profile.lossPercent;
            long delayMs = profile.delayMs + (profile.jitterMs == 0 ? 0 : random.nextLong(profile.jitterMs + 1));
            if (!takeToken(nowNanos)) {
                return new Fate(Outcome.RATE_LIMITED, 0);
            }
            return lost ? new Fate(Outcome.LOST, 0) : new Fate(Outcome.ANSWERED, delayMs);
        }

        /** A token bucket: {@code burst} tokens, refilled at {@code ratePerSecond}. */
        private boolean takeToken(long nowNanos) {
            if (profile.ratePerSecond == 0) {
                return true;
            }
            if (started) {
                tokens = Math.min(profile.burst, tokens + (nowNanos - lastRefillNanos) * profile.ratePerSecond / 1e9);
            }
            started = true;
            lastRefillNanos = nowNanos;
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            return true;
        }
    }
}
