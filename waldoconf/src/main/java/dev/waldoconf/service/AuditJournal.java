package dev.waldoconf.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A service's record of every change that reached its switch: one line per change, written when
 * its outcome is known, with when, who, the outcome, the transaction and what it changed. The file
 * ({@value #FILE} in the service's network state directory) is only appended to; {@code waldoconf
 * log} reads it.
 *
 * <p>Each line holds the fields of an {@link Entry}, separated by tabs; tabs and line breaks inside
 * a field become spaces, so a line is always one entry.
 */
public final class AuditJournal {
    /** The journal's file name. */
    public static final String FILE = "audit.log";
    private static final int FIELDS = 6;

    private final Path file;
    /** Whether the directory is known to exist: checking it on every append cost a site agent a system call per switch and change. */
    private boolean directoryMade;

    /** The journal in {@code directory} (created on the first entry). */
    public AuditJournal(Path directory) {
        this.file = directory.resolve(FILE);
    }

    /** The journal's file. */
    public Path file() {
        return file;
    }

    /**
     * One change as the service saw it.
     *
     * @param at when its outcome was known
     * @param switchName the switch the service owns
     * @param who the identity that started the change, e.g. {@code operator-alice}, with " (unverified)"
     *     when no project CA vouched for it
     * @param outcome committed, backed out, or refused and why
     * @param transaction the transaction attempt's id
     * @param what the variables it changed, briefly
     */
    public record Entry(Instant at, String switchName, String who, String outcome, String transaction, String what) {
        String line() {
            return String.join("\t", at.toString(), clean(switchName), clean(who), clean(outcome), clean(transaction),
                    clean(what)) + "\n";
        }

        private static String clean(String field) {
            return field.replaceAll("[\\t\\r\\n]", " ");
        }
    }

    /** Appends {@code entry} and forces it to disk, so the record survives a crash right after the change. */
    public synchronized void append(Entry entry) {
        try {
            if (!directoryMade) {
                Files.createDirectories(file.toAbsolutePath().getParent());
                directoryMade = true;
            }
            Files.writeString(file, entry.line(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.SYNC);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the audit journal " + file, e);
        }
    }

    /**
     * Every entry in the journal, oldest first; an empty list when there is no journal yet.
     *
     * @throws IOException if the file cannot be read, or a line is not an entry (the message names the line)
     */
    public List<Entry> read() throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                entries.add(parse(lines.get(i), i + 1));
            }
        }
        return entries;
    }

    private Entry parse(String line, int number) throws IOException {
        String[] fields = line.split("\t", -1);
        try {
            if (fields.length == FIELDS) {
                return new Entry(Instant.parse(fields[0]), fields[1], fields[2], fields[3], fields[4], fields[5]);
            }
        } catch (DateTimeParseException e) {
            // Reported below with the line, like any other malformed line.
        }
        throw new IOException(file + ":" + number + ": not an audit entry (expected " + FIELDS
                + " tab-separated fields starting with a time)");
    }
}
