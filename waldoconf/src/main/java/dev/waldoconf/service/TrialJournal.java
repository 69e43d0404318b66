package dev.waldoconf.service;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A service's durable trial journal, in its state directory: the last committed
 * {@link TrialRecord} and, between prepare and the outcome, the prepared one.
 * Every write is synced to disk and replaces the file atomically, so a crash
 * leaves either the old record or the new one. Every kind of service keeps its
 * trials here: the journal writes the trial (change, deadline, switches) and
 * leaves the two states, the intended one and the one to revert to, to the
 * service's {@link StateFormat} (VLAN tables for a switch service, scalar
 * values for a custom one).
 *
 * <p>The files are plain text, one fact a line, so an operator can read them.
 *
 * @param <S> the state a trial changes and reverts
 */
public final class TrialJournal<S> {
    private static final String MAGIC = "waldoconf-journal 1";
    private static final String INTENDED = "intended.";
    private static final String BEFORE = "before.";
    private final Path committed;
    private final Path prepared;
    private final StateFormat<S> format;

    /**
     * How one kind of service writes its state as journal lines and reads it back.
     *
     * @param <S> the state
     */
    public interface StateFormat<S> {
        /** The state as lines {@code "ENTRY VALUE"}; ENTRY is a word, VALUE holds no newline. */
        List<String> lines(S state);

        /**
         * The state written as {@code lines} (each still {@code "ENTRY VALUE"}).
         *
         * @throws RuntimeException naming what is wrong in an unreadable line
         */
        S parse(List<String> lines);
    }

    /** A journal in {@code directory}, which is created if needed, writing states with {@code format}. */
    public TrialJournal(Path directory, StateFormat<S> format) throws IOException {
        Files.createDirectories(directory);
        this.committed = directory.resolve("committed.journal");
        this.prepared = directory.resolve("prepared.journal");
        this.format = format;
    }

    /** The last committed record, or null if the service never committed anything. */
    public TrialRecord<S> committed() throws IOException {
        return read(committed);
    }

    /** The record of a transaction that prepared but whose outcome was not recorded, or null. */
    public TrialRecord<S> prepared() throws IOException {
        return read(prepared);
    }

    /** Records a prepared transaction, durably, before the service votes yes. */
    public void prepare(TrialRecord<S> record) throws IOException {
        write(prepared, record);
    }

    /** The prepared transaction committed: its record becomes the committed one. */
    public void commit() throws IOException {
        if (Files.exists(prepared)) {
            DurableFile.rename(prepared, committed);
        }
    }

    /** The prepared transaction was backed out: forget its record. */
    public void abort() throws IOException {
        DurableFile.delete(prepared);
    }

    /** Replaces the committed record directly (recovery and adoption at start). */
    public void replaceCommitted(TrialRecord<S> record) throws IOException {
        write(committed, record);
        DurableFile.delete(prepared);
    }

    private void write(Path target, TrialRecord<S> record) throws IOException {
        DurableFile.replace(target, format(record));
    }

    String format(TrialRecord<S> record) {
        StringBuilder text = new StringBuilder(MAGIC).append('\n');
        text.append("transaction ").append(record.transaction()).append('\n');
        text.append("trial ").append(record.hasTrial() ? record.trial() : "-").append('\n');
        text.append("deadline ").append(record.deadlineEpochSeconds()).append('\n');
        text.append("switches ").append(String.join(",", record.switches())).append('\n');
        format.lines(record.intended()).forEach(line -> text.append(INTENDED).append(line).append('\n'));
        format.lines(record.before()).forEach(line -> text.append(BEFORE).append(line).append('\n'));
        return text.toString();
    }

    private TrialRecord<S> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
            throw new IOException(file + " is not a WaldoConf journal (first line should be '" + MAGIC
                    + "'); move it away to let the service adopt its device's current state");
        }
        return parse(file, lines);
    }

    private TrialRecord<S> parse(Path file, List<String> lines) throws IOException {
        String transaction = "";
        String trial = "";
        long deadline = 0;
        List<String> switches = List.of();
        List<String> intended = new ArrayList<>();
        List<String> before = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            String[] parts = line.split(" ", 2);
            String value = parts.length > 1 ? parts[1] : "";
            try {
                switch (parts[0]) {
                    case "transaction" -> transaction = value;
                    case "trial" -> trial = value.equals("-") ? "" : value;
                    case "deadline" -> deadline = Long.parseLong(value);
                    case "switches" -> switches = value.isEmpty() ? List.of() : Arrays.asList(value.split(","));
                    case "" -> { }
                    default -> stateLine(line, intended, before);
                }
            } catch (RuntimeException e) {
                throw new IOException(file + ":" + (i + 1) + ": unreadable journal line: " + e.getMessage(), e);
            }
        }
        try {
            return new TrialRecord<>(transaction, format.parse(intended), trial, deadline, switches,
                    format.parse(before));
        } catch (RuntimeException e) {
            throw new IOException(file + ": unreadable state: " + e.getMessage(), e);
        }
    }

    private static void stateLine(String line, List<String> intended, List<String> before) {
        if (line.startsWith(INTENDED)) {
            intended.add(line.substring(INTENDED.length()));
        } else if (line.startsWith(BEFORE)) {
            before.add(line.substring(BEFORE.length()));
        } else {
            throw new IllegalArgumentException("unknown entry '" + line.split(" ", 2)[0] + "'");
        }
    }
}
