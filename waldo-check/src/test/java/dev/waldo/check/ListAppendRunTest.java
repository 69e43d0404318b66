package dev.waldo.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.decisions.LoopbackReplicas;
import dev.waldo.decisions.RatisDecisionRegister;
import dev.waldoconf.lab.JavaProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The list-append workload against store hosts in processes of their own on
 * loopback, its history checked by {@link ListAppendChecker}: under load;
 * with TLS on under a {@link FaultSchedule} (links delayed, cut and
 * black-holed, stores and a client process killed with {@code -9} and
 * restarted); and (the control) against a scheduler broken on purpose, under
 * the same faults, which the checker must catch.
 *
 * <p>Each run lasts {@code -Dcheck.seconds} (default 6; the run under faults
 * 9 s more, and extended while its first round of faults is not done)
 * with {@code -Dcheck.clients} clients in this JVM (default 8);
 * {@code -Dcheck.seed} (default 3) and {@code -Dcheck.faultPauseMs} (default
 * 1000) set the run under faults. The long run documented in the README
 * raises them. Every run's history is kept in {@code
 * target/check/NAME.history} and its figures are appended to {@code
 * target/check/figures.txt}. {@code -Dcheck.optimistic=true}, {@code
 * -Dcheck.groupCommit=true}, {@code -Dcheck.sharedAppends=true} and {@code
 * -Dcheck.byCallsPercent=N} turn an option on in every run (see {@link #withOptions}).
 */
class ListAppendRunTest {
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("check.seconds", 6));
    private static final int CLIENTS = Integer.getInteger("check.clients", 8);
    /** About how long the fault schedule pauses between faults (half to one and a half times this). */
    private static final long FAULT_PAUSE_MS = Long.getLong("check.faultPauseMs", 1_000);
    /** Seeds the fault schedule and the clients of the run under faults. */
    private static final long FAULT_SEED = Long.getLong("check.seed", 3);
    private static final int APPENDS_PER_KEY = 64;
    private static final Path OUTPUT = Path.of("target", "check");
    /** How much longer the run under faults is than the others: one round of every fault takes about 15 s. */
    private static final Duration FAULT_RUN_EXTRA = Duration.ofSeconds(9);
    /** The step by which a run under faults is extended while its schedule is still busy, and its healed end. */
    private static final Duration EXTENSION = Duration.ofSeconds(5);
    /** At most this many extensions: a minute on a machine so crowded that a round of faults takes that long. */
    private static final int MAX_EXTENSIONS = 12;
    /** The share of transactions ending on Public calls in the runs with fast commit (half of them on one store). */
    private static final int BY_CALLS_PERCENT = 50;

    @TempDir
    Path dir;
    private final List<JavaProcess> stores = new ArrayList<>();
    private final List<LinkProxy> proxies = new ArrayList<>();
    private ListAppendWorkload workload;
    private LoopbackReplicas replicas;
    private RatisDecisionRegister register;
    /** The fault schedule and its client process, in the runs under faults. */
    private FaultSchedule clients;

    @AfterEach
    void stopEverything() throws Exception {
        if (clients != null) {
            clients.close();
        }
        if (workload != null) {
            workload.close();
        }
        for (LinkProxy proxy : proxies) {
            proxy.close();
        }
        for (JavaProcess store : stores) {
            store.close();
        }
        if (register != null) {
            register.close();
        }
        if (replicas != null) {
            replicas.close();
        }
    }

    @Test
    void concurrentClientsStayStrictlySerializable() throws Exception {
        workload = connect(startStores(4), new ListAppendWorkload.Settings(CLIENTS, 4, 4, APPENDS_PER_KEY, 1));
        CheckResult result = runAndCheck("load", RUN);
        assertValid(result);
    }

    /**
     * Abstract locks under the checker: one key per store, so every client appends to and reads
     * the same few lists. Appends take the APPEND mode (a delta that reads nothing), exclusive by
     * default; reads wait for them. The history must stay strictly serializable.
     */
    @Test
    void hotKeysWithCommutingAppendsStayStrictlySerializable() throws Exception {
        workload = connect(startStores(2), new ListAppendWorkload.Settings(CLIENTS, 1, 4, APPENDS_PER_KEY, 2));
        CheckResult result = runAndCheck("hot-keys", RUN);
        assertValid(result);
    }

    /**
     * The same hot keys with stores and client that share appends ({@code --shared-appends}):
     * concurrent appenders hold a list at once and every store installs them in the order of their
     * commits' real-time stamps. The history must stay strictly serializable.
     */
    @Test
    void hotKeysWithSharedAppendsStayStrictlySerializable() throws Exception {
        workload = connect(startStores(2, "--shared-appends"),
                new ListAppendWorkload.Settings(CLIENTS, 1, 4, APPENDS_PER_KEY, 2).withSharedAppends(true));
        CheckResult result = runAndCheck("hot-keys-shared-appends", RUN);
        assertValid(result);
    }

    /**
     * Tribune's optimistic concurrency control under the checker: every store validates at the
     * vote instead of locking ({@code --optimistic}), four keys per store; refused attempts are
     * retried. The history must stay strictly serializable.
     */
    @Test
    void optimisticStoresStayStrictlySerializable() throws Exception {
        workload = connect(startStores(4, "--optimistic"),
                new ListAppendWorkload.Settings(CLIENTS, 4, 4, APPENDS_PER_KEY, 4));
        CheckResult result = runAndCheck("optimistic", RUN);
        assertValid(result);
    }

    /**
     * Walter's snapshot reads under the checker: 40% of the transactions only read, and run
     * read-only on a client host with snapshot reads on (no locks on the stores, reads validated
     * at prepare), among appends and locking reads of four keys per store. The history must stay
     * strictly serializable, real-time order included.
     */
    @Test
    void readOnlyTransactionsReadingSnapshotsStayStrictlySerializable() throws Exception {
        workload = connect(startStores(4), new ListAppendWorkload.Settings(CLIENTS, 4, 4, APPENDS_PER_KEY, 7)
                .withReadOnly(40));
        CheckResult result = runAndCheck("snapshot-reads", RUN);
        assertValid(result);
        assertThat(workload.readOnlyCommitted()).as("read-only transactions committed").isPositive();
        System.out.println("snapshot-reads: " + workload.readOnlyCommitted() + " of " + workload.committed()
                + " committed transactions were read-only");
    }

    /**
     * Walter's fast commit and group commit under the checker: half of the transactions end on
     * Public calls (no early vote), half of those on one store, with fast commit on in the client
     * host, so that store commits them alone; the rest, across stores or ending on the sequence
     * step, go through two-phase commit. Every store's log (and the client's, in memory) group-
     * commits. The client host's count of fast commits must be exactly its committed transactions
     * on one store by calls: not 0 (the option applied), and none across stores (they fell back).
     */
    @Test
    void fastCommitAndGroupCommitStayStrictlySerializable() throws Exception {
        workload = connect(startStores(4, "--group-commit"),
                new ListAppendWorkload.Settings(CLIENTS, 4, 4, APPENDS_PER_KEY, 8).withByCalls(BY_CALLS_PERCENT)
                        .withGroupCommit(true));
        CheckResult result = runAndCheck("fast-group-commit", RUN);
        assertValid(result);
        assertThat(workload.fastCommits()).as("fast commits").isPositive()
                .isEqualTo(workload.committed(ListAppendWorkload.Route.CALLS_ONE_STORE));
        assertThat(workload.committed(ListAppendWorkload.Route.CALLS_ACROSS_STORES))
                .as("transactions by calls across stores, committed by two-phase commit").isPositive();
        assertThat(workload.committed(ListAppendWorkload.Route.LAST_OP))
                .as("transactions ending on the sequence step, their store voting early").isPositive();
    }

    /**
     * Paxos Commit's replicated decisions under the checker: three decision replicas (Raft, in
     * this JVM on loopback), and every store and the client settle their outcomes with them
     * ({@code --decisions}). The history must stay strictly serializable.
     */
    @Test
    void replicatedDecisionsStayStrictlySerializable() throws Exception {
        replicas = LoopbackReplicas.start(3, dir.resolve("decisions"));
        register = RatisDecisionRegister.connect(replicas.group);
        List<InetSocketAddress> addresses = startStores(4, "--decisions", replicas.group.spec());
        workload = ListAppendWorkload.connect(addresses, dir.resolve("client"), register,
                withOptions(new ListAppendWorkload.Settings(CLIENTS, 4, 4, APPENDS_PER_KEY, 6)));
        CheckResult result = runAndCheck("replicated-decisions", RUN);
        assertValid(result);
        assertThat(result.summary(0)).as("transactions committed through the register").doesNotContain("(0 committed,");
    }

    /**
     * The control for abstract locks: stores whose reads are compatible with concurrent appends
     * ({@code --broken-abstract-locks}) let a read miss an append that commits before it, and the
     * checker must find the cycle (the run goes on until it does, for at most five runs' time).
     * The stores share appends ({@code --shared-appends}): otherwise an append locks exclusively
     * (WRITE), which the broken matrix leaves alone.
     */
    @Test
    void brokenAbstractLocksAreCaughtWithACycle() throws Exception {
        workload = connect(startStores(2, "--broken-abstract-locks", "--shared-appends"),
                new ListAppendWorkload.Settings(CLIENTS, 2, 4, APPENDS_PER_KEY, 5).withSharedAppends(true));
        CheckResult result = runAndCheck("broken-abstract-locks", RUN);
        for (int more = 0; more < 4 && !hasCycle(result); more++) {
            result = runAndCheck("broken-abstract-locks", RUN);
        }
        assertThat(hasCycle(result)).as("a cycle among: %s", result.summary(10)).isTrue();
    }

    /**
     * TLS on, and a {@link FaultSchedule} (seeded) that delays, cuts and black-holes the links of
     * both client hosts, kills stores with {@code -9} and restarts them on their transaction logs,
     * and kills the client process with {@code -9} in the middle of its transactions and restarts
     * it on its own: the history, with every transaction whose outcome no client learned left
     * unknown, must still be strictly serializable.
     */
    @Test
    void faultsKeepHistoriesStrictlySerializable() throws Exception {
        Duration run = RUN.plus(FAULT_RUN_EXTRA);
        FaultSchedule faults = startUnderFaults("faults", true, faultSettings(5, FAULT_SEED));
        CheckResult result = runUnderFaults("faults", run, faults);
        // The schedule and every client's choices follow from the seed (the machine's timing does not).
        assertThat(result.anomalies()).as("reproduce with: -Dcheck.seed=%d; %s", FAULT_SEED, result.summary(10))
                .isEmpty();
        assertValid(result);
        faults.assertRanToItsEnd();
        assertThat(faults.kindsInjected()).as("faults injected").containsAll(List.of(FaultSchedule.Kind.values()));
        assertThat(committedInvokedAfter(faults.lastHealedAt())).as("commits after the last fault healed")
                .isPositive();
    }

    /**
     * The same faults with every host on a replicated decision register (three Raft replicas in
     * this JVM): a client process killed with {@code -9} is a coordinator gone in the middle of
     * its commits, which the stores now settle with the register. The history must stay strictly
     * serializable.
     */
    @Test
    void faultsWithReplicatedDecisionsKeepHistoriesStrictlySerializable() throws Exception {
        replicas = LoopbackReplicas.start(3, dir.resolve("decisions"));
        register = RatisDecisionRegister.connect(replicas.group);
        Duration run = RUN.plus(FAULT_RUN_EXTRA);
        FaultSchedule faults = startUnderFaults("faults-decisions", false, faultSettings(5, FAULT_SEED), "--decisions",
                replicas.group.spec());
        CheckResult result = runUnderFaults("faults-decisions", run, faults);
        assertThat(result.anomalies()).as("reproduce with: -Dcheck.seed=%d; %s", FAULT_SEED, result.summary(10))
                .isEmpty();
        assertValid(result);
        faults.assertRanToItsEnd();
        assertThat(faults.kindsInjected()).as("faults injected").contains(FaultSchedule.Kind.KILL_CLIENT);
        assertThat(committedInvokedAfter(faults.lastHealedAt())).as("commits after the last fault healed")
                .isPositive();
    }

    /**
     * The same faults with 40% of both client hosts' transactions read-only, reading snapshots:
     * stores killed and restarted between a reader's reads and its validation, links cut while
     * its prepare is on its way, the client process killed with readers in flight. The history
     * must stay strictly serializable.
     */
    @Test
    void faultsWithSnapshotReadsKeepHistoriesStrictlySerializable() throws Exception {
        Duration run = RUN.plus(FAULT_RUN_EXTRA);
        FaultSchedule faults = startUnderFaults("faults-snapshot-reads", false,
                faultSettings(5, FAULT_SEED).withReadOnly(40));
        CheckResult result = runUnderFaults("faults-snapshot-reads", run, faults);
        assertThat(result.anomalies()).as("reproduce with: -Dcheck.seed=%d; %s", FAULT_SEED, result.summary(10))
                .isEmpty();
        assertValid(result);
        faults.assertRanToItsEnd();
        assertThat(workload.readOnlyCommitted()).as("read-only transactions committed").isPositive();
        assertThat(committedInvokedAfter(faults.lastHealedAt())).as("commits after the last fault healed")
                .isPositive();
    }

    /**
     * The same faults with fast commit and group commit: both client hosts run half of their
     * transactions by calls (half of those on one store, committed there alone), and every store
     * and the client process log with group commit. A store killed with {@code -9} after it
     * logged a fast commit answers the delegation again from its log; a client process killed
     * while its delegations are out learns their outcome from the stores' owed commits, and
     * group-committed drains never reach the disk when their host dies before the fsync. The
     * history must stay strictly serializable, and this JVM's client must have committed by fast
     * commit.
     */
    @Test
    void faultsWithFastCommitAndGroupCommitKeepHistoriesStrictlySerializable() throws Exception {
        Duration run = RUN.plus(FAULT_RUN_EXTRA);
        FaultSchedule faults = startUnderFaults("faults-fast-group-commit", false,
                faultSettings(5, FAULT_SEED).withByCalls(BY_CALLS_PERCENT).withGroupCommit(true), "--group-commit");
        CheckResult result = runUnderFaults("faults-fast-group-commit", run, faults);
        assertThat(result.anomalies()).as("reproduce with: -Dcheck.seed=%d; %s", FAULT_SEED, result.summary(10))
                .isEmpty();
        assertValid(result);
        faults.assertRanToItsEnd();
        assertThat(faults.kindsInjected()).as("faults injected").contains(FaultSchedule.Kind.KILL_STORE,
                FaultSchedule.Kind.KILL_CLIENT);
        assertThat(workload.fastCommits()).as("fast commits").isPositive();
        assertThat(workload.committed(ListAppendWorkload.Route.CALLS_ACROSS_STORES))
                .as("transactions by calls across stores, committed by two-phase commit").isPositive();
        assertThat(committedInvokedAfter(faults.lastHealedAt())).as("commits after the last fault healed")
                .isPositive();
    }

    /** The control: a scheduler that releases locks before the decision, under the same faults, is caught. */
    @Test
    void brokenSchedulerIsCaughtWithACycleUnderFaults() throws Exception {
        FaultSchedule faults = startUnderFaults("broken-scheduler", false, faultSettings(2, 4),
                "--broken-scheduler");
        // A cold start commits few transactions; the run goes on (the history grows) until it
        // shows a cycle, for at most five runs' time, faults injected all along.
        Thread injecting = faults.start(RUN.multipliedBy(5));
        CheckResult result = runAndCheck("broken-scheduler", RUN);
        for (int more = 0; more < 4 && !hasCycle(result); more++) {
            result = runAndCheck("broken-scheduler", RUN);
        }
        faults.stop(injecting);
        faults.assertRanToItsEnd();
        assertThat(result.anomalies()).as("a scheduler that releases locks before the decision").isNotEmpty();
        assertThat(hasCycle(result)).as("a cycle among: %s", result.summary(10)).isTrue();
        assertThat(faults.kindsInjected()).as("faults injected").isNotEmpty();
    }

    /** The settings of this JVM's client host in a run under faults: {@code keysPerStore}, and {@code seed}. */
    private static ListAppendWorkload.Settings faultSettings(int keysPerStore, long seed) {
        return new ListAppendWorkload.Settings(CLIENTS, keysPerStore, 4, APPENDS_PER_KEY, seed);
    }

    /**
     * Three stores (with {@code flags}) each behind a proxy, this JVM's client host and a client
     * process connected through the proxies, and a fault schedule ready to start. Both client hosts
     * journal to {@code target/check/journals-NAME}, so that a run that fails keeps its history,
     * and use {@code settings}' keys per store, read-only and by-calls shares and group commit (the
     * client process its own seed and 4 clients); the schedule draws from {@code settings}' seed.
     */
    private FaultSchedule startUnderFaults(String name, boolean tls, ListAppendWorkload.Settings requested,
            String... flags) throws IOException, InterruptedException {
        ListAppendWorkload.Settings settings = withOptions(requested);
        Path journals = OUTPUT.resolve("journals-" + name);
        if (Files.exists(journals)) {
            try (var old = Files.list(journals)) {
                for (Path file : old.toList()) {
                    Files.delete(file);
                }
            }
        }
        Files.createDirectories(journals);
        List<String> storeFlags = withOptions(flags);
        if (tls) {
            storeFlags.add("--tls");
        }
        List<InetSocketAddress> addresses = startStores(3, storeFlags.toArray(String[]::new));
        List<InetSocketAddress> proxied = new ArrayList<>();
        for (InetSocketAddress store : addresses) {
            LinkProxy proxy = LinkProxy.start("127.0.0.2", store);
            proxies.add(proxy);
            proxied.add(proxy.address());
        }
        ListAppendWorkload.Journal journal = History.journal(journals.resolve("client.journal"));
        workload = register == null
                ? ListAppendWorkload.connect("client", proxied, dir.resolve("client"), tls, false, settings, journal)
                : ListAppendWorkload.connect("client", proxied, dir.resolve("client"), tls, false, settings, journal,
                        register);
        FaultSchedule faults = new FaultSchedule(settings.seed(), FAULT_PAUSE_MS, dir, journals,
                OUTPUT.resolve("logs"), stores, storeFlags, clientProcessFlags(settings), proxies, workload, tls,
                settings.keysPerStore());
        clients = faults;
        faults.startClientProcess();
        return faults;
    }

    /**
     * Runs the workload while {@code faults} are injected (longer, in steps of {@link #EXTENSION},
     * while the schedule finishes its first round; bounded), then a little with every fault healed,
     * then checks every client host's history.
     */
    private CheckResult runUnderFaults(String name, Duration run, FaultSchedule faults) throws Exception {
        long startedAt = System.nanoTime();
        Thread injecting = faults.start(run);
        History own = workload.run(run, Integer.MAX_VALUE);
        for (int more = 0; more < MAX_EXTENSIONS && injecting.isAlive(); more++) {
            own = workload.run(EXTENSION, Integer.MAX_VALUE);
        }
        faults.stop(injecting);
        own = workload.run(EXTENSION, Integer.MAX_VALUE);
        faults.stopClientProcess();
        List<Txn> all = new ArrayList<>(own.txns());
        all.addAll(History.readJournals(faults.journals()).txns());
        System.out.println(name + ": faults injected: " + faults.log() + "; this JVM's client: "
                + workload.committed() + " committed, not committed by why: " + workload.failureReasons());
        return check(name, Duration.ofNanos(System.nanoTime() - startedAt), new History(all));
    }

    /**
     * The client process's flags: it settles with the stores' register too, and reads snapshots,
     * runs by calls with fast commit and group-commits as this JVM's client host does.
     */
    private List<String> clientProcessFlags(ListAppendWorkload.Settings settings) {
        List<String> flags = new ArrayList<>(List.of("--read-only-percent", String.valueOf(settings.readOnlyPercent()),
                "--by-calls-percent", String.valueOf(settings.byCallsPercent())));
        if (settings.groupCommit()) {
            flags.add("--group-commit");
        }
        if (settings.sharedAppends()) {
            flags.add("--shared-appends");
        }
        if (register != null) {
            flags.addAll(List.of("--decisions", replicas.group.spec()));
        }
        return flags;
    }

    /**
     * The store flags, plus {@code --optimistic} when {@code -Dcheck.optimistic=true} asks for it,
     * {@code --group-commit} when {@code -Dcheck.groupCommit=true} does and {@code --shared-appends}
     * when {@code -Dcheck.sharedAppends=true} does.
     */
    private static List<String> withOptions(String... flags) {
        List<String> storeFlags = new ArrayList<>(List.of(flags));
        if (Boolean.getBoolean("check.optimistic") && !storeFlags.contains("--optimistic")) {
            storeFlags.add("--optimistic");
        }
        if (Boolean.getBoolean("check.groupCommit") && !storeFlags.contains("--group-commit")) {
            storeFlags.add("--group-commit");
        }
        if (Boolean.getBoolean("check.sharedAppends") && !storeFlags.contains("--shared-appends")) {
            storeFlags.add("--shared-appends");
        }
        return storeFlags;
    }

    /**
     * A client host's settings, with group commit when {@code -Dcheck.groupCommit=true} asks for it,
     * shared appends when {@code -Dcheck.sharedAppends=true} does, and {@code -Dcheck.byCallsPercent=N}
     * of the transactions by calls, fast commit on, unless the test chose a share.
     */
    private static ListAppendWorkload.Settings withOptions(ListAppendWorkload.Settings settings) {
        ListAppendWorkload.Settings chosen = settings;
        if (Boolean.getBoolean("check.groupCommit")) {
            chosen = chosen.withGroupCommit(true);
        }
        if (Boolean.getBoolean("check.sharedAppends")) {
            chosen = chosen.withSharedAppends(true);
        }
        int byCalls = Integer.getInteger("check.byCallsPercent", 0);
        if (byCalls > 0 && chosen.byCallsPercent() == 0) {
            chosen = chosen.withByCalls(byCalls);
        }
        return chosen;
    }

    private static boolean hasCycle(CheckResult result) {
        return result.anomalies().stream()
                .anyMatch(a -> a.type().matches("G0|G1c|G-single|G2") || a.type().endsWith("-realtime"));
    }

    /**
     * Starts the stores with {@code flags}, and the options of {@link #withOptions(String...)}:
     * with {@code -Dcheck.optimistic=true} every store of every run validates optimistically
     * ({@code --optimistic}), the runs under faults included.
     */
    private List<InetSocketAddress> startStores(int count, String... flags) throws IOException,
            InterruptedException {
        List<String> storeFlags = withOptions(flags);
        for (int i = 0; i < count; i++) {
            stores.add(FaultSchedule.startStore(OUTPUT.resolve("logs"), dir, i, storeFlags));
        }
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (JavaProcess store : stores) {
            addresses.add(FaultSchedule.awaitListening(store));
        }
        return addresses;
    }

    private ListAppendWorkload connect(List<InetSocketAddress> addresses, ListAppendWorkload.Settings settings) {
        return ListAppendWorkload.connect(addresses, dir.resolve("client"), false, withOptions(settings));
    }

    private History history;

    private CheckResult runAndCheck(String name, Duration duration) throws IOException, InterruptedException {
        List<Txn> all = new ArrayList<>(workload.run(duration, Integer.MAX_VALUE).txns());
        if (clients != null) {
            all.addAll(History.readJournals(clients.journals()).txns());
        }
        return check(name, duration, new History(all));
    }

    private CheckResult check(String name, Duration duration, History checked) throws IOException {
        history = checked;
        Files.createDirectories(OUTPUT);
        history.write(OUTPUT.resolve(name + ".history"));
        long startedAt = System.nanoTime();
        CheckResult result = ListAppendChecker.check(history);
        long checkMs = (System.nanoTime() - startedAt) / 1_000_000;
        String figures = String.format("%s: %d clients, %d s, checked in %d ms: %s%n  %s%s", name, CLIENTS,
                duration.toSeconds(), checkMs, result.summary(3), routes(),
                clients == null ? "" : System.lineSeparator() + "  faults: " + clients.log());
        System.out.println(figures);
        Files.writeString(OUTPUT.resolve("figures.txt"), figures + System.lineSeparator(),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return result;
    }

    private void assertValid(CheckResult result) {
        assertThat(result.anomalies()).as(result.summary(10)).isEmpty();
        assertThat(workload.unexpectedErrors()).as("errors other than backed-out transactions").isEmpty();
        assertThat(result.committed()).as("committed transactions").isPositive();
    }

    /** How this JVM's client's committed transactions ended, and how many of them by fast commit. */
    private String routes() {
        StringBuilder line = new StringBuilder("this JVM's client committed");
        for (ListAppendWorkload.Route route : ListAppendWorkload.Route.values()) {
            line.append(' ').append(route).append('=').append(workload.committed(route));
        }
        return line.append(", fast commits=").append(workload.fastCommits()).toString();
    }

    private long committedInvokedAfter(long nanos) {
        return history.txns().stream().filter(t -> t.outcome() == Outcome.OK && t.invokedAt() > nanos).count();
    }
}
