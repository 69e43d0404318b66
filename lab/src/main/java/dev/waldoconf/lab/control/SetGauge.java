package dev.waldoconf.lab.control;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the SETs that one or more switches are working on at the same moment (from the request's
 * arrival to just before its answer leaves), and the most ever at once: how a test shows, by
 * counting in the lab rather than by timing, that a process never had more SETs in flight than
 * its bound. Handed to each switch with {@link Faults#countSetsIn}. Thread-safe.
 */
public final class SetGauge {
    private final AtomicInteger now = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();
    private final AtomicLong seen = new AtomicLong();

    /** A SET arrived and is being worked on. */
    public void started() {
        seen.incrementAndGet();
        int current = now.incrementAndGet();
        most.accumulateAndGet(current, Math::max);
    }

    /** A SET's answer is about to leave (or was dropped): it is no longer being worked on. */
    public void ended() {
        now.decrementAndGet();
    }

    /** The most SETs ever worked on at once. */
    public int most() {
        return most.get();
    }

    /** How many SETs arrived in all. */
    public long seen() {
        return seen.get();
    }
}
