package dev.waldoconf.lab.control;

import dev.waldoconf.lab.model.Change;
import dev.waldoconf.lab.model.SnmpError;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The faults a switch is told to show, changeable while it runs (through the control interface
 * or directly in embedded use). Every fault is off until set. Thread-safe.
 */
public final class Faults {
    /** A refusal of SETs that touch some VLANs, answered with {@code error}. */
    public record Refusal(Set<Integer> vlans, SnmpError error) {
        /** Checks that the error is one a refusal may use. */
        public Refusal {
            vlans = Set.copyOf(vlans);
            if (error != SnmpError.COMMIT_FAILED && error != SnmpError.INCONSISTENT_VALUE) {
                throw new IllegalArgumentException("a refusal answers commitFailed or inconsistentValue, not "
                        + error.mibName());
            }
        }
    }

    private volatile Refusal refusal;
    private volatile long delayMs;
    private volatile DropMode dropMode = DropMode.OFF;
    private volatile long exitAfterSets;
    private final AtomicLong setsAnswered = new AtomicLong();
    private final AtomicInteger setAnswersToDrop = new AtomicInteger();
    private volatile SetGauge setGauge;

    /** Refuses every SET with a varbind that names or points at one of {@code vlans}. */
    public void refuse(Set<Integer> vlans, SnmpError error) {
        refusal = new Refusal(vlans, error);
    }

    /** Stops refusing SETs. */
    public void clearRefusal() {
        refusal = null;
    }

    /** Delays every response by {@code ms} milliseconds (0 turns the delay off). */
    public void delayResponses(long ms) {
        if (ms < 0) {
            throw new IllegalArgumentException("delay must be 0 or more milliseconds, got " + ms);
        }
        delayMs = ms;
    }

    /** Drops responses as {@code mode} says. */
    public void dropResponses(DropMode mode) {
        dropMode = mode;
    }

    /**
     * Drops the answers to the next {@code count} SETs only (each still applied), then answers
     * again: a deterministic lost answer, so that a test can make exactly the first try of a SET
     * time out and its resend reach a switch that already applied it. 0 turns this off.
     */
    public void dropNextSetResponses(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("the number of SET answers to drop must be 0 or more, got " + count);
        }
        setAnswersToDrop.set(count);
    }

    /**
     * Counts this switch's SETs in {@code gauge} (shared by several switches to count theirs
     * together), or stops counting when null. Not a fault, and not reset by {@link #clear}: the
     * lab's way for a test to watch how many SETs its clients send at once.
     */
    public void countSetsIn(SetGauge gauge) {
        setGauge = gauge;
    }

    /** Where this switch counts its SETs, or null if nobody asked. */
    public SetGauge setGauge() {
        return setGauge;
    }

    /**
     * Makes the switch exit (a process) or stop (embedded) right after answering its
     * {@code sets}-th SET from now; 0 turns this off.
     */
    public void exitAfterSets(long sets) {
        if (sets < 0) {
            throw new IllegalArgumentException("exit-after needs 0 (off) or a positive count, got " + sets);
        }
        setsAnswered.set(0);
        exitAfterSets = sets;
    }

    /** Turns every fault off. */
    public void clear() {
        refusal = null;
        delayMs = 0;
        dropMode = DropMode.OFF;
        exitAfterSets = 0;
        setAnswersToDrop.set(0);
    }

    /**
     * The index in {@code changes} of the first change the refusal applies to, if the refusal
     * uses {@code error}.
     */
    public OptionalInt refusedChange(List<Change> changes, SnmpError error) {
        Refusal current = refusal;
        if (current == null || current.error() != error) {
            return OptionalInt.empty();
        }
        for (int i = 0; i < changes.size(); i++) {
            if (current.vlans().contains(changes.get(i).vlanTouched())) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    /** The response delay in milliseconds; 0 when off. */
    public long delayMs() {
        return delayMs;
    }

    /**
     * Whether the response to a request of this kind is to be dropped; a SET answer dropped by
     * {@link #dropNextSetResponses} is counted off.
     */
    public boolean dropsResponse(boolean isSet) {
        DropMode mode = dropMode;
        if (mode == DropMode.ALL || (mode == DropMode.SET && isSet)) {
            return true;
        }
        return isSet && setAnswersToDrop.getAndUpdate(left -> Math.max(0, left - 1)) > 0;
    }

    /** Counts an answered SET; true when the exit-after fault says the switch must now exit. */
    public boolean countSetAndCheckExit() {
        long limit = exitAfterSets;
        long answered = setsAnswered.incrementAndGet();
        return limit > 0 && answered >= limit;
    }

    /** One line describing every fault, e.g. {@code refuse=none delay=0 drop=off exit-after=off}. */
    public String describe() {
        Refusal current = refusal;
        String refuse = current == null ? "none"
                : new TreeSet<>(current.vlans()).stream().map(String::valueOf).collect(Collectors.joining(","))
                        + ":" + current.error().mibName();
        long limit = exitAfterSets;
        return "refuse=" + refuse + " delay=" + delayMs + " drop=" + dropMode.name().toLowerCase()
                + " exit-after=" + (limit == 0 ? "off" : limit + "(answered " + setsAnswered.get() + ")")
                + (setAnswersToDrop.get() > 0 ? " drop-next-sets=" + setAnswersToDrop.get() : "");
    }
}
