package dev.waldo.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the last successful compilation of one program was made from, kept in a small file under
 * {@code target/}: a digest of the sources, the package and the compiler, and the Java files it
 * wrote. A program whose digest is unchanged and whose outputs are all still there is up to date
 * and is not compiled again; a program compiled again first deletes the files of its last run, so a
 * type removed from the {@code .wld} does not linger as a stale {@code .java} file.
 *
 * <p>The digest covers the compiler's own classes, so a new compiler (in this project's own
 * reactor, a rebuilt waldo-compiler) always regenerates.
 *
 * @param digest hex SHA-256 of everything the output depends on
 * @param outputs the generated files, relative to the output directory
 */
record BuildStamp(String digest, List<String> outputs) {
    private static final String DIGEST_LINE = "digest ";

    /** The stamp stored at {@code file}, or null if there is none or it cannot be read as one. */
    static BuildStamp read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).startsWith(DIGEST_LINE)) {
            return null;
        }
        return new BuildStamp(lines.get(0).substring(DIGEST_LINE.length()), lines.subList(1, lines.size()));
    }

    /** Writes the stamp to {@code file} through a temporary file and a rename, so it is whole or absent. */
    void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        List<String> lines = new ArrayList<>();
        lines.add(DIGEST_LINE + digest);
        lines.addAll(outputs);
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.write(partial, lines, StandardCharsets.UTF_8);
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Whether every output this stamp lists still exists under {@code outputDirectory}. */
    boolean outputsPresent(Path outputDirectory) {
        return outputs.stream().allMatch(output -> Files.isRegularFile(outputDirectory.resolve(output)));
    }

    /** The digest of a program: its package, each source's name and content, and the compiler. */
    static String digestOf(String javaPackage, List<Path> sources) throws IOException {
        MessageDigest sha = sha256();
        update(sha, "package " + javaPackage);
        for (Path source : sources) {
            update(sha, "file " + source.toAbsolutePath().normalize());
            sha.update(Files.readAllBytes(source));
        }
        update(sha, "compiler " + CompilerFingerprint.VALUE);
        return HexFormat.of().formatHex(sha.digest());
    }

    private static void update(MessageDigest sha, String text) {
        sha.update(text.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    /**
     * A digest of the compiler the plugin runs: its jar, or every class file when it is loaded from
     * a directory (a reactor build). Computed once per plugin class loader.
     */
    private static final class CompilerFingerprint {
        static final String VALUE = compute();

        private static String compute() {
            try {
                Path location = Path.of(dev.waldo.compiler.WaldoCompiler.class.getProtectionDomain()
                        .getCodeSource().getLocation().toURI());
                MessageDigest sha = sha256();
                if (Files.isDirectory(location)) {
                    try (Stream<Path> files = Files.walk(location)) {
                        for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                            update(sha, location.relativize(file).toString());
                            sha.update(Files.readAllBytes(file));
                        }
                    }
                } else {
                    sha.update(Files.readAllBytes(location));
                }
                return HexFormat.of().formatHex(sha.digest());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the Waldo compiler's classes", e);
            } catch (URISyntaxException | NullPointerException | SecurityException e) {
                // No readable code source: never call outputs up to date on a guess.
                return "unknown-" + System.nanoTime();
            }
        }
    }
}
