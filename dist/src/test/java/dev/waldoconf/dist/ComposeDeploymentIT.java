package dev.waldoconf.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.LabClient;
import dev.waldoconf.lab.Prerequisite;
import dev.waldoconf.lab.snmp.Oids;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Compose deployment of {@code deploy/compose} for real: the serve image built from the unpacked
 * release (nothing pulled), two site agents (two switches each) and four lab switches as containers on host
 * networking, {@code configs/vlan.yaml} applied from the host by the release's {@code waldoconf},
 * every switch read over SNMP, and {@code down -v} leaving no container, network, volume or image.
 * Skipped, with the reason printed, without a Docker engine or Compose; failed instead when
 * {@code WALDO_EXPECT_COMPOSE=1} (bin/test sets it when both answer) says they should be there.
 */
@Timeout(900)
class ComposeDeploymentIT {
    /** The switches of deploy/compose/inventory.yaml: SNMP ports 26101... */
    private static final int SWITCHES = 4;
    private static final int SNMP_PORT_BASE = 26100;
    /** Its sites, two switches each: the site agents listen on 27101 and 27102. */
    private static final int SITES = 2;
    private static final int SERVICE_PORT_BASE = 27100;
    /** The image's user, which must be able to read the mounted secrets. */
    private static final String IMAGE_USER = "65532:65532";
    // Generous: four JVMs start at once, and on a loaded 2-core machine each may take minutes.
    private static final int APPLY_ATTEMPTS = 3;
    private static final long READY_TIMEOUT_MS = 420_000;

    @TempDir
    Path dir;

    @Test
    void theComposeDeploymentAppliesAPlanToContainerizedAgentsAndLeavesNothingBehind() throws Exception {
        List<String> compose = requireCompose();
        requirePortsFree();
        Release release = Release.unpack(dir);
        String suffix = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        String image = "waldoconf-serve:it-" + suffix;
        String project = "waldoconf-it-" + suffix;
        Path deployment = copyDeployment(Path.of(System.getProperty("deploy.dir"), "compose"));
        Map<String, String> environment = Map.of("WALDOCONF_IMAGE", image);
        try {
            Release.Result build = release.run(dir, "waldoconf-image", "--tag", image);
            assertThat(build.exitCode()).as(build.output()).isZero();
            writeSecrets(release, deployment);

            Release.Result up = Release.run(deployment, environment, command(compose, project, "up", "-d"));
            assertThat(up.exitCode()).as(up.output()).isZero();
            awaitServices(deployment, compose, project, environment);

            Release.Result apply = apply(release, deployment);
            assertThat(apply.exitCode()).as(apply.output() + logs(deployment, compose, project, environment))
                    .isZero();
            assertThat(apply.output()).contains("Applied change").contains("to 4 switches");
            assertEverySwitchHasTheNewVlans();
        } finally {
            Release.Result down = Release.run(deployment, environment,
                    command(compose, project, "down", "-v", "--remove-orphans"));
            Release.run(dir, Map.of(), List.of("docker", "image", "rm", "-f", image));
            assertThat(down.exitCode()).as(down.output()).isZero();
        }
        assertNothingLeft(project, image);
    }

    /**
     * {@code waldoconf apply configs/vlan.yaml} from the host, as a user runs it. On a machine shared
     * with other builds a just-started agent can miss its first TLS handshake or heartbeat (3 s); an
     * apply that could not reach a service changed nothing, so it is run again, at most
     * {@value #APPLY_ATTEMPTS} times in all, each failure printed. Any other outcome is final.
     */
    private static Release.Result apply(Release release, Path deployment) throws Exception {
        Release.Result apply = null;
        for (int attempt = 1; attempt <= APPLY_ATTEMPTS; attempt++) {
            apply = release.run(deployment, "waldoconf", "apply",
                    release.home().resolve("configs/vlan.yaml").toString(), "-i", "inventory.yaml", "--yes");
            boolean unreached = apply.exitCode() == 3 && apply.output().contains("cannot reach the service of switch");
            if (!unreached) {
                break;
            }
            System.out.println("apply attempt " + attempt + " could not reach a service, nothing changed:\n"
                    + apply.output());
        }
        return apply;
    }

    /** {@code docker compose} when the engine has the plugin, else the {@code docker-compose} program. */
    private List<String> requireCompose() {
        String expect = "WALDO_EXPECT_COMPOSE";
        Prerequisite.require(runs(List.of("docker", "info")), "no Docker engine answers 'docker info' for the"
                + " Compose test", expect, "start dockerd", System.getenv());
        List<String> compose = runs(List.of("docker", "compose", "version")) ? List.of("docker", "compose")
                : List.of("docker-compose");
        Prerequisite.require(runs(List.of(compose.get(0), "version")), "neither 'docker compose' nor"
                + " 'docker-compose' is installed", expect, "apt-get install docker-compose", System.getenv());
        // The containers run as the image's user, which must own the secrets: only root can give them.
        Prerequisite.require("root".equals(System.getProperty("user.name")), "the Compose test gives the secrets"
                + " to the image's user " + IMAGE_USER + ", which needs root", expect, "run the tests as root",
                System.getenv());
        return compose;
    }

    private boolean runs(List<String> command) {
        try {
            return Release.run(dir, Map.of(), command).exitCode() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** The deployment's ports are fixed (its inventory names them): say so if something else holds one. */
    private static void requirePortsFree() {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        for (int i = 1; i <= SITES; i++) {
            try (ServerSocket agent = new ServerSocket(SERVICE_PORT_BASE + i, 1, loopback)) {
                assertThat(agent.isBound()).isTrue();
            } catch (IOException e) {
                throw portTaken((SERVICE_PORT_BASE + i) + "/tcp", e);
            }
        }
        for (int i = 1; i <= SWITCHES; i++) {
            try (DatagramSocket snmp = new DatagramSocket(new InetSocketAddress(loopback, SNMP_PORT_BASE + i))) {
                assertThat(snmp.isBound()).isTrue();
            } catch (IOException e) {
                throw portTaken((SNMP_PORT_BASE + i) + "/udp", e);
            }
        }
    }

    private static AssertionError portTaken(String port, IOException e) {
        return new AssertionError("port " + port + " on 127.0.0.1, which deploy/compose/inventory.yaml uses, is taken: "
                + e.getMessage() + "; stop what holds it (a leftover 'docker-compose up' of deploy/compose?)", e);
    }

    /** deploy/compose copied into the test's folder: the secrets it needs are written there, not in the source. */
    private Path copyDeployment(Path source) throws IOException {
        Path target = Files.createDirectories(dir.resolve("compose"));
        for (String file : List.of("compose.yaml", "inventory.yaml")) {
            Files.copy(source.resolve(file), target.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    /** The project CA and this operator's certificate (waldoconf init), the community, given to the image's user. */
    private static void writeSecrets(Release release, Path deployment) throws Exception {
        Release.Result init = release.run(deployment, "waldoconf", "init", "--ca-dir", "secrets/ca");
        assertThat(init.exitCode()).as(init.output()).isZero();
        Files.writeString(deployment.resolve("secrets/community"), "private\n");
        Release.Result chown = Release.run(deployment, Map.of(), List.of("chown", "-R", IMAGE_USER, "secrets"));
        assertThat(chown.exitCode()).as(chown.output()).isZero();
    }

    /**
     * Waits (bounded) until every site agent accepts connections on its site's port. An agent
     * listens before its switches' services have started; an apply that finds one not serving
     * yet changed nothing and is run again (see {@link #apply}).
     */
    private static void awaitServices(Path deployment, List<String> compose, String project,
                                      Map<String, String> environment) throws Exception {
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        for (int i = 1; i <= SITES; i++) {
            while (!listening(SERVICE_PORT_BASE + i)) {
                if (System.currentTimeMillis() > deadline) {
                    throw new AssertionError("agent of site-" + i + " did not listen on 127.0.0.1:"
                            + (SERVICE_PORT_BASE + i) + " within " + READY_TIMEOUT_MS / 1000 + " s"
                            + logs(deployment, compose, project, environment));
                }
                Thread.sleep(500);
            }
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void assertEverySwitchHasTheNewVlans() throws IOException {
        for (int i = 1; i <= SWITCHES; i++) {
            InetSocketAddress snmp = new InetSocketAddress(InetAddress.getLoopbackAddress(), SNMP_PORT_BASE + i);
            try (LabClient client = LabClient.v2c(snmp, "private", 3000)) {
                assertThat(client.walk(Oids.DOT1Q_VLAN_STATIC_ROW_STATUS)).as("VLANs of sw-" + i + " at " + snmp)
                        .extracting(binding -> binding.getOid().last()).contains(10, 20, 99).doesNotContain(30);
            }
        }
    }

    /** No container, network or volume of the project is left, nor the image the test built. */
    private void assertNothingLeft(String project, String image) throws Exception {
        String label = "label=com.docker.compose.project=" + project;
        for (List<String> listing : List.of(List.of("docker", "ps", "-aq", "--filter", label),
                List.of("docker", "network", "ls", "-q", "--filter", label),
                List.of("docker", "volume", "ls", "-q", "--filter", label),
                List.of("docker", "image", "ls", "-q", image))) {
            Release.Result left = Release.run(dir, Map.of(), listing);
            assertThat(left.exitCode()).as(left.output()).isZero();
            assertThat(left.output().strip()).as("left after down: " + String.join(" ", listing)).isEmpty();
        }
    }

    private static String logs(Path deployment, List<String> compose, String project,
                               Map<String, String> environment) {
        try {
            return "\ncontainer logs:\n" + Release.run(deployment, environment,
                    command(compose, project, "logs", "--no-color", "--tail", "30")).output();
        } catch (IOException | InterruptedException e) {
            return "\n(no container logs: " + e + ")";
        }
    }

    private static List<String> command(List<String> compose, String project, String... args) {
        List<String> command = new ArrayList<>(compose);
        command.addAll(List.of("-p", project, "-f", "compose.yaml"));
        command.addAll(List.of(args));
        return command;
    }
}
