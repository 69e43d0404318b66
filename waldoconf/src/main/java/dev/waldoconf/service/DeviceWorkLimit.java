package dev.waldoconf.service;

import java.util.concurrent.Semaphore;

/**
 * How many {@link DeviceBinding}s of one process talk to their devices at once: a prepare (read,
 * push, read back), an abort's undo, a load, a recheck or a recovery each takes one turn. A site
 * agent, or the lab process that serves a thousand switches, would otherwise start every
 * participant's SNMP push at the same moment when a prepare arrives: at 1,000 lab switches on 2
 * cores that burst drove the load average to 301 and made thousands of SNMP requests time out
 * (bench/apply-vs-snmpset/RESULTS.md).
 *
 * <p>Turns are handed out first come, first served (a fair semaphore), so no binding waits
 * behind later ones. A turn is taken before the binding's own lock and given back in a
 * {@code finally}, and a turn's work is bounded by the device's timeouts, so every wait ends: a
 * binding waiting for its turn holds no lock that a binding holding one needs.
 *
 * <p>The bound is {@value #PROPERTY} (a system property, e.g. through {@code JAVA_TOOL_OPTIONS})
 * or else {@link #defaultMax()}; {@link #setMax} changes it while the process runs.
 */
public final class DeviceWorkLimit {
    /** The system property that sets {@link #PROCESS}'s bound. */
    public static final String PROPERTY = "waldoconf.device.concurrency";

    /** The bound every binding of this process shares. */
    public static final DeviceWorkLimit PROCESS = new DeviceWorkLimit(configuredMax());

    private final Turns turns;
    private int max;

    /** A bound of {@code max} turns at once (tests that must not share {@link #PROCESS}'s use their own). */
    public DeviceWorkLimit(int max) {
        checkMax(max, "a device work bound");
        this.turns = new Turns(max);
        this.max = max;
    }

    /**
     * The bound when {@value #PROPERTY} is not set: 4 turns per core, and at least 64. Device work
     * is mostly waiting for the device to answer (a prepare reads, pushes and reads back, a dozen
     * PDUs), so the bound is well above the core count: against 128 lab switches that take 20 to
     * 30 ms per PDU, 64 at once applied in 5.6 s where 16 took 9.4 s, and at 1,000 fast lab
     * switches on 2 cores 64 cost no more than 16 (bench/RESULTS.md, last section). Without any
     * bound, 1,000 pushes at once made thousands of SNMP requests time out.
     */
    public static int defaultMax() {
        return Math.max(64, 4 * Runtime.getRuntime().availableProcessors());
    }

    private static int configuredMax() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return defaultMax();
        }
        try {
            return checkMax(Integer.parseInt(value.strip()), "-D" + PROPERTY);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + PROPERTY + " must be a whole number of device operations"
                    + " at once (1 or more), got '" + value + "'", e);
        }
    }

    private static int checkMax(int max, String what) {
        if (max < 1) {
            throw new IllegalArgumentException(what + " must be 1 or more device operations at once, got " + max);
        }
        return max;
    }

    /** How many turns may run at once now. */
    public synchronized int max() {
        return max;
    }

    /**
     * Changes the bound; turns already taken run to their end, and new ones wait until fewer than
     * {@code newMax} run.
     */
    public synchronized void setMax(int newMax) {
        checkMax(newMax, "a device work bound");
        if (newMax > max) {
            turns.release(newMax - max);
        } else {
            turns.reducePermits(max - newMax);
        }
        max = newMax;
    }

    /** How many more turns could start now without waiting. */
    public int available() {
        return Math.max(0, turns.availablePermits());
    }

    /**
     * Waits for a turn. Uninterruptible, because every turn ends: its work is bounded by the
     * device's timeouts and it is given back in a {@code finally} (use try-with-resources).
     */
    public Turn take() {
        turns.acquireUninterruptibly();
        return new Turn();
    }

    /** One binding's turn at its device; {@link #close()} gives it back (once). */
    public final class Turn implements AutoCloseable {
        private boolean returned;

        private Turn() {
        }

        @Override
        public void close() {
            if (!returned) {
                returned = true;
                turns.release();
            }
        }
    }

    /** A fair semaphore whose permits can also be taken away, to lower the bound while turns run. */
    private static final class Turns extends Semaphore {
        Turns(int permits) {
            super(permits, true);
        }

        @Override
        protected void reducePermits(int reduction) {
            super.reducePermits(reduction);
        }
    }
}
