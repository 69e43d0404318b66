package dev.waldoconf.service;

import dev.waldoconf.model.PortRanges;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A switch service's durable journal, in its state directory: the last
 * committed {@link TrialRecord} and, between prepare and the outcome, the
 * prepared one. Every write is synced to disk and replaces the file
 * atomically, so a crash leaves either the old record or the new one.
 *
 * <p>The files are plain text, one fact a line, so an operator can read them.
 */
public final class TrialJournal {
    private static final String MAGIC = "waldoconf-journal 1";
    private final Path committed;
    private final Path prepared;

    /** A journal in {@code directory}, which is created if needed. */
    public TrialJournal(Path directory) throws IOException {
        Files.createDirectories(directory);
        this.committed = directory.resolve("committed.journal");
        this.prepared = directory.resolve("prepared.journal");
    }

    /** The last committed record, or null if the service never committed anything. */
    public TrialRecord committed() throws IOException {
        return read(committed);
    }

    /** The record of a transaction that prepared but whose outcome was not recorded, or null. */
    public TrialRecord prepared() throws IOException {
        return read(prepared);
    }

    /** Records a prepared transaction, durably, before the service votes yes. */
    public void prepare(TrialRecord record) throws IOException {
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
    public void replaceCommitted(TrialRecord record) throws IOException {
        write(committed, record);
        DurableFile.delete(prepared);
    }

    private void write(Path target, TrialRecord record) throws IOException {
        DurableFile.replace(target, format(record));
    }


    static String format(TrialRecord record) {
        StringBuilder text = new StringBuilder(MAGIC).append('\n');
        text.append("transaction ").append(record.transaction()).append('\n');
        text.append("trial ").append(record.hasTrial() ? record.trial() : "-").append('\n');
        text.append("deadline ").append(record.deadlineEpochSeconds()).append('\n');
        text.append("switches ").append(String.join(",", record.switches())).append('\n');
        state(text, "intended", record.intended());
        state(text, "before", record.before());
        return text.toString();
    }

    private static void state(StringBuilder text, String prefix, SwitchState state) {
        for (Vlan vlan : state.vlans().values()) {
            text.append(prefix).append(".vlan ").append(vlan.id()).append(' ')
                    .append(URLEncoder.encode(vlan.name(), StandardCharsets.UTF_8)).append(' ')
                    .append(orDash(PortRanges.format(vlan.tagged()))).append(' ')
                    .append(orDash(PortRanges.format(vlan.untagged()))).append('\n');
        }
        state.pvids().forEach((port, vlan) ->
                text.append(prefix).append(".pvid ").append(port).append(' ').append(vlan).append('\n'));
    }

    private static String orDash(String text) {
        return text.isEmpty() ? "-" : text;
    }

    private static TrialRecord read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
            throw new IOException(file + " is not a WaldoConf journal (first line should be '" + MAGIC
                    + "'); move it away to let the service adopt the switch's current state");
        }
        return parse(file, lines);
    }

    private static TrialRecord parse(Path file, List<String> lines) throws IOException {
        String transaction = "";
        String trial = "";
        long deadline = 0;
        List<String> switches = List.of();
        StateBuilder intended = new StateBuilder();
        StateBuilder before = new StateBuilder();
        for (int i = 1; i < lines.size(); i++) {
            String[] parts = lines.get(i).split(" ", 2);
            String value = parts.length > 1 ? parts[1] : "";
            try {
                switch (parts[0]) {
                    case "transaction" -> transaction = value;
                    case "trial" -> trial = value.equals("-") ? "" : value;
                    case "deadline" -> deadline = Long.parseLong(value);
                    case "switches" -> switches = value.isEmpty() ? List.of() : Arrays.asList(value.split(","));
                    case "intended.vlan" -> intended.vlan(value);
                    case "intended.pvid" -> intended.pvid(value);
                    case "before.vlan" -> before.vlan(value);
                    case "before.pvid" -> before.pvid(value);
                    case "" -> { }
                    default -> throw new IllegalArgumentException("unknown entry '" + parts[0] + "'");
                }
            } catch (RuntimeException e) {
                throw new IOException(file + ":" + (i + 1) + ": unreadable journal line: " + e.getMessage(), e);
            }
        }
        return new TrialRecord(transaction, intended.build(), trial, deadline, switches, before.build());
    }

    /** Collects the vlan and pvid lines of one state. */
    private static final class StateBuilder {
        private final TreeMap<Integer, Vlan> vlans = new TreeMap<>();
        private final TreeMap<Integer, Integer> pvids = new TreeMap<>();

        void vlan(String line) {
            String[] fields = line.split(" ");
            int id = Integer.parseInt(fields[0]);
            String name = URLDecoder.decode(fields[1], StandardCharsets.UTF_8);
            vlans.put(id, new Vlan(id, name, ports(fields[2]), ports(fields[3])));
        }

        void pvid(String line) {
            String[] fields = line.split(" ");
            pvids.put(Integer.parseInt(fields[0]), Integer.parseInt(fields[1]));
        }

        private static TreeSet<Integer> ports(String text) {
            return text.equals("-") ? new TreeSet<>() : new TreeSet<>(PortRanges.parse(text));
        }

        SwitchState build() {
            return new SwitchState(vlans, pvids);
        }
    }
}
