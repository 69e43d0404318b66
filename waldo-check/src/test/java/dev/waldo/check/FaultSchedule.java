package dev.waldo.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.WaldoException;
import dev.waldoconf.lab.JavaProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The faults of a run (Jepsen's nemesis), in an order and with parameters drawn
 * from a seed: in each round every {@link Kind} once, shuffled, with a pause of
 * half to one and a half times {@code pauseMs} after each. Every fault is healed before the next begins, and
 * each step is bounded, so the schedule ends by itself soon after its run.
 *
 * <p>It also owns the client process (a {@link ClientProcess}, host
 * {@code client-process}), which it kills and restarts, and the stores file
 * that tells that process where each store's current run is.
 */
final class FaultSchedule implements AutoCloseable {
    /** The faults, one of each per round. */
    enum Kind {
        /** 5 to 50 ms each way on one store's links, for 1.5 to 3 s. */
        DELAY,
        /** One store's links cut (every connection closed, new ones refused) for 0.5 to 1.5 s. */
        CUT,
        /** One store's links black-holed (bytes dropped) past the heartbeat timeout. */
        BLACK_HOLE,
        /** One store killed with -9, started again 0.2 to 1 s later on its transaction log. */
        KILL_STORE,
        /** The client process killed with -9 mid-transaction, started again 0.2 to 1 s later. */
        KILL_CLIENT
    }

    private static final Duration STOP_PATIENCE = Duration.ofSeconds(90);
    private static final int RECONNECT_TRIES = 40;

    private final Random random;
    private final Path dir;
    private final Path journalDir;
    private final Path logs;
    private final List<JavaProcess> stores;
    private final List<String> storeFlags;
    private final List<String> clientFlags;
    private final List<LinkProxy> proxies;
    private final ListAppendWorkload workload;
    private final boolean tls;
    private final int keysPerStore;
    private final int[] incarnations;
    private final long seed;
    private final long pauseMs;
    private final Path storesFile;
    private final List<Path> journals = new ArrayList<>();
    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
    private final Set<Kind> injected = Collections.synchronizedSet(EnumSet.noneOf(Kind.class));
    private final long createdAt = System.nanoTime();
    private JavaProcess client;
    private volatile boolean stopping;
    private volatile long lastHealedAt;

    /**
     * A schedule drawn from {@code seed} over {@code stores} (restarted in place in that list, with
     * {@code storeFlags}), each behind its proxy in {@code proxies}, with this JVM's {@code workload}
     * and a client process started with {@code clientFlags} (besides its own),
     * pausing about {@code pauseMs} between faults. State directories are under {@code dir}; the
     * client process's journals go to {@code journalDir}, so that they outlive the test.
     */
    FaultSchedule(long seed, long pauseMs, Path dir, Path journalDir, Path logs, List<JavaProcess> stores,
            List<String> storeFlags, List<String> clientFlags, List<LinkProxy> proxies, ListAppendWorkload workload,
            boolean tls, int keysPerStore) {
        this.seed = seed;
        this.pauseMs = pauseMs;
        this.random = new Random(seed);
        this.dir = dir;
        this.journalDir = journalDir;
        this.logs = logs;
        this.stores = stores;
        this.storeFlags = List.copyOf(storeFlags);
        this.clientFlags = List.copyOf(clientFlags);
        this.proxies = proxies;
        this.workload = workload;
        this.tls = tls;
        this.keysPerStore = keysPerStore;
        this.incarnations = new int[stores.size()];
        this.storesFile = dir.resolve("stores.txt");
    }

    /** Starts store {@code index} (state in {@code dir/store-INDEX}) in its first run, on a free port. */
    static JavaProcess startStore(Path logs, Path dir, int index, List<String> flags) throws IOException {
        List<String> args = new ArrayList<>(List.of("store-" + index, dir.resolve("store-" + index).toString()));
        args.addAll(flags);
        return JavaProcess.start("store-" + index + "-" + System.nanoTime(), logs, StoreServer.class,
                args.toArray(String[]::new));
    }

    /** Waits (bounded) for a store to listen and returns its address. */
    static InetSocketAddress awaitListening(JavaProcess store) throws IOException, InterruptedException {
        int port = Integer.parseInt(store.awaitLine("LISTENING (\\d+)").group(1));
        return new InetSocketAddress("127.0.0.1", port);
    }

    /** Starts the client process (its next run) and waits until it runs transactions. */
    void startClientProcess() throws IOException, InterruptedException {
        int run = journals.size();
        Path journal = journalDir.resolve("client-process-" + run + ".journal");
        journals.add(journal);
        writeStores();
        List<String> args = new ArrayList<>(List.of("client-process", dir.resolve("client-process").toString(),
                journal.toString(), storesFile.toString(), "--seconds", "3600", "--clients", "4",
                "--keys-per-store", Integer.toString(keysPerStore), "--seed", Long.toString(seed * 100 + run),
                "--id-base", Integer.toString(10_000_000 * (1 + run)),
                "--value-base", Long.toString(100_000_000_000L * (1 + run))));
        if (tls) {
            args.add("--tls");
        }
        args.addAll(clientFlags);
        client = JavaProcess.start("client-process-" + run + "-" + System.nanoTime(), logs, ClientProcess.class,
                args.toArray(String[]::new));
        client.awaitLine("RUNNING");
    }

    /** Kills the client process (its transactions under way stay unknown in its journal). */
    void stopClientProcess() throws InterruptedException {
        if (client != null) {
            client.kill();
        }
    }

    /** The journals of every run of the client process so far. */
    List<Path> journals() {
        return List.copyOf(journals);
    }

    /**
     * Injects faults, on a thread of its own, until {@code run} has passed and at least one whole
     * round is done (on a crowded machine a round can outlast a short run), or {@link #stop}.
     */
    Thread start(Duration run) {
        long endAt = System.nanoTime() + run.toNanos();
        return Thread.ofPlatform().daemon().name("faults").start(() -> {
            try {
                for (int rounds = 0; !stopping && (rounds == 0 || System.nanoTime() < endAt); rounds++) {
                    List<Kind> round = new ArrayList<>(List.of(Kind.values()));
                    Collections.shuffle(round, random);
                    for (Kind kind : round) {
                        if (stopping || (rounds > 0 && System.nanoTime() >= endAt)) {
                            break;
                        }
                        inject(kind);
                        Thread.sleep(pauseMs / 2 + (long) (random.nextDouble() * pauseMs));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException | RuntimeException | AssertionError e) {
                log.add("fault schedule failed: " + e);
            }
        });
    }

    /**
     * Stops injecting (the fault under way is finished and healed first) and waits, bounded;
     * {@link #assertRanToItsEnd} then tells whether it went well (after the history is checked,
     * so that a fault that could not be injected does not cost the run its figures).
     */
    void stop(Thread injecting) throws InterruptedException {
        stopping = true;
        injecting.join(STOP_PATIENCE.toMillis());
        if (injecting.isAlive()) {
            log.add("fault schedule still busy " + STOP_PATIENCE.toSeconds() + " s after it was told to stop");
        }
    }

    /** Fails if a fault could not be injected or healed, or the schedule did not stop. */
    void assertRanToItsEnd() {
        assertThat(log).as("the fault schedule ran to its end").noneMatch(line -> line.startsWith("fault schedule"));
    }

    private void inject(Kind kind) throws InterruptedException, IOException {
        int store = random.nextInt(stores.size());
        LinkProxy proxy = proxies.get(store);
        long at = System.nanoTime();
        String what;
        switch (kind) {
            case DELAY -> {
                int delayMs = 5 + random.nextInt(46);
                proxy.delay(delayMs);
                Thread.sleep(1_500 + random.nextInt(1_500));
                proxy.delay(0);
                what = delayMs + " ms delay on store-" + store + "'s links";
            }
            case CUT -> {
                proxy.cut();
                Thread.sleep(500 + random.nextInt(1_000));
                proxy.heal();
                what = "store-" + store + "'s links cut";
            }
            case BLACK_HOLE -> {
                proxy.blackHole();
                Thread.sleep(StoreServer.HEARTBEAT_TIMEOUT_MS + 500);
                proxy.heal();
                what = "store-" + store + "'s links black-holed";
            }
            case KILL_STORE -> {
                stores.get(store).kill();
                Thread.sleep(200 + random.nextInt(800));
                restartStore(store);
                what = "kill -9 store-" + store + ", restarted (run " + incarnations[store] + ")";
            }
            case KILL_CLIENT -> {
                client.kill();
                Thread.sleep(200 + random.nextInt(800));
                startClientProcess();
                what = "kill -9 client process, restarted (run " + (journals.size() - 1) + ")";
            }
            default -> throw new IllegalStateException("no fault " + kind);
        }
        lastHealedAt = System.nanoTime();
        injected.add(kind);
        log.add(String.format("%.1fs %s, %.1f s", (at - createdAt) / 1e9, what, (lastHealedAt - at) / 1e9));
    }

    /** Starts store {@code index} again on its port and state directory, in its next run, and reconnects. */
    private void restartStore(int index) throws IOException, InterruptedException {
        incarnations[index]++;
        List<String> args = new ArrayList<>(storeFlags);
        args.addAll(List.of("--port", Integer.toString(proxies.get(index).address().getPort()),
                "--incarnation", Integer.toString(incarnations[index])));
        JavaProcess restarted = startStore(logs, dir, index, args);
        stores.set(index, restarted);
        awaitListening(restarted);
        writeStores();
        for (int attempt = 1; ; attempt++) {
            try {
                workload.storeRestarted(index, proxies.get(index).address(), incarnations[index]);
                return;
            } catch (WaldoException notYet) {
                assertThat(attempt).as("reconnected to restarted store-%d: %s", index, notYet.getMessage())
                        .isLessThan(RECONNECT_TRIES);
                Thread.sleep(250);
            }
        }
    }

    private void writeStores() throws IOException {
        List<ClientProcess.Store> current = new ArrayList<>();
        for (int s = 0; s < proxies.size(); s++) {
            current.add(new ClientProcess.Store(proxies.get(s).address(), incarnations[s]));
        }
        ClientProcess.writeStores(storesFile, current);
    }

    /** The kinds of fault injected (and healed) so far. */
    Set<Kind> kindsInjected() {
        return Set.copyOf(injected);
    }

    /** When the last fault was healed (System.nanoTime()). */
    long lastHealedAt() {
        return lastHealedAt;
    }

    /** Every fault so far, one a line: when (since the schedule was made), what, how long. */
    String log() {
        return log.size() + " faults (seed " + seed + "): " + String.join("; ", log);
    }

    /** Kills the client process. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        stopClientProcess();
    }
}
