package dev.waldoconf.product;

import static org.junit.jupiter.api.Assertions.fail;

import dev.waldoconf.lab.container.ImageContext;
import dev.waldoconf.lab.container.ListeningAddresses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.utility.DockerImageName;

/**
 * {@link AtomicChangeScenarios} on eight switch containers: the lab's image, built here from local
 * files only (FROM scratch, nothing pulled), on host networking so every port is on loopback.
 * Skipped, with the reason printed, when no Docker engine answers; failed instead when
 * {@code WALDO_EXPECT_DOCKER=1} says one should.
 */
@Timeout(180)
class ContainerLabChangeIT extends AtomicChangeScenarios {
    private static final int SWITCHES = 8;
    private static final Duration STARTUP = Duration.ofSeconds(120);

    private static String imageName;
    private static final List<GenericContainer<?>> containers = new ArrayList<>();
    private static final List<Fleet.Switch> switches = new ArrayList<>();

    @BeforeAll
    static void startSwitchContainers(@TempDir Path dir) throws Exception {
        requireDocker();
        Path jar = Path.of(System.getProperty("lab.shadedJar", "lab.shadedJar-not-set"));
        if (!Files.isRegularFile(jar)) {
            fail("the lab's switch jar " + jar + " is missing; build it with ./mvnw -pl lab package");
        }
        Path context = ImageContext.prepare(jar, dir.resolve("context"));
        String tag = "waldoconf-product-switch-test:" + UUID.randomUUID().toString().substring(0, 8);
        imageName = new ImageFromDockerfile(tag, false)
                .withFileFromPath("Dockerfile", context.resolve("Dockerfile"))
                .withFileFromPath("rootfs", context.resolve("rootfs"))
                .get();
        for (int i = 1; i <= SWITCHES; i++) {
            String name = "ct-" + i;
            GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(imageName))
                    .withNetworkMode("host")
                    .withCommand("--name", name, "--port", "0", "--control-port", "0")
                    .waitingFor(Wait.forLogMessage(".*lab switch " + name + " listening.*\\n", 1)
                            .withStartupTimeout(STARTUP));
            containers.add(container);
            container.start();
            ListeningAddresses addresses = ListeningAddresses.find(container.getLogs());
            switches.add(new Fleet.Switch(name, addresses.snmp(), addresses.control()));
        }
    }

    private static void requireDocker() {
        if (DockerClientFactory.instance().isDockerAvailable()) {
            return;
        }
        String reason = "no Docker engine answers for the container lab tests";
        String fix = "start dockerd; Testcontainers also needs TESTCONTAINERS_RYUK_DISABLED=true and "
                + "TESTCONTAINERS_HOST_OVERRIDE=localhost in the test JVM's environment";
        if ("1".equals(System.getenv("WALDO_EXPECT_DOCKER"))) {
            fail(reason + ", but WALDO_EXPECT_DOCKER=1 says one should; " + fix);
        }
        System.out.println("SKIPPED: " + reason + " (" + fix + ")");
        Assumptions.abort(reason);
    }

    @AfterAll
    static void removeContainersAndImage() {
        containers.forEach(GenericContainer::stop);
        if (imageName != null) {
            DockerClientFactory.instance().client().removeImageCmd(imageName).withForce(true).exec();
        }
    }

    @Override
    List<Fleet.Switch> switches() {
        return switches;
    }
}
