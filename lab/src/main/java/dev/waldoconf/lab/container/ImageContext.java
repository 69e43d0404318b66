package dev.waldoconf.lab.container;

import dev.waldoconf.lab.SwitchMain;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * Prepares the build context of the lab switch's container image, with nothing to pull: a
 * {@code FROM scratch} Dockerfile and a root file system holding a jlink-made Java runtime, the
 * few host libraries that runtime links to, and the shaded switch jar.
 *
 * <pre>
 * context/Dockerfile
 * context/rootfs/opt/java/...            jlink runtime (java.base, java.logging)
 * context/rootfs/opt/lab/lab-switch.jar   (or opt/lab/cp/0, 1, ...: the entries of a class path)
 * context/rootfs/lib/x86_64-linux-gnu/   libc, libm, libdl, libpthread, librt, libz
 * context/rootfs/lib64/ld-linux-x86-64.so.2
 * </pre>
 *
 * Run {@code docker build -t waldoconf-lab-switch <context>} on the result (or let Testcontainers do it).
 * {@code waldoconf lab up --containers} builds it from the class path it runs with
 * ({@link #switchClassPath()}), tagged by {@link #fingerprint(List)} so a changed switch gets a new image.
 */
public final class ImageContext {
    /** The modules the switch needs, as {@code jdeps --print-module-deps} reports them. */
    static final String MODULES = "java.base,java.logging";
    /** Where the jar sits inside the image. */
    static final String JAR_IN_IMAGE = "/opt/lab/lab-switch.jar";
    /** Where the entries of a class path sit inside the image: {@code /opt/lab/cp/0}, {@code 1}, ... */
    static final String CLASS_PATH_IN_IMAGE = "/opt/lab/cp/";
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
                        "-cp", "%s", "%s"]
            CMD ["--help"]
            """;

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
        Path rootfs = prepareRuntime(contextDir);
        Files.copy(shadedJar, rootfs.resolve(JAR_IN_IMAGE.substring(1)), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(contextDir.resolve("Dockerfile"), dockerfile(JAR_IN_IMAGE));
        return contextDir;
    }

    /**
     * Writes the build context into {@code contextDir} for a switch whose classes come from
     * {@code classPath} (jars or class folders, as {@link #switchClassPath()} finds them).
     *
     * @throws IOException as {@link #prepare(Path, Path)}, or when an entry of the class path is missing
     */
    public static Path prepare(List<Path> classPath, Path contextDir) throws IOException {
        Path rootfs = prepareRuntime(contextDir);
        List<String> inImage = new ArrayList<>();
        for (int i = 0; i < classPath.size(); i++) {
            Path entry = classPath.get(i);
            String target = CLASS_PATH_IN_IMAGE + i + (Files.isDirectory(entry) ? "" : ".jar");
            copyEntry(entry, rootfs.resolve(target.substring(1)));
            inImage.add(target);
        }
        Files.writeString(contextDir.resolve("Dockerfile"), dockerfile(String.join(":", inImage)));
        return contextDir;
    }

    /** The Dockerfile that runs the switch with {@code classPath} (colon-separated, as paths in the image). */
    static String dockerfile(String classPath) {
        return DOCKERFILE.formatted(classPath, SwitchMain.class.getName());
    }

    /** The runtime and host libraries every image holds; returns the root file system folder. */
    private static Path prepareRuntime(Path contextDir) throws IOException {
        Path rootfs = prepareRuntime(contextDir, MODULES);
        Files.createDirectories(rootfs.resolve("opt/lab"));
        return rootfs;
    }

    /**
     * Writes what any Java image built {@code FROM scratch} needs into {@code contextDir/rootfs}: a
     * jlink runtime of {@code modules} (comma-separated) in {@code /opt/java}, the host libraries it
     * links to, and a {@code /tmp} every user may write. Other images (the {@code waldoconf serve}
     * image of the distribution) add their own files beside it.
     *
     * @return the root file system folder
     * @throws IOException as {@link #prepare(Path, Path)}
     */
    public static Path prepareRuntime(Path contextDir, String modules) throws IOException {
        Path rootfs = contextDir.resolve("rootfs");
        Path tmp = Files.createDirectories(rootfs.resolve("tmp"));
        // Containers may run as the host user (so state files on a bind mount belong to them): /tmp must let them in.
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        jlink(rootfs.resolve("opt/java"), modules);
        copyHostLibraries(rootfs);
        return rootfs;
    }

    private static void copyEntry(Path entry, Path target) throws IOException {
        if (Files.isRegularFile(entry)) {
            Files.createDirectories(target.getParent());
            Files.copy(entry, target, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        if (!Files.isDirectory(entry)) {
            throw new IOException("class path entry " + entry + " of the lab switch is missing; rebuild waldoconf");
        }
        for (Path file : filesUnder(entry)) {
            Path copy = target.resolve(entry.relativize(file).toString());
            Files.createDirectories(copy.getParent());
            Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Where the switch's classes and its libraries (SNMP4J, SNMP4J-Agent) come from in this JVM:
     * one entry when it runs from a shaded jar, several (class folders, jars) when it runs from a build.
     */
    public static List<Path> switchClassPath() {
        Set<Path> entries = new LinkedHashSet<>();
        for (Class<?> type : List.of(SwitchMain.class, org.snmp4j.Snmp.class, org.snmp4j.agent.BaseAgent.class)) {
            try {
                entries.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()));
            } catch (URISyntaxException | NullPointerException e) {
                throw new IllegalStateException("cannot tell where " + type.getName() + " was loaded from", e);
            }
        }
        return List.copyOf(entries);
    }

    /**
     * A short hash of everything an image built from {@code classPath} holds that can change: the
     * class path's contents, this Java runtime's version (jlink copies it), the modules and the
     * Dockerfile. Equal fingerprints mean an existing image can be reused.
     */
    public static String fingerprint(List<Path> classPath) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        digest.update((Runtime.version() + "\n" + MODULES + "\n" + DOCKERFILE + "\n" + LIBRARIES)
                .getBytes(StandardCharsets.UTF_8));
        for (Path entry : classPath) {
            List<Path> files = Files.isDirectory(entry) ? filesUnder(entry) : List.of(entry);
            for (Path file : files) {
                digest.update(entry.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                try (InputStream in = Files.newInputStream(file)) {
                    in.transferTo(new DigestOutputStream(OutputStream.nullOutputStream(), digest));
                }
            }
        }
        return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    }

    /** The regular files under {@code dir}, in a stable order. */
    private static List<Path> filesUnder(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void jlink(Path output, String modules) throws IOException {
        ToolProvider jlink = ToolProvider.findFirst("jlink").orElseThrow(() -> new IOException(
                "jlink is not available in this Java runtime (" + System.getProperty("java.home")
                        + "); run with a JDK 21 or newer"));
        StringWriter log = new StringWriter();
        int status = jlink.run(new PrintWriter(log), new PrintWriter(log), "--add-modules", modules,
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
