package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import dev.waldo.net.Security;
import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.lab.Lab;
import dev.waldoconf.lab.ReservedPorts;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.service.Identities;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.service.SiteAgent;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A running lab: simulated switches (in this JVM, or one container each), the inventory that
 * describes them (one site, {@value #SITE}), and one WaldoConf service per switch, all run by the
 * site's agent in the lab process, behind one port.
 * {@code waldoconf lab run} holds one until the process is told to stop; tests hold one directly.
 */
final class LabRunner implements AutoCloseable {
    /** The lab switches' write community (the lab's default); the inventory reads it from a file. */
    static final String LAB_COMMUNITY = "private";
    /** Switch names are {@value #NAME_PREFIX}-1, -2, ... */
    static final String NAME_PREFIX = "lab";
    /** The lab's one site, whose agent serves every switch. */
    static final String SITE = "lab";

    private final LabDirectory directory;
    private final Switches switches;
    /** The switches' services, all running. */
    private final SiteAgent services;
    private final String servicesNote;

    private LabRunner(LabDirectory directory, Switches switches, SiteAgent services, String servicesNote) {
        this.directory = directory;
        this.switches = switches;
        this.services = services;
        this.servicesNote = servicesNote;
    }

    /** The switches, and how to stop them wherever they run. */
    private record Switches(List<LabSwitch> list, Runnable stop) {
        void close() {
            stop.run();
        }
    }

    /**
     * Starts the switches {@code spec} asks for (containers through {@code docker}), writes the
     * inventory, starts one service per switch with {@code waldoconf}, and records the lab as ready.
     */
    static LabRunner start(LabDirectory directory, LabSpec spec, WaldoConf waldoconf, Docker docker)
            throws IOException, ConfigException {
        Files.createDirectories(directory.switchState());
        writeCommunity(directory.community());
        String identities = spec.security() == Security.MUTUAL ? ensureOperator(directory) : "";
        Switches switches = spec.containers() ? containers(directory, spec, docker) : embedded(directory, spec);
        // The agent's port stays reserved until it listens, so that no other program can take it
        // between writing the inventory and binding (see ReservedPorts).
        try (ReservedPorts agentPort = ReservedPorts.reserve(InetAddress.getLoopbackAddress(), 1)) {
            Files.writeString(directory.inventory(), inventoryYaml(switches.list(), agentPort.ports().getFirst(),
                    spec.containers()));
            Files.writeString(directory.controlAddresses(), controlAddresses(switches.list()));
            Inventory inventory = InventoryLoader.load(directory.inventory());
            SiteAgent services = startServices(waldoconf, inventory, directory);
            String note = "services running" + switch (spec.security()) {
                case INSECURE -> " with TLS off (--insecure)";
                case SELF_SIGNED -> " trusting on first use (--tofu)";
                case MUTUAL -> " with certificates from the lab's CA" + identities;
            };
            LabRunner runner = new LabRunner(directory, switches, services, note);
            directory.write(new LabDirectory.Info(ProcessHandle.current().pid(), spec, "ready", note));
            return runner;
        } catch (IOException | ConfigException | RuntimeException e) {
            switches.close();
            throw e;
        }
    }

    /** Switches in this JVM. */
    private static Switches embedded(LabDirectory directory, LabSpec spec) throws IOException {
        Lab lab = Lab.start(spec.switches(), SwitchConfig.named(NAME_PREFIX).withProfile(spec.profile()),
                directory.switchState());
        List<LabSwitch> list = lab.switches().stream()
                .map(sw -> new LabSwitch(sw.name(), sw.snmpAddress(), sw.spec().portCount(), sw.controlAddress()))
                .toList();
        return new Switches(list, lab::close);
    }

    /** One container per switch; closing removes them. */
    private static Switches containers(LabDirectory directory, LabSpec spec, Docker docker) throws IOException {
        SwitchContainers containers = new SwitchContainers(docker, directory);
        String image = containers.ensureImage(new PrintWriter(System.out, true));
        List<LabSwitch> list = containers.start(image, spec.switches(), spec.profile(), spec.startTimeoutMs());
        return new Switches(list, () -> {
            try {
                containers.remove();
            } catch (IOException e) {
                // 'waldoconf lab down' removes them again by label; the lab's log says why they are still there.
                System.err.println("lab: could not remove the switch containers: " + e.getMessage()
                        + "; 'waldoconf lab down' tries again");
            }
        });
    }

    /**
     * The services of every lab switch as the lab site's agent in this process ({@code waldoconf serve
     * --site lab}). A lab whose services do not all run is of no use to an apply, so if one
     * cannot start, none runs and the lab does not start.
     *
     * @throws IOException naming the first switch whose service did not start, and why
     */
    private static SiteAgent startServices(WaldoConf waldoconf, Inventory inventory, LabDirectory directory)
            throws IOException {
        SiteAgent agent;
        try {
            agent = SiteAgent.start(inventory, SITE, directory.serviceState(),
                    waldoconf.agentNet(inventory, SITE, SiteAgent.agentDir(directory.serviceState(), SITE)),
                    Optional.empty(), SiteAgent.Settings.forSwitches(inventory.switches().size()), waldoconf::serve,
                    SiteAgent.Events.NONE);
        } catch (EngineException e) {
            throw new IOException("the lab's site agent did not start: " + e.getMessage()
                    + "; if a port was taken, start the lab again: its port is picked afresh", e);
        }
        Map<String, String> waiting = agent.waiting();
        if (waiting.isEmpty()) {
            return agent;
        }
        agent.close();
        Map.Entry<String, String> first = waiting.entrySet().iterator().next();
        throw new IOException("the service of switch " + first.getKey() + " did not start: " + first.getValue()
                + (waiting.size() > 1 ? " (and " + (waiting.size() - 1) + " more switches' services)" : "")
                + "; the lab's switches were stopped again. If a port was taken, start the lab again: its ports"
                + " are picked afresh");
    }

    /**
     * The lab's project CA (created on the lab's first start) and an operator certificate with the
     * change role for the local user, so that commands on the lab's inventory need no extra step.
     * The services get theirs from the same CA as they start.
     *
     * @return a note naming the operator, for the lab's status
     */
    private static String ensureOperator(LabDirectory directory) {
        var operator = Identities.operatorIn(directory.operatorState());
        if (operator.isEmpty()) {
            Identities.issueOperator(Identities.projectCa(directory.projectCa()), Identities.localOperatorName(),
                    false, directory.operatorState());
            operator = Identities.operatorIn(directory.operatorState());
        }
        return "; operator " + operator.orElseThrow().name();
    }

    /**
     * Writes the community through a temporary file that is owner-only from the call that creates it,
     * then renames it into place: the secret is never readable by others, not even for an instant.
     */
    static void writeCommunity(Path file) throws IOException {
        Path folder = file.toAbsolutePath().getParent();
        Path temporary = folder.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? Files.createTempFile(folder, "community.", ".tmp",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                // Not a POSIX file system (Windows): its ACLs already default to the owner.
                : Files.createTempFile(folder, "community.", ".tmp");
        try {
            Files.writeString(temporary, LAB_COMMUNITY + "\n");
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * The inventory of the lab's switches, in the format of configs/lab-inventory.yaml: every switch
     * in site {@value #SITE}, whose agent listens on 127.0.0.1 at {@code agentPort} (reserve it with
     * {@link ReservedPorts} and hold it until the agent listens).
     */
    static String inventoryYaml(List<LabSwitch> switches, int agentPort, boolean containers) {
        StringBuilder yaml = new StringBuilder()
                .append("# Written by `waldoconf lab up` at ").append(Instant.now()).append(": the local lab's ")
                .append(switches.size()).append(" simulated switches")
                .append(containers ? ", one container each" : "").append(", served by one site agent.\n")
                .append("# Stop them with `waldoconf lab down`. The format is explained in configs/lab-inventory.yaml.\n")
                .append("sites:\n")
                .append("  ").append(SITE).append(": {service: 127.0.0.1:").append(agentPort).append("}\n")
                .append("switches:\n");
        List<String> names = new ArrayList<>();
        for (LabSwitch sw : switches) {
            InetSocketAddress snmp = sw.snmp();
            yaml.append("  - name: ").append(sw.name()).append('\n')
                    .append("    site: ").append(SITE).append('\n')
                    .append("    snmp: ").append(snmp.getAddress().getHostAddress()).append(':')
                    .append(snmp.getPort()).append('\n')
                    .append("    version: '2c'\n")
                    .append("    credentials: lab\n")
                    .append("    ports: ").append(sw.ports()).append('\n');
            names.add(sw.name());
        }
        return yaml.append("groups:\n")
                .append("  access: [").append(String.join(", ", names)).append("]\n")
                .append("credentials:\n")
                .append("  lab:\n")
                .append("    community: {file: community}\n")
                .toString();
    }

    /**
     * Each switch's control interface, one {@code NAME HOST:PORT} line each, for scripts that set
     * faults (e.g. {@code echo "refuse 10 commitFailed" | nc HOST PORT}); the inventory has no place for it.
     */
    static String controlAddresses(List<LabSwitch> switches) {
        StringBuilder text = new StringBuilder();
        for (LabSwitch sw : switches) {
            if (sw.control() != null) {
                text.append(sw.name()).append(' ').append(sw.control().getAddress().getHostAddress()).append(':')
                        .append(sw.control().getPort()).append('\n');
            }
        }
        return text.toString();
    }

    /** What the lab says about its services. */
    String servicesNote() {
        return servicesNote;
    }

    /** Stops services and switches and removes the lab's record. */
    @Override
    public void close() {
        services.close();
        switches.close();
        try {
            directory.clear();
        } catch (IOException e) {
            // The record is stale now; readers check the pid, so a leftover file does no harm.
        }
    }
}
