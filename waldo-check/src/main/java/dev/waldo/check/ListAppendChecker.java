package dev.waldo.check;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a list-append history for strict serializability, the way Elle does
 * (Kingsbury and Alvaro, "Elle: Inferring Isolation Anomalies from
 * Experimental Observations", VLDB 2021).
 *
 * <p>Every append writes a unique value, so a read's list tells which
 * transactions wrote before it and in which order. The checker first checks
 * that the observations can come from one history of each key: every read of
 * a key is a prefix of the longest one (else {@code incompatible-order}), no
 * value appears twice, every value read was appended by a transaction that did
 * not fail ({@code G1a}) and was the writer's last append to that key
 * ({@code G1b}), and a transaction's reads agree with its own earlier
 * operations ({@code internal}). Then it builds the dependency graph from
 * every read of each key, merged into a tree of versions (one path when the
 * reads agree, branches where they do not): write-write edges between
 * neighbouring values, write-read edges from the writer of the last value a
 * transaction read, read-write (anti-dependency) edges from a reader to the
 * writer of each value that some read shows right after what it saw, and
 * real-time edges from every transaction to those invoked after it completed.
 * Any cycle is an anomaly, reported with its transactions and classified by
 * the edges it needs. Appends that no read ever shows cannot be placed in a
 * version order; one that a read invoked after its transaction completed
 * does not show is reported as {@code lost-append}.
 */
public final class ListAppendChecker {
    private final List<Txn> txns;
    private final List<Anomaly> anomalies = new ArrayList<>();
    /** Who appended each value, per key. */
    private final Map<String, Map<Long, Txn>> writers = new HashMap<>();
    /** Every read of committed transactions, per key, with the whole list returned. */
    private final Map<String, List<Read>> reads = new LinkedHashMap<>();
    /** The first read of each key in each committed transaction, without the transaction's own appends. */
    private final List<Read> externalReads = new ArrayList<>();
    /** Each key's versions as every read saw them: a tree whose paths from the root are the reads. */
    private final Map<String, Version> versions = new HashMap<>();
    private final Map<Txn, Integer> nodeOf = new HashMap<>();
    private final List<Txn> nodes = new ArrayList<>();

    private record Read(Txn txn, String key, List<Long> list) {
    }

    /** A version of a key: the list up to {@code value}; its children are the values reads saw appended next. */
    private static final class Version {
        final long value;
        final Map<Long, Version> next = new LinkedHashMap<>(2);

        Version(long value) {
            this.value = value;
        }

        Version append(long appended) {
            return next.computeIfAbsent(appended, Version::new);
        }

        /** The version that {@code list} reads, or null if no read was merged with that list. */
        Version find(List<Long> list) {
            Version version = this;
            for (int i = 0; i < list.size() && version != null; i++) {
                version = version.next.get(list.get(i));
            }
            return version;
        }
    }

    private ListAppendChecker(History history) {
        this.txns = history.txns();
    }

    /**
     * Checks history files kept by a run ({@link History#write}) and prints what it found; exits
     * with status 1 if any has an anomaly, 2 on a usage or read error. A directory is read as the
     * client journals in it ({@code *.journal}, {@link History#readJournals}), merged into one history.
     * <pre>java -cp ... dev.waldo.check.ListAppendChecker target/check/load.history target/check/journals-faults</pre>
     */
    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: ListAppendChecker HISTORY-FILE-OR-JOURNAL-DIRECTORY...");
            System.exit(2);
        }
        boolean valid = true;
        for (String file : args) {
            try {
                CheckResult result = check(readHistory(java.nio.file.Path.of(file)));
                System.out.println(file + ": " + result.summary(5));
                valid &= result.valid();
            } catch (java.io.IOException | IllegalArgumentException e) {
                System.err.println("cannot check " + file + ": " + e.getMessage());
                System.exit(2);
            }
        }
        System.exit(valid ? 0 : 1);
    }

    private static History readHistory(java.nio.file.Path path) throws java.io.IOException {
        if (!java.nio.file.Files.isDirectory(path)) {
            return History.read(path);
        }
        try (var files = java.nio.file.Files.list(path)) {
            return History.readJournals(files.filter(f -> f.toString().endsWith(".journal")).sorted().toList());
        }
    }

    /** Checks {@code history}; the result lists every anomaly found (none for a valid history). */
    public static CheckResult check(History history) {
        return new ListAppendChecker(history).run();
    }

    private CheckResult run() {
        indexWriters();
        for (Txn txn : txns) {
            if (txn.outcome() == Outcome.OK) {
                checkInternal(txn);
            }
            if (txn.outcome() != Outcome.FAILED) {
                nodeOf.put(txn, nodes.size());
                nodes.add(txn);
            }
        }
        reads.forEach(this::inferOrder);
        checkIntermediateReads();
        checkLostAppends();
        DependencyGraph graph = new DependencyGraph(nodes);
        addDependencies(graph);
        addRealTime(graph);
        anomalies.addAll(graph.cycles());
        return new CheckResult(count(Outcome.OK), count(Outcome.FAILED), count(Outcome.UNKNOWN), unknownSeen(),
                graph.edgeCount(), anomalies);
    }

    /**
     * How many transactions of unknown outcome some read shows an append of. Such a transaction
     * committed, and the checker has treated it so (a node with its edges) all along: an unknown
     * outcome may or may not have happened, but never counts as certainly backed out.
     */
    private int unknownSeen() {
        Map<String, Set<Long>> seen = new HashMap<>();
        reads.forEach((key, keyReads) -> {
            Set<Long> values = seen.computeIfAbsent(key, k -> new HashSet<>());
            keyReads.forEach(read -> values.addAll(read.list));
        });
        int count = 0;
        for (Txn txn : txns) {
            if (txn.outcome() == Outcome.UNKNOWN && txn.ops().stream()
                    .anyMatch(op -> op.append() && seen.getOrDefault(op.key(), Set.of()).contains(op.value()))) {
                count++;
            }
        }
        return count;
    }

    private int count(Outcome outcome) {
        return (int) txns.stream().filter(t -> t.outcome() == outcome).count();
    }

    private void indexWriters() {
        Set<Integer> ids = new HashSet<>();
        for (Txn txn : txns) {
            if (!ids.add(txn.id())) {
                throw new IllegalArgumentException("the history has two transactions with id " + txn.id());
            }
            for (MicroOp op : txn.ops()) {
                if (!op.append()) {
                    continue;
                }
                Txn earlier = writers.computeIfAbsent(op.key(), k -> new HashMap<>()).putIfAbsent(op.value(), txn);
                if (earlier != null) {
                    report("duplicate-append", "value " + op.value() + " was appended to " + op.key() + " by T"
                            + earlier.id() + " and again by T" + txn.id() + "; values must be unique", earlier, txn);
                }
            }
        }
    }

    /** A transaction's reads must show what its earlier reads and its own appends imply. */
    private void checkInternal(Txn txn) {
        Map<String, List<Long>> known = new HashMap<>();
        Map<String, List<Long>> blindAppends = new HashMap<>();
        for (MicroOp op : txn.ops()) {
            List<Long> state = known.get(op.key());
            if (op.append()) {
                if (state != null) {
                    state.add(op.value());
                } else {
                    blindAppends.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op.value());
                }
                continue;
            }
            List<Long> list = op.read();
            if (list == null) {
                continue;
            }
            reads.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(new Read(txn, op.key(), list));
            if (state != null) {
                if (!state.equals(list)) {
                    report("internal", "T" + txn.id() + " read " + op.key() + " = " + list
                            + ", but its earlier operations imply " + state, txn);
                }
            } else {
                recordExternal(txn, op.key(), list, blindAppends.getOrDefault(op.key(), List.of()));
            }
            known.put(op.key(), new ArrayList<>(list));
        }
    }

    private void recordExternal(Txn txn, String key, List<Long> list, List<Long> ownAppends) {
        int prefix = list.size() - ownAppends.size();
        if (prefix < 0 || !list.subList(prefix, list.size()).equals(ownAppends)) {
            report("internal", "T" + txn.id() + " read " + key + " = " + list + ", which does not end with its own"
                    + " earlier appends " + ownAppends, txn);
            return;
        }
        externalReads.add(new Read(txn, key, list.subList(0, prefix)));
    }

    /** Every other read of a key must be a prefix of the longest; all of them are merged into its versions. */
    private void inferOrder(String key, List<Read> keyReads) {
        Read longest = Collections.max(keyReads, (a, b) -> Integer.compare(a.list.size(), b.list.size()));
        boolean consistent = true;
        Set<Long> checked = new HashSet<>();
        Version root = versions.computeIfAbsent(key, k -> new Version(0));
        for (Read read : keyReads) {
            Version version = root;
            for (Long value : read.list) {
                version = version.append(value);
            }
            if (new HashSet<>(read.list).size() != read.list.size()) {
                report("duplicate-elements", "T" + read.txn.id() + " read " + key + " = " + read.list
                        + ", which holds a value twice", read.txn);
                consistent = false;
            }
            if (consistent && !read.list.equals(longest.list.subList(0, read.list.size()))) {
                report("incompatible-order", "T" + read.txn.id() + " read " + key + " = " + read.list + " and T"
                        + longest.txn.id() + " read " + longest.list + ": neither is a prefix of the other",
                        read.txn, longest.txn);
                consistent = false;
            }
            for (Long value : read.list) {
                if (checked.add(value)) {
                    checkWriter(read, value);
                }
            }
        }
    }

    private void checkWriter(Read read, long value) {
        Txn writer = writers.getOrDefault(read.key, Map.of()).get(value);
        if (writer == null) {
            report("garbage-read", "T" + read.txn.id() + " read value " + value + " in " + read.key
                    + ", which no transaction appended", read.txn);
        } else if (writer.outcome() == Outcome.FAILED) {
            report("G1a", "T" + read.txn.id() + " read value " + value + " in " + read.key + ", appended by T"
                    + writer.id() + ", which failed (an aborted read)", read.txn, writer);
        }
    }

    /** A read must not end on a value that its writer followed with another append to the same key. */
    private void checkIntermediateReads() {
        for (Read read : externalReads) {
            if (read.list.isEmpty()) {
                continue;
            }
            long last = read.list.get(read.list.size() - 1);
            Txn writer = writers.getOrDefault(read.key, Map.of()).get(last);
            if (writer == null || writer == read.txn) {
                continue;
            }
            List<Long> appended = appendsOf(writer, read.key);
            if (appended.get(appended.size() - 1) != last) {
                report("G1b", "T" + read.txn.id() + " read " + read.key + " = " + read.list + ", ending with "
                        + last + ", but T" + writer.id() + " appended " + appended + " to it (an intermediate read)",
                        read.txn, writer);
            }
        }
    }

    private static List<Long> appendsOf(Txn txn, String key) {
        List<Long> appended = new ArrayList<>();
        for (MicroOp op : txn.ops()) {
            if (op.append() && op.key().equals(key)) {
                appended.add(op.value());
            }
        }
        return appended;
    }

    /** A committed append that no read shows, though a read of its key began after it completed. */
    private void checkLostAppends() {
        Map<String, Read> latestRead = new HashMap<>();
        reads.forEach((key, keyReads) -> latestRead.put(key, Collections.max(keyReads,
                (a, b) -> Long.compare(a.txn.invokedAt(), b.txn.invokedAt()))));
        for (Txn txn : txns) {
            if (txn.outcome() != Outcome.OK) {
                continue;
            }
            for (MicroOp op : txn.ops()) {
                Read latest = op.append() ? latestRead.get(op.key()) : null;
                if (latest != null && latest.txn.invokedAt() > txn.completedAt() && !observed(op.key(), op.value())) {
                    report("lost-append", "T" + txn.id() + " appended " + op.value() + " to " + op.key()
                            + " and committed, but T" + latest.txn.id() + ", invoked after that, read "
                            + latest.list + " (no read ever shows the value)", txn, latest.txn);
                }
            }
        }
    }

    /** Whether some read of {@code key} shows {@code value}. */
    private boolean observed(String key, long value) {
        Map<Long, Txn> keyWriters = writers.get(key);
        Version root = versions.get(key);
        if (root == null || keyWriters == null) {
            return false;
        }
        List<Version> pending = new ArrayList<>(List.of(root));
        while (!pending.isEmpty()) {
            Version version = pending.remove(pending.size() - 1);
            if (version.next.containsKey(value)) {
                return true;
            }
            pending.addAll(version.next.values());
        }
        return false;
    }

    private void addDependencies(DependencyGraph graph) {
        versions.forEach((key, root) -> addWriteWrite(graph, key, root));
        for (Read read : externalReads) {
            int reader = nodeOf.get(read.txn);
            if (!read.list.isEmpty()) {
                link(graph, writerNode(read.key, read.list.get(read.list.size() - 1)), reader, DependencyGraph.WR,
                        read.key);
            }
            Version seen = versions.get(read.key).find(read.list);
            for (long unseen : seen.next.keySet()) {
                link(graph, reader, writerNode(read.key, unseen), DependencyGraph.RW, read.key);
            }
        }
    }

    /** Write-write edges between each value and the values reads saw right after it (iteratively: lists are long). */
    private void addWriteWrite(DependencyGraph graph, String key, Version root) {
        List<Version> pending = new ArrayList<>(root.next.values());
        while (!pending.isEmpty()) {
            Version version = pending.remove(pending.size() - 1);
            for (Version next : version.next.values()) {
                link(graph, writerNode(key, version.value), writerNode(key, next.value), DependencyGraph.WW, key);
                pending.add(next);
            }
        }
    }

    private static void link(DependencyGraph graph, int from, int to, int type, String key) {
        if (from >= 0 && to >= 0) {
            graph.add(from, to, type, key);
        }
    }

    /** The node of the transaction that appended {@code value} to {@code key}; -1 if none or it failed. */
    private int writerNode(String key, long value) {
        Txn writer = writers.getOrDefault(key, Map.of()).get(value);
        Integer node = writer == null ? null : nodeOf.get(writer);
        return node == null ? -1 : node;
    }

    /**
     * Real-time order: an edge from each transaction to every one invoked after
     * it completed. To keep the graph linear in size, a transaction links only
     * from the frontier of those completed before its invocation that no other
     * completed one follows; the rest are implied through the frontier.
     */
    private void addRealTime(DependencyGraph graph) {
        List<long[]> events = new ArrayList<>();
        for (int node = 0; node < nodes.size(); node++) {
            Txn txn = nodes.get(node);
            events.add(new long[] {txn.invokedAt(), 0, node});
            if (txn.completedAt() != Txn.NEVER) {
                events.add(new long[] {txn.completedAt(), 1, node});
            }
        }
        // At equal times invocations come first: a transaction invoked at the instant another
        // completed did not start after it.
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        Set<Integer> frontier = new LinkedHashSet<>();
        Map<Integer, List<Integer>> before = new HashMap<>();
        for (long[] event : events) {
            int node = (int) event[2];
            if (event[1] == 0) {
                List<Integer> predecessors = List.copyOf(frontier);
                before.put(node, predecessors);
                predecessors.forEach(p -> graph.add(p, node, DependencyGraph.RT, null));
            } else {
                frontier.removeAll(before.remove(node));
                frontier.add(node);
            }
        }
    }

    private void report(String type, String explanation, Txn... involved) {
        List<Integer> ids = new ArrayList<>();
        for (Txn txn : involved) {
            ids.add(txn.id());
        }
        anomalies.add(new Anomaly(type, explanation, ids));
    }
}
