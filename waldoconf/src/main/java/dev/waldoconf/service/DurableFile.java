package dev.waldoconf.service;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a small file so that a crash at any moment leaves either its old content or its new
 * content, never a mix: write a sibling {@code NAME.tmp}, sync it to disk, rename it over the file
 * atomically, then sync the directory so the rename itself survives a power loss.
 */
public final class DurableFile {
    /** The suffix of the temporary sibling; a crash may leave one behind, which readers ignore. */
    public static final String TEMPORARY_SUFFIX = ".tmp";

    private DurableFile() {
    }

    /** Replaces {@code file} with {@code content}, durably and atomically. */
    public static void replace(Path file, byte[] content) throws IOException {
        Path temporary = temporaryOf(file);
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = ByteBuffer.wrap(content);
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        rename(temporary, file);
    }

    /** Renames {@code from} over {@code to} atomically, durably. */
    public static void rename(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(to);
    }

    /** The temporary sibling {@link #replace} writes before renaming. */
    public static Path temporaryOf(Path file) {
        return file.resolveSibling(file.getFileName() + TEMPORARY_SUFFIX);
    }

    private static void syncDirectory(Path file) {
        Path directory = file.toAbsolutePath().getParent();
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some file systems cannot sync a directory; the rename is still atomic there.
        }
    }
}
