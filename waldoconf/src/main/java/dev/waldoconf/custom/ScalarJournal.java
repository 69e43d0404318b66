package dev.waldoconf.custom;

import dev.waldoconf.service.DurableFile;
import dev.waldoconf.service.TrialJournal;
import dev.waldoconf.snmp.ScalarValue;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.snmp4j.smi.OID;

/**
 * A custom service's durable undo journal, one file in its state directory: for every transaction
 * that may have SET objects on the agent and is not finished, the objects' values from before it
 * (its pre-image) and how far it got ({@link Stage}). Every change rewrites the whole file through
 * {@link DurableFile#replace}, so a crash leaves the old journal or the new one; the file is
 * deleted once no transaction is left in it.
 *
 * <p>The file is plain text, one fact a line, so an operator can read it:
 * <pre>
 * waldoconf-scalar-journal 1
 * entry 3f9c2a1e/7.12 prepared
 * peer switch-agent-2
 * peer operator-7f3a
 * pre-image 1.3.6.1.2.1.1.6.0 text rack%204
 * pre-image 1.3.6.1.4.1.32473.1.0 number 7
 * end 1
 * </pre>
 * Text values and host ids are URL-encoded. {@code peer} lines name the hosts to ask for the
 * outcome of an entry in doubt (the transaction's other participants and its coordinator); a
 * journal written before they existed has none. The last line counts the entries, so a file that was cut short
 * (copied half, or damaged) is told apart from a complete one.
 *
 * <p>Not thread-safe: {@link ScalarSnmpBinding} calls it under its own lock.
 */
public final class ScalarJournal {
    private static final String MAGIC = "waldoconf-scalar-journal 1";
    private static final String TEXT = "text";
    private static final String NUMBER = "number";
    private static final Pattern DOTTED_OID = Pattern.compile("[0-9]+(\\.[0-9]+)+");

    private final Path file;
    private final Map<String, Entry> entries;

    /** How far a transaction got on this service; decides what a restart does with its entry. */
    public enum Stage {
        /** Prepare began and may have SET some objects; no yes vote was sent. A restart undoes it. */
        PREPARING("preparing"),
        /** Prepare SET every object and voted yes; only the other participants know the outcome (in doubt). */
        PREPARED("prepared"),
        /** The transaction was backed out, but putting the pre-image back failed; the undo is owed. */
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
     * What one object held before a transaction SET it.
     *
     * @param oid the scalar's instance OID
     * @param old the value to put back on undo
     */
    public record PreImage(OID oid, ScalarValue old) {
    }

    /**
     * One unfinished transaction.
     *
     * @param key the transaction's id, prefixed with the service run that prepared it (ids restart
     *     with the process, so two runs may hand out the same one)
     * @param stage how far it got
     * @param preImages the objects it may have SET, in the order it SETs them
     * @param peers the host ids to ask for its outcome should it be in doubt after a restart
     *     ({@link dev.waldo.runtime.BoundTransaction#peers()}); empty if unknown
     */
    public record Entry(String key, Stage stage, List<PreImage> preImages, List<String> peers) {
        /** Copies the pre-images and peers. */
        public Entry {
            preImages = List.copyOf(preImages);
            peers = List.copyOf(peers);
        }

        /** An entry that names no peers. */
        public Entry(String key, Stage stage, List<PreImage> preImages) {
            this(key, stage, preImages, List.of());
        }

        /** This entry at {@code next} stage. */
        public Entry at(Stage next) {
            return new Entry(key, next, preImages, peers);
        }

        /** This entry without the pre-images of {@code oids}. */
        Entry without(Set<OID> oids) {
            return new Entry(key, stage, preImages.stream().filter(p -> !oids.contains(p.oid())).toList(), peers);
        }

        /** The transaction's id as the runtime names it: the key without the service run's tag. */
        public String transactionId() {
            return key.substring(key.indexOf('/') + 1);
        }
    }

    private ScalarJournal(Path file, Map<String, Entry> entries) {
        this.file = file;
        this.entries = entries;
    }

    /**
     * Opens the journal in {@code file}, creating its directory if needed, and reads what a previous
     * run left there. A {@code .tmp} sibling is the remains of a write that never replaced the file;
     * it is deleted, since the file itself holds the last complete journal.
     *
     * @throws IOException if the file cannot be read, or is not a complete journal (the message names
     *     the file, the line, and what to do)
     */
    public static ScalarJournal open(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(DurableFile.temporaryOf(file));
        Map<String, Entry> entries = new LinkedHashMap<>();
        if (Files.exists(file)) {
            for (Entry entry : parse(file, Files.readAllLines(file, StandardCharsets.UTF_8))) {
                entries.put(entry.key(), entry);
            }
        }
        return new ScalarJournal(file, entries);
    }

    /** The journal's file. */
    public Path file() {
        return file;
    }

    /** Every unfinished transaction, oldest first. */
    public List<Entry> entries() {
        return List.copyOf(entries.values());
    }

    /** The entry of {@code key}, if it is unfinished. */
    public Optional<Entry> entry(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    /** Records {@code entry} durably, replacing an entry with the same key (and keeping its place). */
    public void put(Entry entry) throws IOException {
        Map<String, Entry> next = new LinkedHashMap<>(entries);
        next.put(entry.key(), entry);
        write(next);
    }

    /** Forgets the entry of {@code key} durably: its transaction is finished. */
    public void remove(String key) throws IOException {
        if (entries.containsKey(key)) {
            Map<String, Entry> next = new LinkedHashMap<>(entries);
            next.remove(key);
            write(next);
        }
    }

    /**
     * Forgets the entry of {@code key}, which committed, and the pre-images that entries older than
     * it hold of the objects it SET: a committed value overrides whatever an older unfinished
     * transaction would have put back there. Entries left without pre-images are forgotten too.
     */
    public void commit(String key) throws IOException {
        Entry committed = entries.get(key);
        if (committed == null) {
            return;
        }
        Set<OID> overridden = oids(committed.preImages());
        Map<String, Entry> next = new LinkedHashMap<>();
        boolean older = true;
        for (Entry entry : entries.values()) {
            older = older && !entry.key().equals(key);
            Entry rest = older ? entry.without(overridden) : entry;
            if (!entry.key().equals(key) && !rest.preImages().isEmpty()) {
                next.put(rest.key(), rest);
            }
        }
        write(next);
    }

    /** The keys of the entries newer than {@code key}'s that hold a pre-image of one of its objects. */
    public List<String> newerOnTheSameObjects(String key) {
        Entry entry = entries.get(key);
        if (entry == null) {
            return List.of();
        }
        Set<OID> objects = oids(entry.preImages());
        List<String> newer = new ArrayList<>();
        boolean after = false;
        for (Entry other : entries.values()) {
            if (after && other.preImages().stream().anyMatch(p -> objects.contains(p.oid()))) {
                newer.add(other.key());
            }
            after = after || other.key().equals(key);
        }
        return newer;
    }

    private static Set<OID> oids(Collection<PreImage> preImages) {
        return Set.copyOf(preImages.stream().map(PreImage::oid).toList());
    }

    private void write(Map<String, Entry> next) throws IOException {
        if (next.isEmpty()) {
            DurableFile.delete(file);
        } else {
            DurableFile.replace(file, format(next.values()));
        }
        entries.clear();
        entries.putAll(next);
    }

    static String format(Collection<Entry> entries) {
        StringBuilder text = new StringBuilder(MAGIC).append('\n');
        for (Entry entry : entries) {
            text.append("entry ").append(entry.key()).append(' ').append(entry.stage().word()).append('\n');
            for (String peer : entry.peers()) {
                text.append("peer ").append(URLEncoder.encode(peer, StandardCharsets.UTF_8)).append('\n');
            }
            for (PreImage preImage : entry.preImages()) {
                text.append(line(preImage)).append('\n');
            }
        }
        return text.append("end ").append(entries.size()).append('\n').toString();
    }

    private static String line(PreImage preImage) {
        return "pre-image " + preImage.oid().toDottedString() + " " + value(preImage.old());
    }

    /**
     * How a custom service's {@link TrialJournal} writes scalar values: one {@code pre-image OID
     * text|number VALUE} line each, as in this journal.
     */
    static final TrialJournal.StateFormat<List<PreImage>> VALUES = new TrialJournal.StateFormat<>() {
        @Override
        public List<String> lines(List<PreImage> values) {
            return values.stream().map(ScalarJournal::line).toList();
        }

        @Override
        public List<PreImage> parse(List<String> lines) {
            return lines.stream().map(line -> preImage(line.split(" ", -1))).toList();
        }
    };

    private static String value(ScalarValue value) {
        return switch (value) {
            case ScalarValue.Text text -> TEXT + " " + URLEncoder.encode(text.value(), StandardCharsets.UTF_8);
            case ScalarValue.Number number -> NUMBER + " " + number.value();
        };
    }

    private static List<Entry> parse(Path file, List<String> lines) throws IOException {
        String whatToDo = "; the agent may hold part of an unfinished change: compare it with the pre-images"
                + " in the file, put back what differs, then move the file away and start the service again";
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
            throw new IOException(file + " is not a WaldoConf scalar journal (its first line should be '" + MAGIC
                    + "')" + whatToDo);
        }
        List<Entry> entries = new ArrayList<>();
        EntryBuilder current = null;
        for (int i = 1; i < lines.size(); i++) {
            String[] fields = lines.get(i).split(" ", -1);
            try {
                switch (fields[0]) {
                    case "entry" -> {
                        add(entries, current);
                        current = new EntryBuilder(field(fields, 1, 3), Stage.of(field(fields, 2, 3)));
                    }
                    case "peer" -> {
                        if (current == null || !current.preImages.isEmpty()) {
                            throw new IllegalArgumentException("a peer line belongs right after its entry line");
                        }
                        current.peers.add(URLDecoder.decode(field(fields, 1, 2), StandardCharsets.UTF_8));
                    }
                    case "pre-image" -> {
                        if (current == null) {
                            throw new IllegalArgumentException("a pre-image before any entry");
                        }
                        current.preImages.add(preImage(fields));
                    }
                    case "end" -> {
                        add(entries, current);
                        return complete(entries, Integer.parseInt(field(fields, 1, 2)), i + 1 == lines.size());
                    }
                    default -> throw new IllegalArgumentException("unknown line kind '" + fields[0] + "'");
                }
            } catch (RuntimeException e) {
                throw new IOException(file + ":" + (i + 1) + ": unreadable journal line '" + lines.get(i) + "': "
                        + e.getMessage() + whatToDo, e);
            }
        }
        throw new IOException(file + " ends early (it has no 'end' line), so it was cut short" + whatToDo);
    }

    private static void add(List<Entry> entries, EntryBuilder builder) {
        if (builder != null) {
            entries.add(new Entry(builder.key, builder.stage, builder.preImages, builder.peers));
        }
    }

    private static List<Entry> complete(List<Entry> entries, int counted, boolean last) {
        if (counted != entries.size()) {
            throw new IllegalArgumentException("it counts " + counted + " entries, the file has " + entries.size());
        }
        if (!last) {
            throw new IllegalArgumentException("lines follow the 'end' line");
        }
        return entries;
    }

    private static String field(String[] fields, int index, int count) {
        if (fields.length != count || fields[index].isEmpty()) {
            throw new IllegalArgumentException("expected " + count + " fields separated by single spaces");
        }
        return fields[index];
    }

    private static PreImage preImage(String[] fields) {
        if (fields.length != 4) {
            throw new IllegalArgumentException("expected 'pre-image OID text|number VALUE'");
        }
        if (!DOTTED_OID.matcher(fields[1]).matches()) {
            throw new IllegalArgumentException("'" + fields[1] + "' is not a dotted OID");
        }
        OID oid = new OID(fields[1]);
        ScalarValue old = switch (fields[2]) {
            case TEXT -> new ScalarValue.Text(URLDecoder.decode(fields[3], StandardCharsets.UTF_8));
            case NUMBER -> new ScalarValue.Number(Integer.parseInt(fields[3]));
            default -> throw new IllegalArgumentException("unknown value kind '" + fields[2] + "'");
        };
        return new PreImage(oid, old);
    }

    /** Collects one entry's lines. */
    private static final class EntryBuilder {
        final String key;
        final Stage stage;
        final List<PreImage> preImages = new ArrayList<>();
        final List<String> peers = new ArrayList<>();

        EntryBuilder(String key, Stage stage) {
            this.key = key;
            this.stage = stage;
        }
    }
}
