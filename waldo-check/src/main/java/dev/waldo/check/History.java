package dev.waldo.check;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
    public History {
        txns = List.copyOf(txns);
    }

    /** Writes the text form to {@code file}. */
    public void write(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Txn txn : txns) {
            StringBuilder line = new StringBuilder().append(txn.id()).append(' ').append(txn.process()).append(' ')
                    .append(txn.invokedAt()).append(' ')
                    .append(txn.completedAt() == Txn.NEVER ? "-" : Long.toString(txn.completedAt())).append(' ')
                    .append(txn.outcome());
            for (MicroOp op : txn.ops()) {
                line.append(' ').append(format(op));
            }
            lines.add(line.toString());
        }
        Files.write(file, lines);
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
