package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Java main class run as its own process, on this test's class path, with its output in a log
 * file. {@link #kill()} is {@code kill -9}: the process gets no chance to clean up. Public, and in
 * the lab's test jar, so the product's crash tests and the CLI's chaos run start their switch
 * agents, services and operators the same way.
 */
public final class JavaProcess implements AutoCloseable {
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private final String label;
    private final Process process;
    private final Path log;

    private JavaProcess(String label, Process process, Path log) {
        this.label = label;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code mainClass} with {@code args}, logging to {@code logDir/label.log} (appended to). */
    public static JavaProcess start(String label, Path logDir, Class<?> mainClass, String... args)
            throws IOException {
        return start(label, logDir, null, mainClass, args);
    }

    /**
     * As {@link #start(String, Path, Class, String...)}, in {@code workDir} (null: this process's),
     * for commands that keep state relative to where they run (the operator's certificate pins).
     */
    public static JavaProcess start(String label, Path logDir, Path workDir, Class<?> mainClass, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m", "-Xshare:auto",
                "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        Files.createDirectories(logDir);
        Path log = logDir.resolve(label + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        return new JavaProcess(label, builder.start(), log);
    }

    /** The label the process was started with (its log is {@code label.log}). */
    public String label() {
        return label;
    }

    /** Waits (bounded) until the log has a line matching {@code pattern}, and returns its match. */
    public Matcher awaitLine(String pattern) throws IOException, InterruptedException {
        Pattern compiled = Pattern.compile(pattern);
        long giveUpAt = System.nanoTime() + STARTUP.toNanos();
        while (true) {
            Matcher m = compiled.matcher(output());
            if (m.find()) {
                return m;
            }
            assertThat(process.isAlive() || compiled.matcher(output()).find())
                    .as("%s still runs while waiting for /%s/; its output:%n%s", label, pattern, output()).isTrue();
            assertThat(System.nanoTime()).as("%s printed /%s/ within %s s; its output:%n%s", label, pattern,
                    STARTUP.toSeconds(), output()).isLessThan(giveUpAt);
            Thread.sleep(50);
        }
    }

    /** What the process printed so far. */
    public String output() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Whether the process still runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits (bounded) for the process to end by itself and returns its exit status; fails if it does not. */
    public int awaitExit(Duration patience) throws InterruptedException, IOException {
        OptionalInt exit = exitWithin(patience);
        if (exit.isEmpty()) {
            throw new AssertionError(label + " still runs after " + patience.toSeconds() + " s; its output:\n"
                    + output());
        }
        return exit.getAsInt();
    }

    /** Waits (bounded) for the process to end by itself: its exit status, or empty if it still runs. */
    public OptionalInt exitWithin(Duration patience) throws InterruptedException {
        return process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS) ? OptionalInt.of(process.exitValue())
                : OptionalInt.empty();
    }

    /** {@code kill -9}, then waits for the process to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * Sends a signal ({@code STOP} freezes the process, {@code CONT} lets it go on). A process
     * that is gone by then is left alone: a frozen one can still be killed (its command timed out,
     * or it was closed), and there is nothing left to thaw.
     */
    public void signal(String name) throws IOException, InterruptedException {
        int exit = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
        if (exit != 0 && process.isAlive()) {
            throw new IOException("kill -" + name + " " + process.pid() + " exited with " + exit);
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
