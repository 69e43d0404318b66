package dev.waldoconf.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Starts a lab in the background so that it outlives the command that started it. */
@FunctionalInterface
public interface LabLauncher {
    /** How long a lab may take to start before {@code lab up} gives up (containers get more: {@link LabSpec}). */
    long START_TIMEOUT_MS = 60_000;

    /**
     * Starts the lab {@code spec} asks for, recorded in {@code dir}, and returns once its switches
     * answer (the lab's record says ready).
     *
     * @throws IOException when the lab did not start; the message says why and where its log is
     */
    void start(Path dir, LabSpec spec) throws IOException;

    /**
     * Starts the lab as a separate Java process running {@code waldoconf lab run}, with this
     * process's Java and class path, its output going to the lab's log.
     */
    static LabLauncher process() {
        return (dir, spec) -> {
            LabDirectory lab = new LabDirectory(dir);
            Files.createDirectories(dir);
            lab.clear();
            List<String> command = new ArrayList<>(newSession());
            command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"),
                    "bin", "java").toString()));
            // Netty loads its native transport; allowing it up front keeps JDK warnings out of the lab log.
            // A lab lives for a few commands, and C2 compiled its hot paths during the first apply at a
            // cost of more CPU than C1's code lost: about 25 CPU-s for an apply to 1,000 switches with C1
            // alone, 27-38 with both (bench/apply-vs-snmpset/RESULTS.md). For the same reason it collects with
            // the parallel collector: the lab is a load generator, pauses cost it nothing, and G1's barriers
            // and concurrent work cost the 1,000-switch apply's lab and operator about 6 CPU-s (15 %) more.
            command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC",
                    "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "lab", "run",
                    "--dir", dir.toString(), "--switches", Integer.toString(spec.switches()),
                    "--profile", spec.profile().name(), "--profile-seed", Long.toString(spec.profile().seed())));
            if (spec.containers()) {
                command.add("--containers");
            }
            String security = NetworkOptions.option(spec.security());
            if (!security.isEmpty()) {
                command.add(security);
            }
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(lab.log().toFile()).redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                    .start();
            awaitReady(lab, process, spec.startTimeoutMs());
        };
    }

    /**
     * {@code setsid}, where there is one: the lab gets a session of its own, so closing the
     * terminal (SIGHUP) or Ctrl-C at a later prompt of the command that started it does not
     * stop it. Without setsid the lab still runs, but shares the terminal's fate.
     */
    private static List<String> newSession() {
        for (String candidate : List.of("/usr/bin/setsid", "/bin/setsid")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return List.of(candidate);
            }
        }
        return List.of();
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** Polls the lab's record until it says ready, the process dies, or the time is up. */
    private static void awaitReady(LabDirectory lab, Process process, long timeoutMs) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            Optional<LabDirectory.Info> info = lab.read();
            // setsid may fork, so the lab's pid need not be the launched process's; the record was cleared first.
            if (info.isPresent() && info.get().status().equals("ready") && info.get().isAlive()) {
                return;
            }
            boolean launcherFailed = !process.isAlive() && process.exitValue() != 0;
            if (launcherFailed || info.map(i -> i.status().equals("failed")).orElse(false)) {
                throw new IOException("the lab did not start" + info.map(i -> ": " + i.message()).orElse("")
                        + "; see " + lab.log());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        process.destroy();
        throw new IOException("the lab did not start within " + timeoutMs / 1000 + " s; see " + lab.log());
    }
}
