package dev.waldoconf.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The {@code docker} command line, which the container lab drives.
 *
 * <p>Why the CLI and not Testcontainers or docker-java: the lab's containers must outlive the
 * command that starts them and be found again by later invocations ({@code lab status},
 * {@code lab down}), which docker's own labels and names do with no library state. Testcontainers
 * is built to tie containers to the JVM that started them (Ryuk), needs environment tweaks on
 * these machines, and would add megabytes to the command; the docker CLI is already there
 * wherever an engine is, talks to it the way the user's own shell does, and any failure it prints
 * can be shown to the user as it is. {@value #COMMAND_VARIABLE} picks another compatible command
 * (a full path, or podman).
 */
final class Docker {
    /** Environment variable naming the docker command; {@code docker} when unset. */
    static final String COMMAND_VARIABLE = "WALDOCONF_DOCKER";
    /** How long one docker command may take, unless said otherwise (an image build may take longer). */
    static final long TIMEOUT_MS = 60_000;

    private final String command;

    /** Docker through {@code command}. */
    Docker(String command) {
        this.command = command;
    }

    /** Docker through the command the environment names ({@value #COMMAND_VARIABLE}), else {@code docker}. */
    static Docker from(Map<String, String> environment) {
        String named = environment.get(COMMAND_VARIABLE);
        return new Docker(named == null || named.isBlank() ? "docker" : named.strip());
    }

    /** The command this runs, for messages. */
    String command() {
        return command;
    }

    /**
     * Returns when a Docker engine answers; otherwise says what is missing and what to do.
     *
     * @throws CommandFailure exit code 5, when the command is missing or no engine answers
     */
    void requireEngine() throws CommandFailure {
        String instead = "; or run 'waldoconf lab up' without --containers (one background process, no Docker needed)";
        try {
            run(TIMEOUT_MS, "version", "--format", "{{.Server.Version}}");
        } catch (NotInstalled e) {
            throw new CommandFailure(ExitCodes.UNAVAILABLE, "--containers needs Docker, but '" + command
                    + "' cannot be run (" + e.getMessage() + "). Install Docker (e.g. 'apt-get install docker.io')"
                    + " or set " + COMMAND_VARIABLE + " to its path" + instead);
        } catch (IOException e) {
            throw new CommandFailure(ExitCodes.UNAVAILABLE, "--containers needs a Docker engine, but none answers ("
                    + e.getMessage() + "). Start one (e.g. 'dockerd &' as root, or 'systemctl start docker')"
                    + instead);
        }
    }

    /** {@code docker args...} with the default time limit; see {@link #run(long, String...)}. */
    String run(String... args) throws IOException {
        return run(TIMEOUT_MS, args);
    }

    /**
     * Runs {@code docker args...} and returns what it printed on stdout, trimmed.
     *
     * @throws NotInstalled when the command cannot be started
     * @throws IOException when it exits non-zero (the message holds its stderr) or takes longer than {@code timeoutMs}
     */
    String run(long timeoutMs, String... args) throws IOException {
        return execute(timeoutMs, false, args);
    }

    /** {@code docker args...} with stdout and stderr together, as a user would see them (container logs). */
    String runMerged(String... args) throws IOException {
        return execute(TIMEOUT_MS, true, args);
    }

    private String execute(long timeoutMs, boolean merged, String... args) throws IOException {
        List<String> line = new ArrayList<>(List.of(command));
        line.addAll(List.of(args));
        Process process;
        try {
            process = new ProcessBuilder(line).redirectErrorStream(merged)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new NotInstalled(e.getMessage(), e);
        }
        // Both streams are read while the command runs, so a chatty command cannot block on a full pipe.
        CompletableFuture<String> out = read(process.getInputStream());
        CompletableFuture<String> err = read(process.getErrorStream());
        try {
            if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException("'" + command + " " + args[0] + "' did not finish within " + timeoutMs / 1000
                        + " s");
            }
            if (process.exitValue() != 0) {
                throw new IOException("'" + String.join(" ", line) + "' failed (exit " + process.exitValue() + "): "
                        + (merged ? out : err).get().strip());
            }
            return out.get().strip();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running '" + command + " " + args[0] + "'", e);
        } catch (ExecutionException e) {
            throw new IOException("cannot read the output of '" + command + " " + args[0] + "': " + e.getCause(), e);
        }
    }

    private static CompletableFuture<String> read(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The docker command itself could not be started (not installed, not executable). */
    static final class NotInstalled extends IOException {
        NotInstalled(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
