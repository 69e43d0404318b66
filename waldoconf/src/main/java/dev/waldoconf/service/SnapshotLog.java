package dev.waldoconf.service;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * A small text file that changes often and must survive a crash whole: each new version is
 * appended to the file as a frame and synced, and the last whole frame is the current version.
 * A frame is a header line {@code #frame LENGTH CRC32C} (decimal length in bytes, the checksum in
 * hexadecimal) followed by the version's UTF-8 text.
 *
 * <p>Why not {@link DurableFile#replace} every time: creating the temporary file, renaming it and
 * syncing the directory cost 670 µs of CPU per write on the ext4 disk of our 2-core test machine,
 * against 190 µs to append and sync a frame (waldoconf/bench/RESULTS.md); a service journals three
 * times per change, and a 1,000-switch site agent spent 16 % of its CPU in those writes during an
 * apply.
 *
 * <p>The file is rewritten whole, with one frame, through {@link DurableFile#replace}: on the first
 * write, when it grows past {@link #COMPACT_AT} bytes, when it was written before frames existed
 * (a plain file, read as one version), and after a write that failed or a torn last frame (the
 * process died while appending), so nothing is ever appended after a broken frame. A broken frame
 * followed by whole ones is damage, not a torn write, and {@link #open} refuses it.
 *
 * <p>Not thread-safe: its owner writes it under its own lock.
 */
public final class SnapshotLog {
    /** The start of every frame's header line. */
    static final String HEADER = "#frame ";
    /** The size past which the next write rewrites the file with only the current version. */
    static final long COMPACT_AT = 64 * 1024;
    private static final byte[] HEADER_BYTES = HEADER.getBytes(StandardCharsets.US_ASCII);

    private final Path file;
    private final String current;
    /** The line of the file the current version starts on, counting from 1. */
    private final int currentLine;
    /** The file's size as this log last left it: when to compact. */
    private long size;
    /** Whether the next write must replace the file rather than append to it. */
    private boolean rewrite;

    private SnapshotLog(Path file, String current, int currentLine, long size, boolean rewrite) {
        this.file = file;
        this.current = current;
        this.currentLine = currentLine;
        this.size = size;
        this.rewrite = rewrite;
    }

    /**
     * Opens the log at {@code file} and reads its current version. A leftover temporary sibling
     * (a rewrite that never replaced the file) is deleted: the file holds the last whole version.
     *
     * @throws IOException if the file cannot be read, or holds frames but no whole first one, or
     *     a broken frame before whole ones (the message names the file and the byte offset)
     */
    public static SnapshotLog open(Path file) throws IOException {
        Files.deleteIfExists(DurableFile.temporaryOf(file));
        return load(file);
    }

    /**
     * The current version of the log at {@code file}, or null if there is none: for readers other
     * than its owner, which may be writing it meanwhile (a frame it is appending counts as torn).
     */
    public static String read(Path file) throws IOException {
        return load(file).current();
    }

    private static SnapshotLog load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return new SnapshotLog(file, null, 1, 0, true);
        }
        byte[] bytes = Files.readAllBytes(file);
        if (!startsWithHeader(bytes, 0)) {
            // Written whole before frames existed (or empty, which its owner may call damage): one
            // version, rewritten as a frame next time.
            return new SnapshotLog(file, new String(bytes, StandardCharsets.UTF_8), 1, bytes.length, true);
        }
        Frame last = null;
        int at = 0;
        while (at < bytes.length) {
            Frame frame = Frame.at(bytes, at);
            if (frame == null) {
                refuseDamage(file, bytes, at, last == null);
                break; // a torn last append: the next write rewrites the file
            }
            last = frame;
            at = frame.end;
        }
        String text = new String(bytes, last.start, last.end - last.start, StandardCharsets.UTF_8);
        return new SnapshotLog(file, text, lineOf(bytes, last.start), bytes.length, at < bytes.length);
    }

    /** The version that was current when the log was opened, or null if the file did not exist. */
    public String current() {
        return current;
    }

    /** The line of the file that {@link #current} starts on, counting from 1: for messages about its lines. */
    public int currentLine() {
        return currentLine;
    }

    /** Makes {@code text} the current version, durably: when this returns, a crash leaves it. */
    public void write(String text) throws IOException {
        byte[] frame = frame(text);
        if (!rewrite && size + frame.length <= COMPACT_AT && append(frame)) {
            size += frame.length;
            return;
        }
        rewrite = true;
        DurableFile.replace(file, frame);
        rewrite = false;
        size = frame.length;
    }

    /** Appends and syncs {@code frame}; false if the file is gone (the caller rewrites it). */
    private boolean append(byte[] frame) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ByteBuffer buffer = ByteBuffer.wrap(frame);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(false);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            rewrite = true; // part of the frame may be in the file: never append after it
            throw e;
        }
    }

    static byte[] frame(String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] header = (HEADER + body.length + " " + Long.toHexString(checksum(body, 0, body.length)) + "\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] frame = new byte[header.length + body.length];
        System.arraycopy(header, 0, frame, 0, header.length);
        System.arraycopy(body, 0, frame, header.length, body.length);
        return frame;
    }

    private static long checksum(byte[] bytes, int from, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, from, length);
        return crc.getValue();
    }

    private static int lineOf(byte[] bytes, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (bytes[i] == '\n') {
                line++;
            }
        }
        return line;
    }

    private static boolean startsWithHeader(byte[] bytes, int at) {
        if (bytes.length - at < HEADER_BYTES.length) {
            return false;
        }
        for (int i = 0; i < HEADER_BYTES.length; i++) {
            if (bytes[at + i] != HEADER_BYTES[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A broken frame at {@code at} is a torn last append only if it is not the first frame (the
     * first is always written whole, by a rename) and no whole frame follows it.
     */
    private static void refuseDamage(Path file, byte[] bytes, int at, boolean first) throws IOException {
        String whatToDo = "; the file was damaged after it was written. Keep a copy of it, compare the device with"
                + " what its last whole version says, then move the file away and start the service again";
        if (first) {
            throw new IOException(file + ": its first frame is broken, so it holds no whole version" + whatToDo);
        }
        for (int next = at + 1; next < bytes.length; next++) {
            if (bytes[next - 1] == '\n' && startsWithHeader(bytes, next) && Frame.at(bytes, next) != null) {
                throw new IOException(file + ": the frame at byte " + at + " is broken but whole ones follow it"
                        + whatToDo);
            }
        }
    }

    /** One whole frame: where its text starts in the file and where the next frame starts. */
    private record Frame(int start, int end) {
        /** The whole frame at {@code at}, or null if it is cut short, malformed or fails its checksum. */
        static Frame at(byte[] bytes, int at) {
            if (!startsWithHeader(bytes, at)) {
                return null;
            }
            int newline = at;
            while (newline < bytes.length && bytes[newline] != '\n') {
                newline++;
            }
            if (newline == bytes.length) {
                return null;
            }
            String[] fields = new String(bytes, at + HEADER_BYTES.length, newline - at - HEADER_BYTES.length,
                    StandardCharsets.US_ASCII).split(" ");
            try {
                int length = Integer.parseInt(fields[0]);
                long expected = Long.parseLong(fields[1], 16);
                int body = newline + 1;
                if (fields.length != 2 || length < 0 || length > bytes.length - body
                        || checksum(bytes, body, length) != expected) {
                    return null;
                }
                return new Frame(body, body + length); // only the last frame's text is decoded
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                return null;
            }
        }
    }
}
