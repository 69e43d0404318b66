package dev.waldoconf.lab;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs net-snmp's command-line tools (Debian package {@code snmp}) against a lab switch. */
final class NetSnmp {
    private static final int TOOL_TIMEOUT_S = 20;

    /** What a tool printed and how it exited. */
    record Result(int exitCode, String output) {
        /** The "Reason:" line of a refused request, e.g. {@code inconsistentValue}, or empty. */
        String reason() {
            return output.lines().filter(l -> l.startsWith("Reason: ")).map(l -> l.substring(8).split(" ")[0])
                    .findFirst().orElse("");
        }

        /** The "Failed object:" OID of a refused request, numeric, without a leading dot. */
        String failedObject() {
            return output.lines().filter(l -> l.startsWith("Failed object: "))
                    .map(l -> l.substring(15).trim().replaceFirst("^\\.", "")).findFirst().orElse("");
        }
    }

    private final InetSocketAddress agent;
    private final List<String> securityArgs;
    private final Path home;

    private NetSnmp(InetSocketAddress agent, List<String> securityArgs, Path home) {
        this.agent = agent;
        this.securityArgs = securityArgs;
        this.home = home;
    }

    /**
     * Skips the calling test, printing why, when the tools are not installed; fails instead when
     * WALDO_EXPECT_SNMP=1 says they should be.
     */
    static void requireTools() {
        boolean present = List.of("snmpget", "snmpset", "snmpwalk", "snmpbulkwalk").stream()
                .allMatch(tool -> Executables.find(tool).isPresent());
        Prerequisite.require(present, "net-snmp tools (snmpget/snmpset/snmpwalk/snmpbulkwalk) are not all on PATH", "WALDO_EXPECT_SNMP",
                "install them with 'apt-get install snmp'", System.getenv());
    }

    /** v2c with a community. */
    static NetSnmp v2c(InetSocketAddress agent, String community, Path home) {
        return new NetSnmp(agent, List.of("-v2c", "-c", community), home);
    }

    /** v3 authPriv as {@code user}. */
    static NetSnmp v3(InetSocketAddress agent, UsmUserSpec user, Path home) {
        return new NetSnmp(agent, List.of("-v3", "-l", "authPriv", "-u", user.name(), "-a", user.auth().label(),
                "-A", user.authPassphrase(), "-x", user.priv().label(), "-X", user.privPassphrase()), home);
    }

    Result get(String... oids) throws IOException {
        return run("snmpget", oids);
    }

    Result walk(String oid) throws IOException {
        return run("snmpwalk", oid);
    }

    /** A walk with GETBULKs of {@code repetitions} max-repetitions each. */
    Result bulkWalk(String oid, int repetitions) throws IOException {
        return run("snmpbulkwalk", "-Cr" + repetitions, oid);
    }

    /** {@code snmpset} with triples of OID, net-snmp type letter and value. */
    Result set(String... oidTypeValue) throws IOException {
        return run("snmpset", oidTypeValue);
    }

    private Result run(String tool, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(tool, "-On", "-t", "2", "-r", "1"));
        command.addAll(securityArgs);
        command.add("udp:" + agent.getAddress().getHostAddress() + ":" + agent.getPort());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // Keep net-snmp's persistent files and config lookups inside the test's directory.
        builder.environment().put("SNMP_PERSISTENT_DIR", home.toString());
        builder.environment().put("SNMPCONFPATH", home.toString());
        builder.environment().put("MIBS", "");
        Process process = builder.start();
        try {
            if (!process.waitFor(TOOL_TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(tool + " did not finish within " + TOOL_TIMEOUT_S + " s: " + command);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + tool, e);
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8));
    }
}
