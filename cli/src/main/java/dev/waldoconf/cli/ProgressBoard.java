package dev.waldoconf.cli;

import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.engine.ProgressListener.Stage;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Shows a change's progress so that it stays readable at 1,000 switches: on a terminal one bar
 * line with counts, redrawn in place; into a pipe or file a plain count line now and then; a line
 * per switch and stage only with {@code -v}. A switch that fails (refused, unreachable) always gets
 * its own line with the reason, whatever the mode.
 *
 * <p>Counts are of distinct switches: a transaction the runtime retries reports a switch again, and
 * must not count it twice. Thread-safe: the engine reports from its own threads.
 */
final class ProgressBoard implements ProgressListener, AutoCloseable {
    /** How progress is shown. */
    enum Mode {
        /** A terminal: one bar line, redrawn in place. */
        BAR,
        /**
         * A pipe or a file: a count line every {@link #COUNT_PERIOD} while something moves, and one
         * at the end if any was printed; an operation over within one period prints no count at all,
         * so that {@code waldoconf plan > plan.txt} holds just the plan.
         */
        COUNTS,
        /** {@code -v}: a line per switch and stage, as it happens. */
        LINES
    }

    /** How often the bar is redrawn: smooth enough to watch, rare enough to cost nothing. */
    static final Duration BAR_PERIOD = Duration.ofMillis(100);
    /** How often a pipe gets a count line: a log stays short, and a watcher still sees movement. */
    static final Duration COUNT_PERIOD = Duration.ofSeconds(2);
    private static final int BAR_WIDTH = 24;
    /** Clears the terminal line the cursor is on, after a carriage return. */
    private static final String CLEAR_LINE = "\r\033[K";
    private static final Set<Stage> FAILURES = Set.of(Stage.REFUSED, Stage.UNREACHABLE);

    private final PrintWriter out;
    private final Mode mode;
    private final int total;
    private final Map<Stage, Set<String>> reached = new EnumMap<>(Stage.class);
    private ScheduledExecutorService ticker;
    private boolean changed;
    private boolean barShown;
    private boolean countsShown;

    private ProgressBoard(PrintWriter out, Mode mode, int total) {
        this.out = out;
        this.mode = mode;
        this.total = total;
    }

    /**
     * A board for {@code total} switches that redraws itself (bar) or prints its counts (pipe) on a
     * timer of its own until {@link #close()}d.
     */
    static ProgressBoard start(PrintWriter out, Mode mode, int total) {
        ProgressBoard board = new ProgressBoard(out, mode, total);
        Duration period = mode == Mode.BAR ? BAR_PERIOD : COUNT_PERIOD;
        if (mode != Mode.LINES) {
            board.ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("progress")
                    .factory());
            board.ticker.scheduleAtFixedRate(board::tick, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        }
        return board;
    }

    /** A board without a timer: whoever holds it calls {@link #tick()} (tests, to see each frame). */
    static ProgressBoard manual(PrintWriter out, Mode mode, int total) {
        return new ProgressBoard(out, mode, total);
    }

    /** The mode for a command: {@code -v} wins; else a bar on a terminal, counts elsewhere. */
    static Mode mode(boolean verbose, boolean terminal) {
        return verbose ? Mode.LINES : terminal ? Mode.BAR : Mode.COUNTS;
    }

    @Override
    public synchronized void onProgress(String switchName, Stage stage, String detail) {
        reached.computeIfAbsent(stage, s -> new HashSet<>()).add(switchName);
        changed = true;
        if (mode == Mode.LINES || FAILURES.contains(stage)) {
            if (barShown) {
                out.print(CLEAR_LINE);  // the failure takes the bar's line; the next frame draws it below
                barShown = false;
            }
            out.println(line(switchName, stage, detail));
            out.flush();
        }
    }

    /** One switch's line: {@code   lab-1: refused (commitFailed on VLAN 20)}. */
    static String line(String switchName, Stage stage, String detail) {
        return "  " + switchName + ": " + stage.name().toLowerCase() + (detail.isEmpty() ? "" : " (" + detail + ")");
    }

    /** Shows what changed since the last frame: redraws the bar, or prints a count line. */
    synchronized void tick() {
        if (!changed || mode == Mode.LINES) {
            return;
        }
        changed = false;
        if (mode == Mode.BAR) {
            out.print(CLEAR_LINE + bar());
            barShown = true;
        } else {
            out.println("  " + counts());
            countsShown = true;
        }
        out.flush();
    }

    /** Stops the timer and shows the final counts (the bar's line is then ended). */
    @Override
    public void close() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
        synchronized (this) {
            if (mode == Mode.BAR || countsShown) {
                tick();
            }
            if (barShown) {
                out.println();
                out.flush();
                barShown = false;
            }
        }
    }

    /** {@code [##########--------------] 512/1000 committed | read 1000, connected 1000, committed 512}. */
    synchronized String bar() {
        Stage current = current();
        int done = count(current);
        int filled = total == 0 ? BAR_WIDTH : Math.min(BAR_WIDTH, done * BAR_WIDTH / total);
        return "[" + "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled) + "] " + done + "/" + total + " "
                + current.name().toLowerCase() + " | " + counts();
    }

    /** {@code read 1000, connected 1000, committed 512, failed 1 of 1000 switches}: the stages seen so far. */
    synchronized String counts() {
        List<String> parts = new ArrayList<>();
        int failed = 0;
        for (Stage stage : Stage.values()) {
            if (FAILURES.contains(stage)) {
                failed += count(stage);
            } else if (reached.containsKey(stage)) {
                parts.add(stage.name().toLowerCase() + " " + count(stage));
            }
        }
        parts.add("failed " + failed);
        return String.join(", ", parts) + " of " + total + " switch" + (total == 1 ? "" : "es");
    }

    /** The furthest stage any switch reached (failures aside), which the bar follows. */
    private Stage current() {
        Stage current = Stage.READ;
        for (Stage stage : Stage.values()) {
            if (!FAILURES.contains(stage) && reached.containsKey(stage)) {
                current = stage;
            }
        }
        return current;
    }

    private int count(Stage stage) {
        return reached.getOrDefault(stage, Set.of()).size();
    }
}
