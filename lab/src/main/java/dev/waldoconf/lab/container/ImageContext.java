package dev.waldoconf.lab.container;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.spi.ToolProvider;

/**
 * Prepares the build context of the lab switch's container image, with nothing to pull: a
 * {@code FROM scratch} Dockerfile and a root file system holding a jlink-made Java runtime, the
 * few host libraries that runtime links to, and the shaded switch jar.
 *
 * <pre>
 * context/Dockerfile
 * context/rootfs/opt/java/...            jlink runtime (java.base, java.logging)
 * context/rootfs/opt/lab/lab-switch.jar
 * context/rootfs/lib/x86_64-linux-gnu/   libc, libm, libdl, libpthread, librt, libz
 * context/rootfs/lib64/ld-linux-x86-64.so.2
 * </pre>
 *
 * Run {@code docker build -t waldoconf-lab-switch <context>} on the result (or let Testcontainers do it).
 */
public final class ImageContext {
    /** The modules the switch needs, as {@code jdeps --print-module-deps} reports them. */
    static final String MODULES = "java.base,java.logging";
    /** Where the jar sits inside the image. */
    static final String JAR_IN_IMAGE = "/opt/lab/lab-switch.jar";
    private static final Path HOST_LIBS = Path.of("/lib/x86_64-linux-gnu");
    private static final List<String> LIBRARIES = List.of("libc.so.6", "libdl.so.2", "libm.so.6", "libpthread.so.0",
            "librt.so.1", "libz.so.1");
    private static final Path LOADER = Path.of("/lib64/ld-linux-x86-64.so.2");

    /** The Dockerfile: small heap and serial GC, as dozens of switches may share a machine. */
    static final String DOCKERFILE = """
            # WaldoConf lab switch. Built from local files only: FROM scratch, no registry.
            FROM scratch
            COPY rootfs/ /
            ENTRYPOINT ["/opt/java/bin/java", "-XX:-UsePerfData", "-XX:+UseSerialGC", "-Xmx64m", "-Xss512k", \\
                        "-jar", "%s"]
            CMD ["--help"]
            """.formatted(JAR_IN_IMAGE);

    private ImageContext() {
    }

    /**
     * Writes the build context into {@code contextDir} (which must not exist yet or be empty).
     *
     * @param shadedJar the switch jar with its dependencies ({@code lab-*-switch.jar})
     * @throws IOException when jlink is missing (the running Java is not a JDK), fails, or a host
     *     library is missing; the message says which
     */
    public static Path prepare(Path shadedJar, Path contextDir) throws IOException {
        if (!Files.isRegularFile(shadedJar)) {
            throw new IOException("switch jar " + shadedJar + " not found; build it with ./mvnw -pl lab package");
        }
        Path rootfs = contextDir.resolve("rootfs");
        Files.createDirectories(rootfs.resolve("opt/lab"));
        Files.createDirectories(rootfs.resolve("tmp"));
        jlink(rootfs.resolve("opt/java"));
        Files.copy(shadedJar, rootfs.resolve(JAR_IN_IMAGE.substring(1)), StandardCopyOption.REPLACE_EXISTING);
        copyHostLibraries(rootfs);
        Files.writeString(contextDir.resolve("Dockerfile"), DOCKERFILE);
        return contextDir;
    }

    private static void jlink(Path output) throws IOException {
        ToolProvider jlink = ToolProvider.findFirst("jlink").orElseThrow(() -> new IOException(
                "jlink is not available in this Java runtime (" + System.getProperty("java.home")
                        + "); run with a JDK 21 or newer"));
        StringWriter log = new StringWriter();
        int status = jlink.run(new PrintWriter(log), new PrintWriter(log), "--add-modules", MODULES,
                "--strip-debug", "--no-header-files", "--no-man-pages", "--compress=zip-6",
                "--output", output.toString());
        if (status != 0) {
            throw new IOException("jlink failed with status " + status + ": " + log);
        }
    }

    private static void copyHostLibraries(Path rootfs) throws IOException {
        Path libDir = rootfs.resolve(HOST_LIBS.toString().substring(1));
        Files.createDirectories(libDir);
        for (String library : LIBRARIES) {
            copyResolved(HOST_LIBS.resolve(library), libDir.resolve(library));
        }
        Path loaderDir = rootfs.resolve(LOADER.getParent().toString().substring(1));
        Files.createDirectories(loaderDir);
        copyResolved(LOADER, loaderDir.resolve(LOADER.getFileName()));
    }

    /** Copies the file a (possibly symbolic) link points to, so the image holds no dangling links. */
    private static void copyResolved(Path source, Path target) throws IOException {
        if (!Files.exists(source)) {
            throw new IOException("host library " + source + " is missing; the image needs glibc and zlib "
                    + "from an x86-64 Debian-like system");
        }
        Files.copy(source.toRealPath(), target, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Prepares a context next to the running jar: {@code java -cp lab-switch.jar ...ImageContext <dir>}. */
    public static void main(String[] args) throws IOException, URISyntaxException {
        if (args.length != 1) {
            System.err.println("usage: java -cp lab-switch.jar " + ImageContext.class.getName() + " <context-dir>");
            System.exit(2);
        }
        Path jar = Path.of(ImageContext.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        System.out.println("image context ready: " + prepare(jar, Path.of(args[0])));
    }
}
