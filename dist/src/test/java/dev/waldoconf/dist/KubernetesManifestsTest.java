package dev.waldoconf.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.waldoconf.cli.CliContext;
import dev.waldoconf.cli.WaldoconfCommand;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.lab.Prerequisite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The Kubernetes manifests of {@code deploy/k8s}, checked offline: no cluster, no network.
 * {@code kubectl apply --dry-run=client} still asks an API server for its resource types, so it
 * cannot run here; instead {@code kubectl kustomize} renders the manifests (every document must
 * parse and be a Kubernetes object with a unique kind and name), and this test checks what a
 * cluster would only find at run time: the StatefulSet, its headless Service and its volumes
 * agree, every Secret and ConfigMap it mounts is there, the pods run as the image's non-root user,
 * the containers' arguments are accepted by waldoconf's own command line, and the inventory in the
 * ConfigMap passes waldoconf's inventory validation and names each pod's stable address.
 * Field names and types are not checked against the Kubernetes API schema (that needs a server).
 */
class KubernetesManifestsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static List<JsonNode> objects;

    @BeforeAll
    static void render() throws Exception {
        boolean kubectl = runs(List.of("kubectl", "version", "--client"));
        Prerequisite.require(kubectl, "kubectl is not installed for the Kubernetes manifest test",
                "WALDO_EXPECT_KUBECTL", "apt-get install kubernetes-client", System.getenv());
        Process process = new ProcessBuilder("kubectl", "kustomize", k8sDir().toString())
                .redirectErrorStream(true).start();
        process.getOutputStream().close();
        String rendered = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as("kubectl kustomize " + k8sDir() + ":\n" + rendered).isZero();
        objects = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(rendered)) {
            YAML.readValues(parser, JsonNode.class).forEachRemaining(objects::add);
        }
    }

    @Test
    void everyManifestIsAKubernetesObjectWithAUniqueName() {
        Set<String> seen = new HashSet<>();
        for (JsonNode object : objects) {
            assertThat(object.path("apiVersion").asText()).as(object.toString()).isNotEmpty();
            String id = object.path("kind").asText() + "/" + object.path("metadata").path("name").asText();
            assertThat(seen.add(id)).as("duplicate " + id).isTrue();
        }
        assertThat(seen).contains("Namespace/waldoconf", "ConfigMap/waldoconf-inventory", "Secret/waldoconf-ca",
                "Secret/waldoconf-snmp", "Service/waldoconf-agent", "StatefulSet/waldoconf-agent");
    }

    @Test
    void theStatefulSetHasAHeadlessServiceAndAJournalVolumePerPod() {
        JsonNode statefulSet = object("StatefulSet", "waldoconf-agent");
        JsonNode service = object("Service", statefulSet.at("/spec/serviceName").asText());
        assertThat(service.at("/spec/clusterIP").asText()).isEqualTo("None");
        JsonNode podLabels = statefulSet.at("/spec/template/metadata/labels");
        assertThat(statefulSet.at("/spec/selector/matchLabels")).isEqualTo(podLabels);
        assertThat(service.at("/spec/selector")).isEqualTo(podLabels);

        JsonNode claim = statefulSet.at("/spec/volumeClaimTemplates/0");
        assertThat(claim.at("/spec/accessModes/0").asText()).isEqualTo("ReadWriteOnce");
        JsonNode serve = container(statefulSet, "containers", "serve");
        assertThat(mountPath(serve, claim.at("/metadata/name").asText())).isEqualTo("/var/lib/waldoconf");
        List<String> args = arguments(serve);
        assertThat(args.get(args.indexOf("--state-dir") + 1)).as("serve's --state-dir is the claim's mount")
                .isEqualTo("/var/lib/waldoconf");
    }

    @Test
    void everyMountedVolumeExistsAndEverySecretAndConfigMapItNamesIsDeployed() {
        JsonNode pod = object("StatefulSet", "waldoconf-agent").at("/spec/template/spec");
        Set<String> volumes = new HashSet<>();
        pod.path("volumes").forEach(volume -> {
            volumes.add(volume.path("name").asText());
            if (volume.has("secret")) {
                object("Secret", volume.at("/secret/secretName").asText());
            }
            if (volume.has("configMap")) {
                object("ConfigMap", volume.at("/configMap/name").asText());
            }
        });
        object("StatefulSet", "waldoconf-agent").path("spec").path("volumeClaimTemplates")
                .forEach(claim -> volumes.add(claim.at("/metadata/name").asText()));
        for (String kind : List.of("initContainers", "containers")) {
            pod.path(kind).forEach(container -> container.path("volumeMounts").forEach(mount ->
                    assertThat(volumes).as(container.path("name").asText() + " mounts").contains(
                            mount.path("name").asText())));
        }
        assertThat(mountPath(container(object("StatefulSet", "waldoconf-agent"), "initContainers",
                "issue-certificate"), "ca")).isEqualTo("/etc/waldoconf/ca");
        assertThat(mountPath(container(object("StatefulSet", "waldoconf-agent"), "containers", "serve"), "ca"))
                .as("the long-running service does not get the CA key").isNull();
    }

    @Test
    void podsRunAsTheImagesNonRootUser() {
        JsonNode security = object("StatefulSet", "waldoconf-agent").at("/spec/template/spec/securityContext");
        assertThat(security.path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(security.path("runAsUser").asText() + ":" + security.path("runAsGroup").asText())
                .isEqualTo(ServeImage.USER);
        assertThat(security.path("fsGroup").asText()).isEqualTo(ServeImage.USER.split(":")[1]);
    }

    @Test
    void theContainersArgumentsAreAcceptedByWaldoconf() {
        JsonNode statefulSet = object("StatefulSet", "waldoconf-agent");
        for (JsonNode container : List.of(container(statefulSet, "initContainers", "issue-certificate"),
                container(statefulSet, "containers", "serve"))) {
            // Kubernetes expands $(POD_INDEX) from the pod-index label; pod 0 gets "0".
            String[] args = arguments(container).stream().map(arg -> arg.replace("$(POD_INDEX)", "0"))
                    .toArray(String[]::new);
            CommandLine waldoconf = WaldoconfCommand.newCommandLine(CliContext.system());
            CommandLine.ParseResult parsed = waldoconf.parseArgs(args);
            assertThat(parsed.subcommand()).as(String.join(" ", args)).isNotNull();
            assertThat(parsed.subcommand().unmatched()).as(String.join(" ", args)).isEmpty();
        }
    }

    @Test
    void theInventoryIsValidAndNamesEachPodsStableAddressAsItsSites(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("inventory.yaml");
        Files.writeString(file, object("ConfigMap", "waldoconf-inventory").at("/data/inventory.yaml").asText());
        Inventory inventory = InventoryLoader.load(file);
        JsonNode statefulSet = object("StatefulSet", "waldoconf-agent");
        int replicas = statefulSet.at("/spec/replicas").asInt();
        String port = container(statefulSet, "containers", "serve").at("/ports/0/containerPort").asText();
        // Pod N serves site rack-N ($(POD_INDEX) in its arguments), at its stable name in the headless Service.
        assertThat(inventory.sites()).hasSize(replicas);
        for (int i = 0; i < replicas; i++) {
            String site = "rack-" + i;
            assertThat(inventory.sites().get(site)).as(site).hasToString("waldoconf-agent-" + i
                    + ".waldoconf-agent.waldoconf.svc.cluster.local:" + port);
            assertThat(inventory.switchesOfSite(site)).as("switches of %s", site).isNotEmpty();
        }
        assertThat(inventory.switches()).allSatisfy(entry -> assertThat(entry.site()).isPresent());
    }

    private static JsonNode object(String kind, String name) {
        return objects.stream().filter(object -> object.path("kind").asText().equals(kind)
                        && object.at("/metadata/name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " named '" + name + "' in " + k8sDir()));
    }

    private static JsonNode container(JsonNode statefulSet, String kind, String name) {
        for (JsonNode container : statefulSet.at("/spec/template/spec/" + kind)) {
            if (container.path("name").asText().equals(name)) {
                return container;
            }
        }
        throw new AssertionError("no " + kind + " entry named '" + name + "' in the StatefulSet");
    }

    /** Where {@code container} mounts volume {@code volume}, or null when it does not. */
    private static String mountPath(JsonNode container, String volume) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("name").asText().equals(volume)) {
                return mount.path("mountPath").asText();
            }
        }
        return null;
    }

    private static List<String> arguments(JsonNode container) {
        List<String> args = new ArrayList<>();
        container.path("args").forEach(arg -> args.add(arg.asText()));
        return args;
    }

    private static Path k8sDir() {
        return Path.of(System.getProperty("deploy.dir", "../deploy"), "k8s").toAbsolutePath().normalize();
    }

    private static boolean runs(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
