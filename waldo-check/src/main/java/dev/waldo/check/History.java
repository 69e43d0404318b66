package dev.waldo.check;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The transactions of one run, with a plain text form (one transaction a line)
 * so that a run that found an anomaly can be kept and checked again:
 * <pre>
 * id process invokedAt completedAt|- OK|FAILED|UNKNOWN op op ...
 * op = a:KEY:VALUE | r:KEY:v1,v2,... | r:KEY:? (unknown) | r:KEY: (empty list)
 * </pre>
 * Keys must not contain spaces or colons.
 *
 * @param txns every transaction, in any order
 */
public record History(List<Txn> txns) {
    /** Ends every journal line: a line without it was cut short by a kill. */
    private static final String JOURNAL_LINE_END = " .";

    public History {
        txns = List.copyOf(txns);
    }

    /** Writes the text form to {@code file}. */
    public void write(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Txn txn : txns) {
            lines.add(format(txn));
        }
        Files.write(file, lines);
    }

    private static String format(Txn txn) {
        StringBuilder line = new StringBuilder().append(txn.id()).append(' ').append(txn.process()).append(' ')
                .append(txn.invokedAt()).append(' ')
                .append(txn.completedAt() == Txn.NEVER ? "-" : Long.toString(txn.completedAt())).append(' ')
                .append(txn.outcome());
        for (MicroOp op : txn.ops()) {
            line.append(' ').append(format(op));
        }
        return line.toString();
    }

    /**
     * A journal that appends each record to {@code file} in the text form, one line each, and
     * hands it to the operating system at once: a process killed with {@code -9} loses none of the
     * lines it wrote (each ends with {@code " ."}, so that one cut short shows). A transaction is
     * recorded when it starts (outcome unknown) and again when it
     * ends; {@link #readJournals} keeps the last record of each.
     */
    public static ListAppendWorkload.Journal journal(Path file) throws IOException {
        BufferedWriter out = Files.newBufferedWriter(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return txn -> {
            synchronized (out) {
                try {
                    out.write(format(txn) + JOURNAL_LINE_END);
                    out.newLine();
                    out.flush();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot journal T" + txn.id() + " to " + file, e);
                }
            }
        };
    }

    /**
     * The history the {@link #journal journals} of several client hosts tell: for each transaction
     * its last record, so one that was never recorded as ended (its client was killed) keeps its
     * outcome unknown. A journal's last line may be cut short by a kill: it is skipped; a malformed
     * line elsewhere fails with its number.
     */
    public static History readJournals(List<Path> files) throws IOException {
        Map<Integer, Txn> last = new LinkedHashMap<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                try {
                    if (!line.endsWith(JOURNAL_LINE_END)) {
                        throw new IllegalArgumentException("cut short: no '" + JOURNAL_LINE_END.trim()
                                + "' at its end");
                    }
                    Txn txn = parse(line.substring(0, line.length() - JOURNAL_LINE_END.length()));
                    last.put(txn.id(), txn);
                } catch (RuntimeException e) {
                    if (i < lines.size() - 1) {
                        throw new IOException(file + ":" + (i + 1) + ": not a journal line (" + e.getMessage() + ")",
                                e);
                    }
                }
            }
        }
        return new History(List.copyOf(last.values()));
    }

    private static String format(MicroOp op) {
        if (op.append()) {
            return "a:" + op.key() + ":" + op.value();
        }
        if (op.read() == null) {
            return "r:" + op.key() + ":?";
        }
        StringBuilder list = new StringBuilder();
        for (Long value : op.read()) {
            list.append(list.isEmpty() ? "" : ",").append(value);
        }
        return "r:" + op.key() + ":" + list;
    }

    /** Reads the text form that {@link #write} wrote; a malformed line fails with its number. */
    public static History read(Path file) throws IOException {
        List<Txn> txns = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            try {
                txns.add(parse(lines.get(i)));
            } catch (RuntimeException e) {
                throw new IOException(file + ":" + (i + 1) + ": not a history line (" + e.getMessage() + ")", e);
            }
        }
        return new History(txns);
    }

    private static Txn parse(String line) {
        String[] words = line.trim().split(" ");
        List<MicroOp> ops = new ArrayList<>();
        for (String word : Arrays.asList(words).subList(5, words.length)) {
            String[] parts = word.split(":", 3);
            if (parts[0].equals("a")) {
                ops.add(MicroOp.append(parts[1], Long.parseLong(parts[2])));
            } else if (parts[2].equals("?")) {
                ops.add(MicroOp.read(parts[1], null));
            } else {
                List<Long> list = new ArrayList<>();
                for (String value : parts[2].isEmpty() ? new String[0] : parts[2].split(",")) {
                    list.add(Long.parseLong(value));
                }
                ops.add(MicroOp.read(parts[1], list));
            }
        }
        long completedAt = words[3].equals("-") ? Txn.NEVER : Long.parseLong(words[3]);
        return new Txn(Integer.parseInt(words[0]), Integer.parseInt(words[1]), Long.parseLong(words[2]),
                completedAt, Outcome.valueOf(words[4]), ops);
    }
}
