package dev.waldoconf.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The release tarball of this build, unpacked into a folder of the test's: its commands run as a
 * user runs them, from outside the source tree, with an environment that names nothing of the build
 * (no JAVA_HOME, no class path; PATH holds only the system folders and the JDK's bin, which the
 * launchers must find by themselves).
 */
final class Release {
    /** How long one command may run before the test kills it. */
    static final long COMMAND_TIMEOUT_MS = 240_000;

    private final Path home;

    private Release(Path home) {
        this.home = home;
    }

    /** Unpacks the tarball the build made ({@code dist.tarball}, set by the pom) into {@code dir}. */
    static Release unpack(Path dir) throws IOException, InterruptedException {
        Path tarball = Path.of(System.getProperty("dist.tarball", "target/missing.tar.gz"));
        assertThat(tarball).as("the release tarball; run the tests through Maven after package").isRegularFile();
        Result untar = run(dir, Map.of(), List.of("tar", "-xzf", tarball.toAbsolutePath().toString()));
        assertThat(untar.exitCode()).as(untar.output()).isZero();
        try (Stream<Path> entries = Files.list(dir)) {
            Path home = entries.filter(Files::isDirectory)
                    .filter(path -> path.getFileName().toString().startsWith("waldoconf-")).findFirst()
                    .orElseThrow(() -> new AssertionError("no waldoconf-VERSION folder in " + tarball));
            return new Release(home);
        }
    }

    /** The unpacked release's top folder ({@code waldoconf-VERSION}). */
    Path home() {
        return home;
    }

    /** Runs {@code bin/COMMAND ARGS...} of the release in {@code workDir}, standard input closed. */
    Result run(Path workDir, String command, String... args) throws IOException, InterruptedException {
        return run(workDir, Map.of(), command, args);
    }

    /** As {@link #run(Path, String, String...)}, with {@code extraEnvironment} added. */
    Result run(Path workDir, Map<String, String> extraEnvironment, String command, String... args)
            throws IOException, InterruptedException {
        List<String> commandLine = new ArrayList<>(List.of(home.resolve("bin").resolve(command).toString()));
        commandLine.addAll(List.of(args));
        return run(workDir, extraEnvironment, commandLine);
    }

    /** Runs any program with the clean environment described above. */
    static Result run(Path workDir, Map<String, String> extraEnvironment, List<String> commandLine)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(commandLine).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> environment = builder.environment();
        environment.clear();
        environment.putAll(cleanEnvironment());
        environment.putAll(extraEnvironment);
        Path log = Files.createTempFile(workDir, "command", ".log");
        builder.redirectOutput(log.toFile());
        Process process = builder.start();
        if (!process.waitFor(COMMAND_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", commandLine) + " did not finish within "
                    + COMMAND_TIMEOUT_MS / 1000 + " s: " + Files.readString(log, StandardCharsets.UTF_8));
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        return new Result(process.exitValue(), output);
    }

    /**
     * HOME and the locale of this process, docker's variables (a test may use another engine), and a
     * PATH of the system folders plus this JDK's bin: {@code libexec/jdk.sh} must find the JDK there.
     */
    private static Map<String, String> cleanEnvironment() {
        Map<String, String> environment = new HashMap<>();
        for (String kept : List.of("HOME", "LANG", "USER", "TMPDIR", "DOCKER_HOST", "WALDOCONF_DOCKER")) {
            String value = System.getenv(kept);
            if (value != null) {
                environment.put(kept, value);
            }
        }
        environment.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":/usr/local/bin:/usr/bin:/bin");
        return environment;
    }

    /** What a command did: its exit code and its output (both streams). */
    record Result(int exitCode, String output) {
    }
}
