package dev.waldoconf.lab;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the programs tests run (net-snmp's tools and {@code snmpd}) the way {@code bin/lib/prereqs.sh}
 * does: on {@code PATH} first, then in the sbin folders where daemons such as {@code snmpd} live
 * and which are not on a normal user's {@code PATH}. Public, and in the lab's test jar, so every
 * module's tests look in the same places as the script that sets {@code WALDO_EXPECT_SNMP}.
 */
public final class Executables {
    /** Folders searched after {@code PATH}, in order; the same list as {@code WALDO_SBIN_DIRS} in prereqs.sh. */
    public static final List<Path> SBIN_DIRS = List.of(Path.of("/usr/local/sbin"), Path.of("/usr/sbin"),
            Path.of("/sbin"));

    private Executables() {
    }

    /** {@code program} on this process's {@code PATH} or in {@link #SBIN_DIRS}. */
    public static Optional<Path> find(String program) {
        return find(program, System.getenv().getOrDefault("PATH", ""), SBIN_DIRS);
    }

    /** {@code program} in the first folder of {@code pathVariable} (colon-separated), then of {@code extraDirs}, that holds it as an executable file. */
    static Optional<Path> find(String program, String pathVariable, List<Path> extraDirs) {
        List<Path> dirs = new ArrayList<>();
        for (String entry : pathVariable.split(File.pathSeparator)) {
            try {
                if (!entry.isEmpty()) {
                    dirs.add(Path.of(entry));
                }
            } catch (InvalidPathException e) {
                // A PATH entry that is no path cannot hold the program.
            }
        }
        dirs.addAll(extraDirs);
        return dirs.stream().map(dir -> dir.resolve(program))
                .filter(candidate -> Files.isRegularFile(candidate) && Files.isExecutable(candidate)).findFirst();
    }

    /**
     * net-snmp's {@code snmpd}, or the calling test skipped (printing why) when it is not installed,
     * or failed when {@code WALDO_EXPECT_SNMP=1} says it should be.
     */
    public static Path requireSnmpd() {
        Optional<Path> snmpd = find("snmpd");
        Prerequisite.require(snmpd.isPresent(), "net-snmp's snmpd is neither on PATH nor in " + SBIN_DIRS,
                "WALDO_EXPECT_SNMP", "install it with 'apt-get install snmpd' (bin/test does so when run as root)",
                Map.copyOf(System.getenv()));
        return snmpd.orElseThrow();
    }
}
