package dev.waldo.net.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link PeerProcess} in its own JVM, as a test drives it. */
public final class PeerProcessHandle implements AutoCloseable {
    private static final long ANSWER_TIMEOUT_S = 30;
    private final String hostId;
    private final Process process;
    private final PrintWriter commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final List<String> log = new ArrayList<>();

    private PeerProcessHandle(String hostId, Process process) {
        this.hostId = hostId;
        this.process = process;
        this.commands = new PrintWriter(process.outputWriter(StandardCharsets.UTF_8), true);
        Thread.ofVirtual().start(this::readOutput);
    }

    /** Starts host {@code hostId} with its state in {@code stateDir}, with the same class path as this JVM. */
    public static PeerProcessHandle start(String hostId, Path stateDir, boolean tls) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), PeerProcess.class.getName(), hostId, stateDir.toString(),
                tls ? "tls" : "insecure").redirectErrorStream(true).start();
        return new PeerProcessHandle(hostId, process);
    }

    private void readOutput() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                synchronized (log) {
                    log.add(line);
                }
                if (line.startsWith("@")) {
                    answers.add(line.substring(1));
                }
            }
        } catch (IOException e) {
            // The process died (kill -9 in a test): its output simply ends.
        }
    }

    /** Sends a command line. */
    public void send(String command) {
        commands.println(command);
    }

    /** Waits for the next answer that starts with one of {@code prefixes}, skipping others; fails after 30 s. */
    public String expect(String... prefixes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ANSWER_TIMEOUT_S);
        while (System.nanoTime() < deadline) {
            String answer = answers.poll(100, TimeUnit.MILLISECONDS);
            for (String prefix : prefixes) {
                if (answer != null && answer.startsWith(prefix)) {
                    return answer;
                }
            }
        }
        throw new AssertionError("host " + hostId + " gave no answer starting with " + String.join(" or ", prefixes)
                + " within " + ANSWER_TIMEOUT_S + " s; its output:\n" + output());
    }

    /** Sends {@code command} and waits for the answer starting with {@code prefix}. */
    public String ask(String command, String prefix) throws InterruptedException {
        send(command);
        return expect(prefix);
    }

    /** kill -9: the process gets no chance to say goodbye to its peers. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Everything the process printed so far. */
    public String output() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    @Override
    public void close() throws InterruptedException {
        commands.close();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            kill();
        }
    }
}
