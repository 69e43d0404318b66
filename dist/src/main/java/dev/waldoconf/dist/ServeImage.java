package dev.waldoconf.dist;

import dev.waldoconf.lab.container.ImageContext;
import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The container image of {@code waldoconf serve}, built with the local Docker engine from the jars
 * this JVM runs with and nothing pulled: {@code FROM scratch}, a jlink runtime of this JDK and the
 * host's glibc (as the lab switch's image, {@link ImageContext}), the jars in {@code /opt/waldoconf/lib}.
 *
 * <p>The image runs as user {@value #USER} (not root) and keeps the services' journals, audit logs
 * and certificates in the volume {@value #STATE_DIR}, which that user owns. Its entry point is the
 * {@code waldoconf} command, so {@code docker run IMAGE serve --switch NAME --state-dir /var/lib/waldoconf
 * ...} serves a switch and {@code docker run IMAGE init --service NAME ...} issues a certificate.
 * Secrets (SNMP communities and keys, the TLS material) are files mounted by the deployment: the
 * inventory names them ({@code {file: PATH}}), nothing is baked into the image.
 */
public final class ServeImage {
    /** The uid and gid the image runs as: the conventional "nonroot" of distroless images. */
    static final String USER = "65532:65532";
    /** The volume for the services' state (one folder per switch under it). */
    static final String STATE_DIR = "/var/lib/waldoconf";
    /** Where the jars sit in the image. */
    static final String LIB_DIR = "/opt/waldoconf/lib";
    /** How long {@code docker build} may take (copying the runtime and the jars). */
    static final long BUILD_TIMEOUT_MS = 600_000;

    /**
     * The Dockerfile. The serial GC and a heap bounded by the container's memory suit one small
     * service per container; {@code --enable-native-access} keeps Netty's native transport quiet.
     */
    static final String DOCKERFILE = """
            # waldoconf serve. Built from local files only: FROM scratch, no registry.
            FROM scratch
            COPY rootfs/ /
            COPY --chown=%1$s state/ %2$s/
            USER %1$s
            WORKDIR %2$s
            VOLUME ["%2$s"]
            ENTRYPOINT ["/opt/java/bin/java", "-XX:+UseSerialGC", "-XX:MaxRAMPercentage=75", \\
                        "--enable-native-access=ALL-UNNAMED", "-cp", "%3$s/*", "dev.waldoconf.cli.Main"]
            CMD ["serve", "--help"]
            """;

    private ServeImage() {
    }

    /**
     * The Java modules the waldoconf command needs ({@code jdeps --print-module-deps} over its jars,
     * plus {@code jdk.compiler} for {@code serve --service FILE.wld}, which compiles the service at
     * start), and {@code jdk.crypto.ec} for TLS on JDKs that still ship it as a module of its own.
     */
    static String modules() {
        List<String> modules = new ArrayList<>(List.of("java.base", "java.compiler", "java.desktop",
                "java.management", "java.naming", "java.sql", "java.xml", "jdk.compiler", "jdk.jfr",
                "jdk.unsupported"));
        if (ModuleFinder.ofSystem().find("jdk.crypto.ec").isPresent()) {
            modules.add("jdk.crypto.ec");
        }
        return String.join(",", modules);
    }

    /**
     * Writes the build context for an image of the jars in {@code classPath} into {@code contextDir}.
     *
     * @throws IOException when jlink or a host library is missing, or a class path entry is not a jar
     */
    static Path prepare(List<Path> classPath, Path contextDir) throws IOException {
        // Checked before jlink runs, so a wrong class path fails at once.
        for (Path jar : classPath) {
            if (!Files.isRegularFile(jar) || !jar.getFileName().toString().endsWith(".jar")) {
                throw new IOException("class path entry " + jar + " is not a jar; build the image from the release"
                        + " (its bin/waldoconf-image), whose lib/ holds only jars");
            }
        }
        Path rootfs = ImageContext.prepareRuntime(contextDir, modules());
        Path lib = Files.createDirectories(rootfs.resolve(LIB_DIR.substring(1)));
        for (Path jar : classPath) {
            Files.copy(jar, lib.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.createDirectories(contextDir.resolve("state"));
        Files.writeString(contextDir.resolve("Dockerfile"), DOCKERFILE.formatted(USER, STATE_DIR, LIB_DIR),
                StandardCharsets.UTF_8);
        return contextDir;
    }

    /**
     * Builds the image: {@code ServeImage [--tag NAME:TAG] [--docker COMMAND]}, from the jars on this
     * JVM's class path. Prints the tag on success; exits 2 on bad usage and 5 when the build failed.
     */
    public static void main(String[] args) {
        String tag = "waldoconf-serve:" + version();
        String docker = System.getenv().getOrDefault("WALDOCONF_DOCKER", "docker");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--tag" -> tag = argument(args, ++i);
                case "--docker" -> docker = argument(args, ++i);
                default -> usage("unknown argument '" + args[i] + "'");
            }
        }
        try {
            build(classPath(), tag, docker);
            System.out.println(tag);
        } catch (IOException e) {
            System.err.println("error: could not build the image " + tag + ": " + e.getMessage());
            System.exit(5);
        }
    }

    /** Prepares a context in a temporary folder, runs {@code docker build} on it, and deletes the folder. */
    static void build(List<Path> classPath, String tag, String docker) throws IOException {
        Path context = Files.createTempDirectory("waldoconf-serve-image");
        try {
            prepare(classPath, context.resolve("ctx"));
            run(List.of(docker, "build", "-q", "--label", "dev.waldoconf.image=serve", "-t", tag,
                    context.resolve("ctx").toString()));
        } finally {
            deleteTree(context);
        }
    }

    /** The release's version (the jar manifest's), or "dev" when run from a build's class folders. */
    static String version() {
        String version = ServeImage.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    private static List<Path> classPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isBlank()).map(Path::of).toList();
    }

    private static void run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output;
        try (var in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            if (!process.waitFor(BUILD_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException("'" + String.join(" ", command) + "' took more than "
                        + BUILD_TIMEOUT_MS / 1000 + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while building the image", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("'" + String.join(" ", command) + "' failed with status " + process.exitValue()
                    + " (is a Docker engine running? 'docker info' tells): " + output.strip());
        }
    }

    private static String argument(String[] args, int index) {
        if (index >= args.length) {
            usage(args[index - 1] + " needs a value");
        }
        return args[index];
    }

    private static void usage(String problem) {
        System.err.println("error: " + problem);
        System.err.println("usage: waldoconf-image [--tag NAME:TAG] [--docker COMMAND]");
        System.exit(2);
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
