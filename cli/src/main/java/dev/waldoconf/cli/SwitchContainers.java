package dev.waldoconf.cli;

import dev.waldoconf.lab.DeviceProfile;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.lab.container.ImageContext;
import dev.waldoconf.lab.container.ListeningAddresses;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The switch containers of one lab directory: the image they run (built here from local files if
 * missing, nothing pulled), starting them on host networking with free loopback ports, finding
 * them again from any later invocation (by label), and removing them.
 */
final class SwitchContainers {
    /** Image name; the tag is the fingerprint of what the image holds. */
    static final String IMAGE_NAME = "waldoconf-lab-switch";
    /** Label on every container of a lab: the lab directory's absolute path. */
    static final String DIR_LABEL = "dev.waldoconf.lab.dir";
    /** Marks the switch images this command builds, so that older ones can be found and removed. */
    static final String IMAGE_LABEL = "dev.waldoconf.lab.image=switch";
    /** Label on every container of a lab: the switch it runs. */
    static final String SWITCH_LABEL = "dev.waldoconf.lab.switch";
    /** How long an image build may take (jlink and copying the runtime). */
    static final long BUILD_TIMEOUT_MS = 600_000;
    private static final long POLL_MS = 200;

    private final Docker docker;
    private final LabDirectory lab;

    SwitchContainers(Docker docker, LabDirectory lab) {
        this.docker = docker;
        this.lab = lab;
    }

    /** The image this waldoconf's switch runs in: {@code waldoconf-lab-switch:<fingerprint>}. */
    static String imageTag() throws IOException {
        return IMAGE_NAME + ":" + ImageContext.fingerprint(ImageContext.switchClassPath());
    }

    /**
     * Builds the switch image unless it exists, saying so on {@code progress}.
     *
     * @return the image's tag
     */
    String ensureImage(PrintWriter progress) throws IOException {
        String tag = imageTag();
        try {
            docker.run("image", "inspect", "--format", "{{.Id}}", tag);
            return tag;
        } catch (Docker.NotInstalled e) {
            throw e;
        } catch (IOException missing) {
            // Not built yet for this waldoconf: build it below.
        }
        progress.println("Building the lab switch image " + tag + " from local files (once per waldoconf build;"
                + " nothing is pulled)...");
        progress.flush();
        Path context = Files.createTempDirectory("waldoconf-lab-image");
        try {
            ImageContext.prepare(ImageContext.switchClassPath(), context.resolve("ctx"));
            docker.run(BUILD_TIMEOUT_MS, "build", "-q", "--label", IMAGE_LABEL, "-t", tag,
                    context.resolve("ctx").toString());
        } finally {
            deleteTree(context);
        }
        removeOlderImages(tag, progress);
        return tag;
    }

    /**
     * Removes the switch images of earlier waldoconf builds (each build has its own tag), so they do
     * not pile up. One that a container still uses stays. Housekeeping only: a failure here never
     * stops the lab.
     */
    private void removeOlderImages(String current, PrintWriter progress) {
        List<String> older;
        try {
            older = docker.run("image", "ls", "--filter", "label=" + IMAGE_LABEL, "--format",
                    "{{.Repository}}:{{.Tag}}").lines().filter(image -> !image.equals(current)).toList();
        } catch (IOException e) {
            return;
        }
        int removed = 0;
        for (String image : older) {
            try {
                docker.run("image", "rm", image);
                removed++;
            } catch (IOException inUse) {
                // A container of another lab still runs it: it goes with a later build.
            }
        }
        if (removed > 0) {
            progress.println("Removed " + removed + " lab switch image(s) of earlier waldoconf builds.");
        }
    }

    /**
     * Starts switches {@code lab-1} to {@code lab-count} in containers of {@code image}, each
     * keeping its state in the lab's switch state folder, and returns once every one listens.
     * Containers left over from an earlier lab in this folder are removed first.
     *
     * @throws IOException when a container does not start or listen in time; the ones started are removed
     */
    List<LabSwitch> start(String image, int count, DeviceProfile profile, long timeoutMs) throws IOException {
        remove();
        Files.createDirectories(lab.switchState());
        Map<String, String> ids = new LinkedHashMap<>();
        try {
            for (int i = 1; i <= count; i++) {
                String name = LabRunner.NAME_PREFIX + "-" + i;
                ids.put(name, docker.run(runArguments(image, name, profile).toArray(String[]::new)));
            }
            long deadline = System.currentTimeMillis() + timeoutMs;
            List<LabSwitch> switches = new ArrayList<>();
            for (Map.Entry<String, String> container : ids.entrySet()) {
                ListeningAddresses addresses = awaitListening(container.getKey(), container.getValue(), deadline);
                switches.add(new LabSwitch(container.getKey(), addresses.snmp(), portCount(), addresses.control()));
            }
            return switches;
        } catch (IOException | RuntimeException e) {
            remove();
            throw e;
        }
    }

    /**
     * The {@code docker run} arguments of switch {@code name}: detached, labelled with the lab
     * folder, host networking (every port on the host's loopback, as the process lab's), running
     * as the owner of the state folder so the state files stay theirs, and ports chosen by the
     * switch (it prints them in its listening line); the switch answers as {@code profile} says.
     */
    List<String> runArguments(String image, String name, DeviceProfile profile) throws IOException {
        Path state = lab.switchState().toAbsolutePath();
        Object uid = Files.getAttribute(state, "unix:uid");
        Object gid = Files.getAttribute(state, "unix:gid");
        return List.of("run", "-d", "--name", containerName(name),
                "--label", DIR_LABEL + "=" + labKey(), "--label", SWITCH_LABEL + "=" + name,
                "--network", "host", "--user", uid + ":" + gid, "-v", state + ":" + state,
                image, "--name", name, "--host", "127.0.0.1", "--port", "0", "--control-port", "0",
                "--ports", Integer.toString(portCount()), "--state-file", state.resolve(name + ".state").toString(),
                "--profile", profile.name(), "--profile-seed", Long.toString(profile.seed()));
    }

    /** The container's name: unique per lab folder and switch, so two labs in two folders do not clash. */
    String containerName(String switchName) {
        return "waldoconf-" + hash(labKey()).substring(0, 8) + "-" + switchName;
    }

    /** The lab's containers by switch name, each as "NAME (STATUS)", e.g. {@code waldoconf-1a2b3c4d-lab-1 (Up 2 minutes)}. */
    Map<String, String> list() throws IOException {
        String rows = docker.run("ps", "-a", "--filter", "label=" + DIR_LABEL + "=" + labKey(), "--format",
                "{{.Label \"" + SWITCH_LABEL + "\"}}\t{{.Names}}\t{{.Status}}");
        Map<String, String> containers = new TreeMap<>(Comparator.comparingInt(SwitchContainers::number)
                .thenComparing(Comparator.naturalOrder()));
        for (String row : rows.lines().filter(line -> !line.isBlank()).toList()) {
            String[] columns = row.split("\t", 3);
            containers.put(columns[0], columns.length < 3 ? row : columns[1] + " (" + columns[2] + ")");
        }
        return containers;
    }

    /** Stops and removes every container of this lab; returns how many there were. */
    int remove() throws IOException {
        List<String> ids = docker.run("ps", "-aq", "--filter", "label=" + DIR_LABEL + "=" + labKey()).lines()
                .filter(line -> !line.isBlank()).toList();
        if (!ids.isEmpty()) {
            List<String> command = new ArrayList<>(List.of("rm", "-f"));
            command.addAll(ids);
            docker.run(command.toArray(String[]::new));
        }
        return ids.size();
    }

    /** Polls the container's log for its listening line (bounded by {@code deadline}). */
    private ListeningAddresses awaitListening(String name, String id, long deadline) throws IOException {
        while (true) {
            ListeningAddresses addresses = ListeningAddresses.find(docker.run("logs", id));
            if (addresses != null) {
                return addresses;
            }
            if (!"true".equals(docker.run("inspect", "--format", "{{.State.Running}}", id))) {
                throw new IOException("the container of switch " + name + " (" + containerName(name) + ") stopped: "
                        + logs(id));
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("switch " + name + " did not listen in its container " + containerName(name)
                        + " in time: " + logs(id));
            }
            sleep();
        }
    }

    /** The container's output (both streams), for a failure message. */
    private String logs(String id) {
        try {
            return docker.runMerged("logs", id).strip() + " (" + docker.run("inspect", "--format",
                    "{{.State.Status}}, exit code {{.State.ExitCode}}", id) + ")";
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void sleep() throws IOException {
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the switch containers", e);
        }
    }

    private static int portCount() {
        return SwitchConfig.named(LabRunner.NAME_PREFIX).spec().portCount();
    }

    /** lab-12 sorts after lab-2. */
    private static int number(String switchName) {
        int dash = switchName.lastIndexOf('-');
        try {
            return Integer.parseInt(switchName.substring(dash + 1));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    /** The lab folder as the label holds it: absolute and normalized, so every invocation names it alike. */
    private String labKey() {
        return lab.dir().toAbsolutePath().normalize().toString();
    }

    private static String hash(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
