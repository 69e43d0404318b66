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
    private static final String UNDO = "undo.";
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

    /**
     * A transaction that prepared on a service and whose outcome the service has not applied yet:
     * what the service holds if it commits, whom to ask for that outcome after a restart, and
     * the device's own undo data.
     *
     * @param record the service's record once the transaction commits
     * @param peers the transaction's other participants and coordinator, as {@link
     *     dev.waldo.runtime.BoundTransaction#peers()} names them (the runtime's storage keeps
     *     the vote; these name whom {@link dev.waldo.runtime.Host#recoverInDoubt} asks)
     * @param undo what the device held before the transaction pushed to it, or null if the
     *     service keeps no undo data here
     * @param <S> the state
     */
    public record PreparedChange<S>(TrialRecord<S> record, List<String> peers, S undo) {
        public PreparedChange {
            peers = List.copyOf(peers);
        }
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

    /**
     * The prepared transaction with its peers and undo data, or null; see {@link
     * #prepare(TrialRecord, List, Object)}.
     */
    public PreparedChange<S> preparedChange() throws IOException {
        if (!Files.exists(prepared)) {
            return null;
        }
        List<String> lines = readLines(prepared);
        List<String> peers = new ArrayList<>();
        List<String> undo = new ArrayList<>();
        boolean hasUndo = false;
        for (String line : lines) {
            if (line.startsWith("peer ")) {
                peers.add(line.substring("peer ".length()));
            } else if (line.startsWith(UNDO)) {
                undo.add(line.substring(UNDO.length()));
                hasUndo = true;
            } else if (line.equals("undo")) {
                hasUndo = true;  // undo data that holds no entry (an empty device)
            }
        }
        try {
            return new PreparedChange<>(parse(prepared, lines), peers, hasUndo ? format.parse(undo) : null);
        } catch (RuntimeException e) {
            throw new IOException(prepared + ": unreadable undo data: " + e.getMessage(), e);
        }
    }

    /** Records a prepared transaction, durably, before the service votes yes. */
    public void prepare(TrialRecord<S> record) throws IOException {
        write(prepared, record);
    }

    /**
     * Records a transaction before the device is touched and before the vote leaves, durably:
     * its record, whom to ask for its outcome after a restart, and what the device held before
     * ({@code undo}, or null if the transaction does not change the device), so a restarted
     * service can finish it either way.
     */
    public void prepare(TrialRecord<S> record, List<String> peers, S undo) throws IOException {
        StringBuilder text = new StringBuilder(format(record));
        peers.forEach(peer -> text.append("peer ").append(peer).append('\n'));
        if (undo != null) {
            text.append("undo\n");
            format.lines(undo).forEach(line -> text.append(UNDO).append(line).append('\n'));
        }
        DurableFile.replace(prepared, text.toString());
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
        return parse(file, readLines(file));
    }

    private static List<String> readLines(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
            throw new IOException(file + " is not a WaldoConf journal (first line should be '" + MAGIC
                    + "'); move it away to let the service adopt its device's current state");
        }
        return lines;
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
                    case "", "peer", "undo" -> { }  // a prepared change's peers and undo data: see preparedChange()
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
        if (line.startsWith(UNDO)) {
            return;  // read by preparedChange()
        }
        if (line.startsWith(INTENDED)) {
            intended.add(line.substring(INTENDED.length()));
        } else if (line.startsWith(BEFORE)) {
            before.add(line.substring(BEFORE.length()));
        } else {
            throw new IllegalArgumentException("unknown entry '" + line.split(" ", 2)[0] + "'");
        }
    }
}
