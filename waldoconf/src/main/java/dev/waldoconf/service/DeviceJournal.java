package dev.waldoconf.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BinaryOperator;

/**
 * A device service's one durable journal, one file ({@value #FILE}) in its state directory: the
 * last committed {@link TrialRecord} (the state the device should hold, and the pending trial if
 * any), and, for every transaction that may have changed the device and has not ended here, the
 * device's undo data and the record it leaves if it commits. Whether a transaction voted yes
 * and whom to ask for its outcome is the runtime's to log ({@link dev.waldo.runtime.Host#restoredInDoubt});
 * this journal keeps only what the device needs. Every kind of device service keeps it (the VLAN
 * table, scalar objects), writing its states through a {@link StateFormat}.
 *
 * <p>Every change writes the whole journal as the new version of a {@link SnapshotLog} (appended
 * as a checked frame and synced; the file is rewritten with the last version alone now and then),
 * so a crash leaves the old journal or the new one. A version is plain text, one fact a line, so an
 * operator can read the file's last frame:
 * <pre>
 * #frame 412 5c2e9a0f
 * waldoconf-device-journal 3
 * committed.transaction 1.42
 * committed.intended name 10 voice
 * committed.intended tagged 10 1-4
 * committed.trial c7 1900000000 sw-a,sw-b
 * committed.before c7 no-vlan 10
 * committed.before c7 not-member 10 1-4
 * entry 1.43 prepared
 * undo
 * undo.name 20 -
 * record.transaction 1.43
 * ...
 * end 1
 * </pre>
 * A trial line is {@code trial CHANGE DEADLINE SWITCHES} (switches comma-separated, or '-'), and
 * each of its before lines starts with its change. The last line counts the entries, so a file
 * that was cut short is told apart from a complete one. Journals of earlier versions (a
 * {@code committed.journal}, {@code prepared.journal}, {@code scalar-undo.journal} or {@code trial/}
 * beside it, or a version 2 {@value #FILE}, which held one trial per service) are not migrated:
 * {@link #open} refuses to start on them rather than lose what they hold.
 *
 * <p>Not thread-safe: its binding calls it under its own lock.
 *
 * @param <S> the device state a transaction changes and undoes
 */
public final class DeviceJournal<S> {
    /** The journal's file name in its directory. */
    public static final String FILE = "device.journal";
    private static final String MAGIC = "waldoconf-device-journal 3";
    /** The first line of a journal of the version that kept one trial per service. */
    private static final String ONE_TRIAL_VERSION = "waldoconf-device-journal 2";
    private static final List<String> EARLIER_VERSIONS =
            List.of("committed.journal", "prepared.journal", "scalar-undo.journal", "trial");
    private static final String COMMITTED = "committed.";
    private static final String RECORD = "record.";
    private static final String UNDO = "undo.";

    private final Path file;
    private final SnapshotLog log;
    private final StateFormat<S> format;
    private TrialRecord<S> committed;
    /**
     * The committed record's lines as last written, or null before: most writes (every put and
     * remove) keep the committed record, and writing it again cost a site agent as much as all the
     * rest of its journal's text (a switch's whole intended configuration, at each of a change's
     * three writes). States are values, never changed once journaled, so the same record has the
     * same lines.
     */
    private String committedText;
    private final Map<String, Entry<S>> entries;

    /**
     * How one kind of device writes its state as journal lines and reads it back.
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

    /** How far a transaction got on the device; decides what a restart does with its entry. */
    public enum Stage {
        /** The undo data is journaled and the device may hold part of the change; no yes vote was sent. */
        PREPARING("preparing"),
        /** The device holds the change and the binding voted yes; only the runtime learns the outcome. */
        PREPARED("prepared"),
        /** The transaction was backed out, but putting the undo data back failed: the undo is owed. */
        BACKED_OUT("backed-out");

        private final String word;

        Stage(String word) {
            this.word = word;
        }

        /** The stage as the journal file spells it. */
        public String word() {
            return word;
        }

        static Stage of(String word) {
            for (Stage stage : values()) {
                if (stage.word.equals(word)) {
                    return stage;
                }
            }
            throw new IllegalArgumentException("unknown stage '" + word + "' (expected preparing, prepared or"
                    + " backed-out)");
        }
    }

    /**
     * One transaction that has not ended on the device.
     *
     * @param key the transaction's id ({@link dev.waldo.runtime.BoundTransaction#id()})
     * @param stage how far it got
     * @param undo what the device held before the transaction changed it, or null if it changes
     *     nothing on the device
     * @param record the record the service holds if the transaction commits, or null if it leaves
     *     the committed record as it is
     * @param <S> the device state
     */
    public record Entry<S>(String key, Stage stage, S undo, TrialRecord<S> record) {
        /** This entry at {@code next} stage. */
        public Entry<S> at(Stage next) {
            return new Entry<>(key, next, undo, record);
        }
    }

    private DeviceJournal(Path file, SnapshotLog log, StateFormat<S> format, TrialRecord<S> committed,
                          Map<String, Entry<S>> entries) {
        this.file = file;
        this.log = log;
        this.format = format;
        this.committed = committed;
        this.entries = entries;
    }

    /**
     * Opens the journal in {@code directory} (created if needed) and reads what a previous run left
     * there: the last whole version in the file (see {@link SnapshotLog#open}, which also deletes the
     * remains of a rewrite that never replaced the file).
     *
     * @throws IOException if the file cannot be read or is not a complete journal, or the directory
     *     holds a journal of an earlier WaldoConf version (each message names the file and what to do)
     */
    public static <S> DeviceJournal<S> open(Path directory, StateFormat<S> format) throws IOException {
        Files.createDirectories(directory);
        refuseEarlierVersions(directory);
        Path file = directory.resolve(FILE);
        SnapshotLog log = SnapshotLog.open(file);
        DeviceJournal<S> journal = new DeviceJournal<>(file, log, format, null, new LinkedHashMap<>());
        if (log.current() != null) {
            journal.parse(log.current().lines().toList());
        }
        return journal;
    }

    private static void refuseEarlierVersions(Path directory) throws IOException {
        for (String name : EARLIER_VERSIONS) {
            Path old = directory.resolve(name);
            if (Files.exists(old)) {
                throw new IOException(old + " is a journal of an earlier WaldoConf version, which this version does"
                        + " not read (it keeps one " + FILE + "). It may hold an unfinished change or a pending trial:"
                        + " finish those with the earlier version (confirm or roll back), or check by hand that the"
                        + " device holds what it should; then move " + old + " away and start the service again, and"
                        + " it adopts the device's current state");
            }
        }
    }

    /** The journal's file. */
    public Path file() {
        return file;
    }

    /** The last committed record, or null if the service never committed anything. */
    public TrialRecord<S> committed() {
        return committed;
    }

    /** Every transaction that has not ended on the device, oldest first. */
    public List<Entry<S>> entries() {
        return List.copyOf(entries.values());
    }

    /** The entry of {@code key}, if its transaction has not ended. */
    public Optional<Entry<S>> entry(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    /** Records {@code entry} durably, replacing an entry with the same key (and keeping its place). */
    public void put(Entry<S> entry) throws IOException {
        Map<String, Entry<S>> next = new LinkedHashMap<>(entries);
        next.put(entry.key(), entry);
        write(committed, next);
    }

    /** Forgets the entry of {@code key} durably: its transaction ended and the device holds no trace of it. */
    public void remove(String key) throws IOException {
        if (entries.containsKey(key)) {
            Map<String, Entry<S>> next = new LinkedHashMap<>(entries);
            next.remove(key);
            write(committed, next);
        }
    }

    /**
     * The transaction of {@code key} committed, in one durable write: its record (if it
     * carries one) is folded into the committed record by {@code fold} (committed, the entry's
     * record → the new committed record; see {@link DeviceAdapter#committedAfter}), its entry is
     * forgotten, and the undo data of the entries older than it is trimmed by {@code trimOlder}
     * (older undo, committed undo → what is left to undo, or null for nothing): a committed change
     * overrides whatever an older unfinished transaction would have put back on the same part of
     * the device.
     */
    public void commit(String key, BinaryOperator<S> trimOlder, BinaryOperator<TrialRecord<S>> fold)
            throws IOException {
        Entry<S> done = entries.get(key);
        if (done == null) {
            return;
        }
        Map<String, Entry<S>> next = new LinkedHashMap<>();
        boolean older = true;
        for (Entry<S> entry : entries.values()) {
            if (entry.key().equals(key)) {
                older = false;
                continue;
            }
            S undo = older && entry.undo() != null && done.undo() != null
                    ? trimOlder.apply(entry.undo(), done.undo()) : entry.undo();
            if (undo != null || entry.record() != null) {
                next.put(entry.key(), new Entry<>(entry.key(), entry.stage(), undo, entry.record()));
            }
        }
        write(done.record() != null ? fold.apply(committed, done.record()) : committed, next);
    }

    /**
     * Makes {@code record} the committed record and forgets the entry of {@code key} (null for none),
     * in one durable write: how a service adopts its device at first start, and ends an in-doubt
     * transaction whose outcome it worked out itself.
     */
    public void settle(String key, TrialRecord<S> record) throws IOException {
        Map<String, Entry<S>> next = new LinkedHashMap<>(entries);
        if (key != null) {
            next.remove(key);
        }
        write(record, next);
    }

    private void write(TrialRecord<S> nextCommitted, Map<String, Entry<S>> next) throws IOException {
        String nextCommittedText = nextCommitted == committed && committedText != null ? committedText
                : committedText(nextCommitted);
        log.write(format(nextCommittedText, next.values()));
        committed = nextCommitted;
        committedText = nextCommittedText;
        entries.clear();
        entries.putAll(next);
    }

    private String committedText(TrialRecord<S> record) {
        StringBuilder text = new StringBuilder();
        if (record != null) {
            appendRecord(text, COMMITTED, record);
        }
        return text.toString();
    }

    private String format(String committedLines, Iterable<Entry<S>> all) {
        StringBuilder text = new StringBuilder(MAGIC).append('\n').append(committedLines);
        int count = 0;
        for (Entry<S> entry : all) {
            count++;
            text.append("entry ").append(entry.key()).append(' ').append(entry.stage().word()).append('\n');
            if (entry.undo() != null) {
                text.append("undo\n");
                format.lines(entry.undo()).forEach(line -> text.append(UNDO).append(line).append('\n'));
            }
            if (entry.record() != null) {
                appendRecord(text, RECORD, entry.record());
            }
        }
        return text.append("end ").append(count).append('\n').toString();
    }

    private void appendRecord(StringBuilder text, String prefix, TrialRecord<S> record) {
        text.append(prefix).append("transaction ").append(record.transaction()).append('\n');
        format.lines(record.intended()).forEach(line -> text.append(prefix).append("intended ").append(line).append('\n'));
        for (TrialRecord.Trial<S> trial : record.trials()) {
            text.append(prefix).append("trial ").append(trial.change()).append(' ')
                    .append(trial.deadlineEpochSeconds()).append(' ')
                    .append(trial.switches().isEmpty() ? "-" : String.join(",", trial.switches())).append('\n');
            format.lines(trial.before()).forEach(line -> text.append(prefix).append("before ").append(trial.change())
                    .append(' ').append(line).append('\n'));
        }
    }

    private void parse(List<String> lines) throws IOException {
        String whatToDo = "; the device may hold part of an unfinished change: compare it with the undo data in"
                + " the file, put back what differs, then move the file away and start the service again";
        if (!lines.isEmpty() && lines.get(0).equals(ONE_TRIAL_VERSION)) {
            throw new IOException(file + " was written by an earlier WaldoConf version, which kept one trial per"
                    + " service; this version does not read it. Finish its pending trial with that version (confirm"
                    + " or roll it back), or check by hand that the device holds what it should; then move the file"
                    + " away and start the service again, and it adopts the device's current state");
        }
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
            throw new IOException(file + " is not a WaldoConf device journal (its first line should be '" + MAGIC
                    + "')" + whatToDo);
        }
        RecordLines committedLines = new RecordLines();
        EntryLines current = null;
        List<EntryLines> read = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            String[] fields = line.split(" ", 2);
            try {
                if (line.startsWith(COMMITTED)) {
                    committedLines.add(checked(line.substring(COMMITTED.length())));
                } else if (fields[0].equals("entry")) {
                    String[] entry = line.split(" ", -1);
                    if (entry.length != 3 || entry[1].isEmpty()) {
                        throw new IllegalArgumentException("expected 'entry KEY STAGE'");
                    }
                    current = new EntryLines(entry[1], Stage.of(entry[2]));
                    read.add(current);
                } else if (fields[0].equals("end")) {
                    if (Integer.parseInt(fields.length > 1 ? fields[1] : "") != read.size()) {
                        throw new IllegalArgumentException("it counts " + fields[1] + " entries, the file has "
                                + read.size());
                    }
                    if (i + 1 != lines.size()) {
                        throw new IllegalArgumentException("lines follow the 'end' line");
                    }
                    build(committedLines, read);
                    return;
                } else if (current == null) {
                    throw new IllegalArgumentException("unknown line kind '" + fields[0] + "'");
                } else if (line.equals("undo")) {
                    current.hasUndo = true;
                } else if (line.startsWith(UNDO)) {
                    current.undo.add(line.substring(UNDO.length()));
                    format.parse(List.of(line.substring(UNDO.length())));  // so a bad one is reported at its line
                } else if (line.startsWith(RECORD)) {
                    current.record.add(checked(line.substring(RECORD.length())));
                } else {
                    throw new IllegalArgumentException("unknown line kind '" + fields[0] + "'");
                }
            } catch (RuntimeException e) {
                throw new IOException(file + ":" + (log.currentLine() + i) + ": unreadable journal line '" + line + "': "
                        + e.getMessage() + whatToDo, e);
            }
        }
        throw new IOException(file + " ends early (it has no 'end' line), so it was cut short" + whatToDo);
    }

    /** {@code line} of a trial record, its state checked so that a bad one is reported at its line. */
    private String checked(String line) {
        if (line.startsWith("intended ")) {
            format.parse(List.of(line.substring(line.indexOf(' ') + 1)));
        } else if (line.startsWith("before ")) {
            format.parse(List.of(line.split(" ", 3)[2]));
        }
        return line;
    }

    private void build(RecordLines committedLines, List<EntryLines> read) {
        committed = committedLines.isEmpty() ? null : committedLines.record(format);
        for (EntryLines lines : read) {
            S undo = lines.hasUndo ? format.parse(lines.undo) : null;
            TrialRecord<S> record = lines.record.isEmpty() ? null : lines.record.record(format);
            entries.put(lines.key, new Entry<>(lines.key, lines.stage, undo, record));
        }
    }

    /** The lines of one trial record, without their prefix. */
    private static final class RecordLines {
        private String transaction;
        private final List<String> intended = new ArrayList<>();
        /** Per trial, in order: its line's fields (change, deadline, switches). */
        private final Map<String, String[]> trials = new LinkedHashMap<>();
        private final Map<String, List<String>> before = new LinkedHashMap<>();
        private boolean empty = true;

        void add(String line) {
            empty = false;
            String[] parts = line.split(" ", 2);
            String value = parts.length > 1 ? parts[1] : "";
            switch (parts[0]) {
                case "transaction" -> transaction = value;
                case "intended" -> intended.add(value);
                case "trial" -> {
                    String[] fields = value.split(" ");
                    if (fields.length != 3) {
                        throw new IllegalArgumentException("expected 'trial CHANGE DEADLINE SWITCHES'");
                    }
                    Long.parseLong(fields[1]);
                    trials.put(fields[0], fields);
                    before.put(fields[0], new ArrayList<>());
                }
                case "before" -> {
                    String[] fields = value.split(" ", 2);
                    List<String> lines = before.get(fields[0]);
                    if (lines == null || fields.length < 2) {
                        throw new IllegalArgumentException("a before line for trial '" + fields[0]
                                + "', which no trial line above names");
                    }
                    lines.add(fields[1]);
                }
                default -> throw new IllegalArgumentException("unknown record field '" + parts[0] + "'");
            }
        }

        boolean isEmpty() {
            return empty;
        }

        <S> TrialRecord<S> record(StateFormat<S> format) {
            if (transaction == null) {
                throw new IllegalArgumentException("a trial record without its transaction line");
            }
            List<TrialRecord.Trial<S>> read = new ArrayList<>();
            trials.forEach((change, fields) -> read.add(new TrialRecord.Trial<>(change, Long.parseLong(fields[1]),
                    fields[2].equals("-") ? List.of() : Arrays.asList(fields[2].split(",")),
                    format.parse(before.get(change)))));
            return new TrialRecord<>(transaction, format.parse(intended), read);
        }
    }

    /** The lines of one entry. */
    private static final class EntryLines {
        final String key;
        final Stage stage;
        boolean hasUndo;
        final List<String> undo = new ArrayList<>();
        final RecordLines record = new RecordLines();

        EntryLines(String key, Stage stage) {
            this.key = key;
            this.stage = stage;
        }
    }
}
