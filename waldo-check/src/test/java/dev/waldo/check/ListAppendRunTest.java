package dev.waldo.check;

import static org.assertj.core.api.Assertions.assertThat;

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
 * loopback, its history checked by {@link ListAppendChecker}: under load,
 * across a {@code kill -9} of stores, across cut, black-holed and delayed
 * links, and (the control) against a scheduler broken on purpose, which the
 * checker must catch.
 *
 * <p>Each run lasts {@code -Dcheck.seconds} (default 6) with {@code
 * -Dcheck.clients} clients (default 8); the long run documented in the
 * README raises both. Every run's history is kept in {@code
 * target/check/NAME.history} and its figures are appended to {@code
 * target/check/figures.txt}.
 */
class ListAppendRunTest {
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("check.seconds", 6));
    private static final int CLIENTS = Integer.getInteger("check.clients", 8);
    private static final int APPENDS_PER_KEY = 64;
    private static final Path OUTPUT = Path.of("target", "check");

    @TempDir
    Path dir;
    private final List<JavaProcess> stores = new ArrayList<>();
    private final List<LinkProxy> proxies = new ArrayList<>();
    private ListAppendWorkload workload;

    @AfterEach
    void stopEverything() throws Exception {
        if (workload != null) {
            workload.close();
        }
        for (LinkProxy proxy : proxies) {
            proxy.close();
        }
        for (JavaProcess store : stores) {
            store.close();
        }
    }

    @Test
    void concurrentClientsStayStrictlySerializable() throws Exception {
        workload = connect(startStores(4), new ListAppendWorkload.Settings(CLIENTS, 4, 4, APPENDS_PER_KEY, 1));
        CheckResult result = runAndCheck("load", RUN);
        assertValid(result);
    }

    @Test
    void killedStoresLeaveNoTraceOfUnfinishedTransactions() throws Exception {
        List<InetSocketAddress> addresses = startStores(5);
        workload = connect(addresses, new ListAppendWorkload.Settings(CLIENTS, 4, 4, APPENDS_PER_KEY, 2));
        List<Long> killedAt = new ArrayList<>();
        Thread faults = Thread.ofPlatform().daemon().start(() -> killStores(List.of(1, 3), killedAt));
        CheckResult result = runAndCheck("kill-9", RUN);
        faults.join(RUN.toMillis());
        assertValid(result);
        assertThat(killedAt).hasSize(2);
        assertThat(committedInvokedAfter(killedAt.get(1))).as("commits after the second kill").isPositive();
    }

    /** Kills each store at its share of the run; marks it down once the workload has seen a failure since. */
    private void killStores(List<Integer> victims, List<Long> killedAt) {
        try {
            for (int i = 0; i < victims.size(); i++) {
                Thread.sleep(RUN.toMillis() / (victims.size() + 1));
                int failedBefore = workload.failed();
                stores.get(victims.get(i)).kill();
                killedAt.add(System.nanoTime());
                for (int wait = 0; wait < 100 && workload.failed() == failedBefore; wait++) {
                    Thread.sleep(50);
                }
                workload.markDown(victims.get(i));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void droppedAndDelayedLinksKeepHistoriesValid() throws Exception {
        List<InetSocketAddress> proxied = new ArrayList<>();
        for (InetSocketAddress store : startStores(3)) {
            LinkProxy proxy = LinkProxy.start("127.0.0.2", store);
            proxies.add(proxy);
            proxied.add(proxy.address());
        }
        workload = connect(proxied, new ListAppendWorkload.Settings(CLIENTS, 4, 4, APPENDS_PER_KEY, 3));
        List<Long> healedAt = new ArrayList<>();
        // Longer than the others: a round of faults takes about 6 s, and commits must follow its heal.
        Duration run = RUN.plusSeconds(4);
        Thread faults = Thread.ofPlatform().daemon().start(() -> injectLinkFaults(run, healedAt));
        CheckResult result = runAndCheck("links", run);
        faults.join(run.toMillis());
        assertValid(result);
        assertThat(healedAt).as("link faults injected and healed").isNotEmpty();
        assertThat(committedInvokedAfter(healedAt.get(0))).as("commits after a heal").isPositive();
    }

    /**
     * Until the run ends, rounds of: 20 ms each way on store 0's link; store 1's link cut for a
     * second; store 2's link black-holed past the heartbeat timeout; then everything healed.
     */
    private void injectLinkFaults(Duration run, List<Long> healedAt) {
        long endAt = System.nanoTime() + run.toNanos() - Duration.ofSeconds(6).toNanos();
        try {
            do {
                proxies.get(0).delay(20);
                proxies.get(1).cut();
                Thread.sleep(1_000);
                proxies.get(1).heal();
                proxies.get(2).blackHole();
                Thread.sleep(StoreServer.HEARTBEAT_TIMEOUT_MS + 500);
                proxies.get(2).heal();
                proxies.get(0).delay(0);
                healedAt.add(System.nanoTime());
                Thread.sleep(1_500);
            } while (System.nanoTime() < endAt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void brokenSchedulerIsCaughtWithACycle() throws Exception {
        workload = connect(startStores(3, "--broken-scheduler"),
                new ListAppendWorkload.Settings(CLIENTS, 2, 4, APPENDS_PER_KEY, 4));
        // A cold start commits few transactions; the run goes on (the history grows) until it
        // shows a cycle, for at most five runs' time.
        CheckResult result = runAndCheck("broken-scheduler", RUN);
        for (int more = 0; more < 4 && !hasCycle(result); more++) {
            result = runAndCheck("broken-scheduler", RUN);
        }
        assertThat(result.anomalies()).as("a scheduler that releases locks before the decision").isNotEmpty();
        assertThat(hasCycle(result)).as("a cycle among: %s", result.summary(10)).isTrue();
    }

    private static boolean hasCycle(CheckResult result) {
        return result.anomalies().stream()
                .anyMatch(a -> a.type().matches("G0|G1c|G-single|G2") || a.type().endsWith("-realtime"));
    }

    private List<InetSocketAddress> startStores(int count, String... flags) throws IOException,
            InterruptedException {
        Path logs = OUTPUT.resolve("logs");
        for (int i = 0; i < count; i++) {
            List<String> args = new ArrayList<>(List.of("store-" + i, dir.resolve("store-" + i).toString()));
            args.addAll(List.of(flags));
            stores.add(JavaProcess.start("store-" + i + "-" + System.nanoTime(), logs, StoreServer.class,
                    args.toArray(String[]::new)));
        }
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (JavaProcess store : stores) {
            int port = Integer.parseInt(store.awaitLine("LISTENING (\\d+)").group(1));
            addresses.add(new InetSocketAddress("127.0.0.1", port));
        }
        return addresses;
    }

    private ListAppendWorkload connect(List<InetSocketAddress> addresses, ListAppendWorkload.Settings settings) {
        return ListAppendWorkload.connect(addresses, dir.resolve("client"), false, settings);
    }

    private History history;

    private CheckResult runAndCheck(String name, Duration duration) throws IOException, InterruptedException {
        history = workload.run(duration, Integer.MAX_VALUE);
        Files.createDirectories(OUTPUT);
        history.write(OUTPUT.resolve(name + ".history"));
        long startedAt = System.nanoTime();
        CheckResult result = ListAppendChecker.check(history);
        long checkMs = (System.nanoTime() - startedAt) / 1_000_000;
        String figures = String.format("%s: %d clients, %d s, checked in %d ms: %s", name, CLIENTS,
                duration.toSeconds(), checkMs, result.summary(3));
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

    private long committedInvokedAfter(long nanos) {
        return history.txns().stream().filter(t -> t.outcome() == Outcome.OK && t.invokedAt() > nanos).count();
    }
}
