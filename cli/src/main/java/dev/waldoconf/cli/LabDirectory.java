package dev.waldoconf.cli;

import dev.waldoconf.lab.DeviceProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Properties;
import dev.waldo.net.Security;

/**
 * The folder of a local lab ({@code .waldoconf/lab} by default): the running lab's record
 * ({@code lab.properties}: pid, switch count, containers or not, how services authenticate, status), the inventory it wrote, the community file
 * that inventory refers to, the switches' state files and the lab's log. Any invocation of
 * {@code waldoconf} finds the lab through it.
 *
 * @param dir the folder
 */
record LabDirectory(Path dir) {
    /** The inventory of the lab's switches. */
    Path inventory() {
        return dir.resolve("inventory.yaml");
    }

    /** The running lab's record. */
    Path record() {
        return dir.resolve("lab.properties");
    }

    /** The SNMP community of the lab switches, referred to by the inventory. */
    Path community() {
        return dir.resolve("community");
    }

    /** Each switch's control interface ({@code NAME HOST:PORT} a line), written as the lab starts. */
    Path controlAddresses() {
        return dir.resolve("control-addresses");
    }

    /** Where the lab process writes its output. */
    Path log() {
        return dir.resolve("lab.log");
    }

    /** The switches' persisted state. */
    Path switchState() {
        return dir.resolve("switches");
    }

    /** The per-switch services' journals, TLS state and audit journals. */
    Path serviceState() {
        return dir.resolve("services");
    }

    /** The lab's own project CA, which issues its services' and its operator's certificates. */
    Path projectCa() {
        return dir.resolve("ca");
    }

    /**
     * The operator's TLS state for this lab: its certificate from the lab's CA (or, under
     * {@code --tofu}, the certificates of the lab's services it pinned).
     */
    Path operatorState() {
        return dir.resolve("operator");
    }

    /**
     * What lab.properties says about the lab.
     *
     * @param pid the lab process
     * @param spec what it runs: how many switches, whether in containers, whether with TLS off
     * @param status starting, ready or failed
     * @param message why it failed, or a note (e.g. services not started)
     */
    record Info(long pid, LabSpec spec, String status, String message) {
        /** How many switches it runs. */
        int switches() {
            return spec.switches();
        }

        /**
         * Whether the lab's process is alive. A stale record whose pid now belongs to another
         * program does not count, so {@code lab down} never stops a process it did not start.
         */
        boolean isAlive() {
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(Info::isLabProcess).orElse(false);
        }

        /** A lab in this JVM, or a process whose arguments say {@code lab run} (when the OS tells them). */
        private static boolean isLabProcess(ProcessHandle process) {
            if (process.pid() == ProcessHandle.current().pid()) {
                return true;
            }
            return process.info().arguments().map(arguments -> String.join(" ", arguments).contains("lab run"))
                    .orElse(true);
        }
    }

    /** The lab record, if there is one (running or stale). */
    Optional<Info> read() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(record())) {
            properties.load(in);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        try {
            LabSpec spec = new LabSpec(Integer.parseInt(properties.getProperty("switches", "0")),
                    Boolean.parseBoolean(properties.getProperty("containers")), security(properties),
                    profile(properties));
            return Optional.of(new Info(Long.parseLong(properties.getProperty("pid", "-1")), spec,
                    properties.getProperty("status", "unknown"), properties.getProperty("message", "")));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * How the lab's services authenticate: its record's {@code security}; a record from before
     * there was a project CA says only whether TLS was off, and its services trusted on first use.
     */
    private static Security security(Properties properties) {
        String security = properties.getProperty("security");
        if (security != null) {
            return Security.valueOf(security);
        }
        return Boolean.parseBoolean(properties.getProperty("insecure")) ? Security.INSECURE : Security.SELF_SIGNED;
    }

    /** The switches' device profile; a record from before there were profiles ran the fast one. */
    private static DeviceProfile profile(Properties properties) {
        return DeviceProfile.named(properties.getProperty("profile", DeviceProfile.FAST.name()))
                .withSeed(Long.parseLong(properties.getProperty("profileSeed", "" + DeviceProfile.DEFAULT_SEED)));
    }

    /** The lab record, if its process is alive. */
    Optional<Info> running() throws IOException {
        return read().filter(Info::isAlive);
    }

    /** Writes the record atomically, so a reader never sees half of it. */
    void write(Info info) throws IOException {
        Files.createDirectories(dir);
        Properties properties = new Properties();
        properties.setProperty("pid", Long.toString(info.pid()));
        properties.setProperty("switches", Integer.toString(info.switches()));
        properties.setProperty("containers", Boolean.toString(info.spec().containers()));
        properties.setProperty("security", info.spec().security().name());
        properties.setProperty("profile", info.spec().profile().name());
        properties.setProperty("profileSeed", Long.toString(info.spec().profile().seed()));
        properties.setProperty("status", info.status());
        properties.setProperty("message", info.message());
        Path temporary = dir.resolve("lab.properties.tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            properties.store(out, "waldoconf lab: written by the lab process, read by every waldoconf invocation");
        }
        Files.move(temporary, record(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Starts a lab with {@code launcher} unless one is running, holding a lock on the folder so
     * that two commands starting at once do not start two labs.
     *
     * @return the running lab's record, and whether this call started it
     */
    Started ensureRunning(LabLauncher launcher, LabSpec spec) throws IOException {
        Files.createDirectories(dir);
        // File locks are per process; threads of one JVM also queue on this monitor.
        synchronized (LabDirectory.class) {
            return ensureRunningLocked(launcher, spec);
        }
    }

    private Started ensureRunningLocked(LabLauncher launcher, LabSpec spec) throws IOException {
        try (FileChannel channel = FileChannel.open(dir.resolve("lab.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
            Optional<Info> running = running();
            if (running.isPresent()) {
                return new Started(running.get(), false);
            }
            launcher.start(dir, spec);
            return new Started(running().orElseThrow(() -> new IOException("the lab in " + dir
                    + " stopped right after starting; see " + log())), true);
        }
    }

    /**
     * The outcome of {@link #ensureRunning}.
     *
     * @param info the running lab
     * @param started whether it was started just now
     */
    record Started(Info info, boolean started) {
    }

    /** Removes the record (the lab stopped). */
    void clear() throws IOException {
        Files.deleteIfExists(record());
    }
}
