package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.config.HostPort;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.lab.LabClient;
import dev.waldoconf.lab.Prerequisite;
import dev.waldoconf.lab.snmp.Oids;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab up --containers} for real: the switch image built from this build's classes (nothing
 * pulled), two switch containers on host networking, the lab process with one service per switch,
 * a VLAN plan applied through the CLI, and {@code lab down} leaving no container behind. Skipped,
 * with the reason printed, when no Docker engine answers; failed instead when
 * {@code WALDO_EXPECT_DOCKER=1} says one should.
 */
@Timeout(300)
class LabContainersIT {
    @TempDir
    Path dir;

    @Test
    void upApplyStatusAndDownWithSwitchContainers() throws Exception {
        Docker docker = Docker.from(System.getenv());
        requireDocker(docker);
        String image = SwitchContainers.imageTag();
        boolean imageWasThere = exists(docker, image);
        String olderBuild = SwitchContainers.IMAGE_NAME + ":older-build";
        if (!imageWasThere) {
            buildStandIn(docker, olderBuild);  // the image of an earlier waldoconf build
        }
        Path labDir = dir.resolve("lab");
        CliContext context = CliContext.system();
        try {
            CliHarness.Result up = run(context, "lab", "up", "--containers", "--switches", "2", "--dir",
                    labDir.toString());
            assertThat(up.exitCode()).as(up.err()).isZero();
            if (!imageWasThere) {
                assertThat(exists(docker, olderBuild)).as("an earlier build's image is removed with a new build")
                        .isFalse();
            }
            assertThat(up.out()).contains("Started a lab of 2 switches in containers in " + labDir)
                    .contains("  lab-2  snmp 127.0.0.1:").contains("answering, VLANs [1]")
                    .contains("  container waldoconf-");
            assertThat(labContainers(docker, labDir)).hasSize(2);

            CliHarness.Result apply = run(context, "apply", Path.of("..", "configs", "vlan.yaml").toString(),
                    "--lab-dir", labDir.toString(), "--yes");
            assertThat(apply.exitCode()).as(apply.out() + apply.err()).isZero();
            assertThat(apply.out()).contains("Applied change");
            for (HostPort snmp : snmpAddresses(labDir)) {
                try (LabClient client = LabClient.v2c(new InetSocketAddress(snmp.host(), snmp.port()),
                        LabRunner.LAB_COMMUNITY, 3000)) {
                    assertThat(client.walk(Oids.DOT1Q_VLAN_STATIC_ROW_STATUS)).as("VLANs in the container at " + snmp)
                            .extracting(vb -> vb.getOid().last()).contains(10, 20);
                }
            }

            CliHarness.Result status = run(context, "lab", "status", "--dir", labDir.toString());
            assertThat(status.exitCode()).as(status.err()).isZero();
            assertThat(status.out()).contains("2 switches in containers; services running")
                    .contains("answering, VLANs [1, 10, 20").containsPattern("container waldoconf-\\w+-lab-1 \\(Up");

            CliHarness.Result down = run(context, "lab", "down", "--dir", labDir.toString());
            assertThat(down.exitCode()).as(down.err()).isZero();
            assertThat(down.out()).startsWith("Stopped the lab in " + labDir + " (2 switches in containers");
            assertThat(labContainers(docker, labDir)).as("containers left after lab down").isEmpty();
        } finally {
            run(context, "lab", "down", "--dir", labDir.toString());
            if (!imageWasThere) {
                docker.run("image", "rm", "-f", image);
                if (exists(docker, olderBuild)) {
                    docker.run("image", "rm", "-f", olderBuild);
                }
            }
        }
    }

    /** A tiny image labelled like the lab's switch images, standing in for one of an earlier build. */
    private void buildStandIn(Docker docker, String tag) throws IOException {
        Path context = Files.createDirectories(dir.resolve("stand-in"));
        Files.writeString(context.resolve("Dockerfile"), "FROM scratch\nCOPY Dockerfile /\n");
        docker.run("build", "-q", "--label", SwitchContainers.IMAGE_LABEL, "-t", tag, context.toString());
    }

    private static void requireDocker(Docker docker) {
        String reason = null;
        try {
            docker.requireEngine();
        } catch (CommandFailure e) {
            reason = e.getMessage();
        }
        Prerequisite.require(reason == null, "no Docker engine answers for the container lab test: " + reason,
                "WALDO_EXPECT_DOCKER", "start dockerd", System.getenv());
    }

    private static boolean exists(Docker docker, String image) {
        try {
            docker.run("image", "inspect", image);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static List<String> labContainers(Docker docker, Path labDir) throws IOException {
        return docker.run("ps", "-aq", "--filter", "label=" + SwitchContainers.DIR_LABEL + "="
                + labDir.toAbsolutePath().normalize()).lines().filter(line -> !line.isBlank()).toList();
    }

    private static List<HostPort> snmpAddresses(Path labDir) throws Exception {
        return InventoryLoader.load(labDir.resolve("inventory.yaml")).switches().stream()
                .map(dev.waldoconf.config.SwitchEntry::snmp).toList();
    }

    private static CliHarness.Result run(CliContext context, String... args) {
        return CliHarness.run(context, args);
    }
}
