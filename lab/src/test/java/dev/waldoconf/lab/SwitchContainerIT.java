package dev.waldoconf.lab;

import static dev.waldoconf.lab.Q.CREATE_AND_GO;
import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.container.ImageContext;
import dev.waldoconf.lab.control.ControlClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.utility.DockerImageName;

/**
 * Lab switches as containers: an image built here from local files only (FROM scratch, jlink
 * runtime, shaded jar), several containers on host networking, driven over SNMP and the control
 * port. Skipped, with the reason printed, only when no Docker engine answers and none is expected.
 */
class SwitchContainerIT {
    private static final int CONTAINERS = 3;
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private static String imageName;
    private static final List<GenericContainer<?>> started = new ArrayList<>();

    @BeforeAll
    static void buildImage(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        requireDocker();
        Path context = ImageContext.prepare(Path.of(System.getProperty("lab.shadedJar")), dir.resolve("context"));
        String tag = "waldoconf-lab-switch-test:" + UUID.randomUUID().toString().substring(0, 8);
        imageName = new ImageFromDockerfile(tag, false)
                .withFileFromPath("Dockerfile", context.resolve("Dockerfile"))
                .withFileFromPath("rootfs", context.resolve("rootfs"))
                .get();
    }

    @AfterAll
    static void removeContainersAndImage() {
        started.forEach(GenericContainer::stop);
        if (imageName != null) {
            DockerClientFactory.instance().client().removeImageCmd(imageName).withForce(true).exec();
        }
    }

    private static void requireDocker() {
        Prerequisite.require(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker engine answers for the container tests", "WALDO_EXPECT_DOCKER",
                "start dockerd; Testcontainers also needs TESTCONTAINERS_RYUK_DISABLED=true and "
                        + "TESTCONTAINERS_HOST_OVERRIDE=localhost in the test JVM's environment", System.getenv());
    }

    private static GenericContainer<?> startSwitch(String name, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("--name", name, "--port", "0", "--control-port", "0"));
        args.addAll(List.of(extraArgs));
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(imageName))
                .withNetworkMode("host")
                .withCommand(args.toArray(String[]::new))
                .waitingFor(Wait.forLogMessage(".*lab switch " + name + " listening.*\\n", 1)
                        .withStartupTimeout(STARTUP));
        container.start();
        started.add(container);
        return container;
    }

    @Test
    void severalSwitchContainersAnswerSnmpOnLoopback() throws Exception {
        List<ListeningLine> switches = new ArrayList<>();
        for (int i = 1; i <= CONTAINERS; i++) {
            switches.add(ListeningLine.find(startSwitch("ct-" + i).getLogs()));
        }
        for (int i = 0; i < CONTAINERS; i++) {
            int vlan = 100 + i;
            try (LabClient client = LabClient.v3(switches.get(i).snmp(), UsmUserSpec.defaultSha256(), 3000)) {
                assertThat(client.set(Q.rowStatus(vlan, CREATE_AND_GO), Q.egress(vlan, 1, 2)).isOk()).isTrue();
                assertThat(client.walk(dev.waldoconf.lab.snmp.Oids.DOT1Q_VLAN_STATIC_ROW_STATUS))
                        .extracting(vb -> vb.getOid().last()).containsExactly(1, vlan);
            }
        }
    }

    @Test
    void faultsReachTheContainerThroughItsControlPort() throws Exception {
        GenericContainer<?> container = startSwitch("ct-faulty", "--quirks", "no-create-and-wait");
        ListeningLine addresses = ListeningLine.find(container.getLogs());
        try (ControlClient control = ControlClient.connect(addresses.control());
             LabClient client = LabClient.v2c(addresses.snmp(), "private", 3000)) {
            assertThat(client.set(Q.rowStatus(10, Q.CREATE_AND_WAIT)).errorName()).isEqualTo("wrongValue");
            control.command("refuse 10 commitFailed");
            assertThat(client.set(Q.rowStatus(10, CREATE_AND_GO)).errorName()).isEqualTo("commitFailed");
            control.command("clear");
            control.command("exit-after 1");
            assertThat(client.set(Q.rowStatus(10, CREATE_AND_GO)).isOk()).isTrue();
        }
        long exitCode = waitForExit(container);
        assertThat(exitCode).isEqualTo(SwitchMain.EXIT_FAULT);
    }

    /** Polls the container state until it exited (bounded), and returns its exit code. */
    private static long waitForExit(GenericContainer<?> container) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            var state = DockerClientFactory.instance().client().inspectContainerCmd(container.getContainerId()).exec()
                    .getState();
            if (!Boolean.TRUE.equals(state.getRunning())) {
                return state.getExitCodeLong();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("container " + container.getContainerId() + " still runs 20 s after exit-after");
    }
}
