package dev.waldoconf.service;

import dev.waldoconf.config.Plan;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.lab.DeviceProfile;
import dev.waldoconf.lab.Lab;
import dev.waldoconf.lab.SwitchConfig;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;

/**
 * Not a test: the benchmark behind {@code bench/disjoint-applies/run.sh}. Two operators, each with
 * its own session, apply plans on disjoint VLANs of the same lab switches (over SNMP, one service
 * per switch over TLS): A manages VLAN 20 with access port 5, B VLAN 30 with access port 6, and
 * each apply moves its VLAN's trunk port between 7 and 8. Per round, each lock mode (whole-table
 * locks: every apply runs alone on a switch, as before applies were keyed; keyed: each locks what
 * its plan depends on) times A's apply alone, then A and B started together. Serialized, the pair
 * takes about twice one apply; side by side, less. Applies are plain ({@code waldoconf apply
 * --yes}: the staging, then the confirm).
 *
 * <p>System properties: {@code bench.switches} (default 4), {@code bench.rounds} (default 12),
 * {@code bench.profiles} (lab device profiles, default {@code fast,slow-cpu}). Argument: the
 * Markdown file to write the table to.
 */
public final class DisjointAppliesBench {
    private DisjointAppliesBench() {
    }

    /** One profile's and lock mode's figures, in milliseconds. */
    private static final class Row {
        final String profile;
        final boolean keyed;
        final List<Long> alone = new ArrayList<>();
        final List<Long> pairs = new ArrayList<>();
        final List<Long> each = new ArrayList<>();
        int applies;
        int attempts;

        Row(String profile, boolean keyed) {
            this.profile = profile;
            this.keyed = keyed;
        }

        void add(Timed timed) {
            applies++;
            attempts += timed.attempts();
        }
    }

    public static void main(String[] args) throws Exception {
        int switches = Integer.getInteger("bench.switches", 4);
        int rounds = Integer.getInteger("bench.rounds", 12);
        List<Row> rows = new ArrayList<>();
        for (String profile : System.getProperty("bench.profiles", "fast,slow-cpu").split(",")) {
            rows.addAll(measure(DeviceProfile.named(profile), switches, rounds,
                    Files.createTempDirectory("disjoint-applies")));
        }
        String report = report(rows, switches, rounds);
        System.out.print(report);
        if (args.length > 0) {
            Files.writeString(Path.of(args[0]), report);
        }
        System.exit(0);
    }

    private static List<Row> measure(DeviceProfile profile, int size, int rounds, Path dir) throws Exception {
        System.err.printf("%s: starting %d lab switches and their services%n", profile.name(), size);
        try (Lab lab = Lab.start(size, SwitchConfig.named("d").withProfile(profile), null)) {
            Map<String, InetSocketAddress> agents = new LinkedHashMap<>();
            lab.switches().forEach(sw -> agents.put(sw.name(), sw.snmpAddress()));
            try (ServedSwitches served = ServedSwitches.overSnmp(dir, agents);
                 WaldoConfEngine.Connected a = served.engine.connect(served.inventory.switches(), ProgressListener.NONE);
                 WaldoConfEngine.Connected b = served.engine.connect(served.inventory.switches(), ProgressListener.NONE)) {
                Operator first = new Operator(served, a, 20, 5);
                Operator second = new Operator(served, b, 30, 6);
                first.apply(true);  // warm up; moves the access ports off VLAN 1 once
                second.apply(true);
                Row whole = new Row(profile.name(), false);
                Row keyed = new Row(profile.name(), true);
                for (int round = 0; round < rounds; round++) {
                    // Alternate which mode goes first, so that the machine's drift favours neither.
                    for (Row row : round % 2 == 0 ? List.of(whole, keyed) : List.of(keyed, whole)) {
                        Timed alone = first.apply(row.keyed);
                        row.alone.add(alone.millis());
                        row.add(alone);
                        long start = System.nanoTime();
                        List<Timed> both = together(first, second, row.keyed);
                        row.pairs.add((System.nanoTime() - start) / 1_000_000);
                        both.forEach(timed -> {
                            row.each.add(timed.millis());
                            row.add(timed);
                        });
                    }
                    System.err.printf("%s: round %d of %d done%n", profile.name(), round + 1, rounds);
                }
                return List.of(whole, keyed);
            }
        }
    }

    /** Starts both operators' applies at the same moment and waits for both. */
    private static List<Timed> together(Operator first, Operator second, boolean keyed) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        CompletableFuture<Timed> one = CompletableFuture.supplyAsync(() -> first.applyAfter(start, keyed));
        CompletableFuture<Timed> other = CompletableFuture.supplyAsync(() -> second.applyAfter(start, keyed));
        return List.of(one.get(), other.get());
    }

    /** An apply's time and how many attempts it took (a wound retries). */
    private record Timed(long millis, int attempts) {
    }

    /** One operator: its session and its VLAN, whose trunk port each apply moves. */
    private static final class Operator {
        private final ServedSwitches served;
        private final WaldoConfEngine.Connected session;
        private final int vlan;
        private final int accessPort;
        private int applies;

        Operator(ServedSwitches served, WaldoConfEngine.Connected session, int vlan, int accessPort) {
            this.served = served;
            this.session = session;
            this.vlan = vlan;
            this.accessPort = accessPort;
        }

        Timed applyAfter(CyclicBarrier start, boolean keyed) {
            try {
                start.await();
                return apply(keyed);
            } catch (Exception e) {
                throw new IllegalStateException("VLAN " + vlan + "'s apply failed: " + e.getMessage(), e);
            }
        }

        Timed apply(boolean keyed) throws Exception {
            CountedPlan plan = new CountedPlan(nextPlan(), served.inventory, keyed, attempt -> { });
            long start = System.nanoTime();
            ChangeRunner.Applied applied = session.runner().apply(session.runner().newChangeId(), session.targets(),
                    plan, Optional.empty());
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (applied.switches().isEmpty()) {
                throw new IllegalStateException("VLAN " + vlan + "'s apply changed nothing");
            }
            return new Timed(millis, plan.attempts());
        }

        /** The plan of this operator's next apply: its VLAN on every switch, tagged on port 7 or 8 in turn. */
        private Plan nextPlan() throws Exception {
            int trunk = applies++ % 2 == 0 ? 7 : 8;
            StringBuilder yaml = new StringBuilder("vlans:\n  - id: " + vlan + "\n    name: v" + vlan + "\n    ports:\n");
            served.inventory.switches().forEach(entry -> yaml.append("      - switch: ").append(entry.name())
                    .append("\n        tagged: ").append(trunk).append("\n        untagged: ").append(accessPort)
                    .append('\n'));
            return served.plan(yaml.toString());
        }
    }

    private static String report(List<Row> rows, int switches, int rounds) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%d lab switches, one service each (TLS on loopback, the SNMP driver);"
                + " %d rounds per profile. Per round and lock mode: operator A's apply alone, then A and B started"
                + " together on disjoint VLANs (A: VLAN 20, access port 5; B: VLAN 30, access port 6; each apply"
                + " moves its VLAN's trunk port between 7 and 8). Plain applies (staging, then confirm). Medians,"
                + " with the slowest in brackets.%n%n", switches, rounds));
        out.append("| device profile | locks | one apply alone | two at once: both done | two at once: each apply"
                + " | attempts per apply |\n");
        out.append("|---|---|---:|---:|---:|---:|\n");
        for (Row row : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.2f |%n", row.profile,
                    row.keyed ? "keyed (what the plan depends on)" : "whole table (before)", figure(row.alone),
                    figure(row.pairs), figure(row.each), (double) row.attempts / row.applies));
        }
        return out.toString();
    }

    private static String figure(List<Long> millis) {
        long[] sorted = millis.stream().mapToLong(Long::longValue).sorted().toArray();
        return String.format(Locale.ROOT, "%d ms (%d)", sorted[sorted.length / 2], sorted[sorted.length - 1]);
    }

}
