package dev.waldoconf.service;

import dev.waldo.net.NetLoops;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code waldoconf serve --switches GROUP} runs: the services of many switches in one process
 * (a site agent). Each switch stays its own Waldo participant, as under {@code serve --switch}: its
 * own host id, transaction log, journal, locks and trial timer, in {@code stateDir/NAME} as before,
 * so a switch can move between a one-switch service and an agent with its state. What the agent
 * shares is what costs per switch and need not: the I/O threads ({@link NetLoops}; each switch's
 * host is pinned to one of them) and the threads that start the services.
 *
 * <p>A switch whose service cannot start (its SNMP agent does not answer, say) does not keep the
 * others from serving: it is reported, and tried again every {@link Settings#retryPeriod} until it
 * starts or the agent stops. Operators who reach it meanwhile find nothing listening, so a change
 * that includes it fails before anything is pushed, as for a stopped service.
 */
public final class SiteAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SiteAgent.class);

    private final Inventory inventory;
    private final Path stateDir;
    private final Optional<Path> customService;
    private final ServiceStarter starter;
    private final Events events;
    private final NetLoops loops;
    private final Map<String, RunningService> serving = new ConcurrentHashMap<>();
    private final Map<String, String> waiting = new ConcurrentHashMap<>();
    private final ScheduledExecutorService retries;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closed;

    /** Starts one switch's service, as {@code ChangeEngine::startService} or {@code WaldoConf::serve} does. */
    @FunctionalInterface
    public interface ServiceStarter {
        /**
         * Starts the service {@code spec} describes, on the agent's shared loops.
         *
         * @throws EngineException if it cannot start (the agent reports it and tries again later)
         */
        RunningService start(ServiceSpec spec) throws EngineException;
    }

    /** What the agent reports as its switches start or fail to; called from the agent's threads. */
    public interface Events {
        /** Switch {@code name}'s service listens now. */
        void serving(String name);

        /** Switch {@code name}'s service could not start, because of {@code reason}; tried again later. */
        void waiting(String name, String reason);

        /** Reports nothing. */
        Events NONE = new Events() {
            @Override
            public void serving(String name) {
            }

            @Override
            public void waiting(String name, String reason) {
            }
        };
    }

    /**
     * How the agent runs.
     *
     * @param ioThreads the Netty I/O threads every switch's host shares
     * @param startThreads how many services start at once (each reads its switch and may issue a certificate)
     * @param retryPeriod how long after a failed start a switch is tried again
     */
    public record Settings(int ioThreads, int startThreads, Duration retryPeriod) {
        /** Checks the settings. */
        public Settings {
            if (ioThreads < 1 || startThreads < 1 || retryPeriod.isNegative() || retryPeriod.isZero()) {
                throw new IllegalArgumentException("a site agent needs at least one I/O and one start thread and a"
                        + " positive retry period, got " + ioThreads + ", " + startThreads + " and " + retryPeriod);
            }
        }

        /**
         * For {@code switches} switches on this machine: one I/O thread per core (at least 2, at most
         * one per switch), up to 4 starts per core at once, and a retry every 10 s.
         */
        public static Settings forSwitches(int switches) {
            int cores = Runtime.getRuntime().availableProcessors();
            int most = Math.max(1, switches);
            return new Settings(Math.min(most, Math.max(2, cores)), Math.min(most, Math.min(16, 4 * cores)),
                    Duration.ofSeconds(10));
        }
    }

    private SiteAgent(Inventory inventory, Path stateDir, Optional<Path> customService, ServiceStarter starter,
            Events events, NetLoops loops) {
        this.inventory = inventory;
        this.stateDir = stateDir;
        this.customService = customService;
        this.starter = starter;
        this.events = events;
        this.loops = loops;
        this.retries = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("waldoconf-agent-retry").factory());
    }

    /**
     * Starts serving {@code switches} of {@code inventory}, each with its state in {@code
     * stateDir/NAME}, and returns once each has started or failed to (see {@link #waiting()}).
     *
     * @param customService an operator's own .wld device service for every switch, or empty for the VLAN one
     * @throws IllegalArgumentException if {@code switches} is empty
     */
    public static SiteAgent start(Inventory inventory, List<SwitchEntry> switches, Path stateDir,
            Optional<Path> customService, Settings settings, ServiceStarter starter, Events events) {
        if (switches.isEmpty()) {
            throw new IllegalArgumentException("a site agent needs at least one switch to serve");
        }
        NetLoops loops = NetLoops.create(settings.ioThreads(), "waldoconf-agent-io");
        SiteAgent agent = new SiteAgent(inventory, stateDir, customService, starter, events, loops);
        agent.startAll(switches, settings);
        return agent;
    }

    /** Starts every switch, {@code settings.startThreads()} at a time, and schedules retries for the failures. */
    private void startAll(List<SwitchEntry> switches, Settings settings) {
        ExecutorService starting = Executors.newFixedThreadPool(settings.startThreads(),
                Thread.ofPlatform().daemon().name("waldoconf-agent-start-", 0).factory());
        try {
            List<Future<?>> started = new ArrayList<>();
            for (SwitchEntry entry : switches) {
                started.add(starting.submit(() -> startOne(entry.name())));
            }
            for (Future<?> each : started) {
                awaitQuietly(each);
            }
        } finally {
            starting.shutdownNow();
        }
        long periodMs = settings.retryPeriod().toMillis();
        retries.scheduleWithFixedDelay(this::retryWaiting, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    private static void awaitQuietly(Future<?> future) {
        try {
            future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            // startOne reports its own failures; anything else is a bug worth the log.
            LOG.error("a switch's start failed unexpectedly", e.getCause());
        }
    }

    /** Starts switch {@code name}'s service, or records why it could not. */
    private void startOne(String name) {
        if (closed) {
            return;
        }
        RunningService service;
        try {
            service = starter.start(new ServiceSpec(inventory, name, stateDir.resolve(name), customService,
                    Optional.of(loops)));
        } catch (EngineException | RuntimeException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            waiting.put(name, reason);
            events.waiting(name, reason);
            return;
        }
        serving.put(name, service);
        waiting.remove(name);
        if (closed) {
            // close() ran while this one started: it did not see it, so it is closed here.
            serving.remove(name);
            service.close();
            return;
        }
        events.serving(name);
    }

    /** Tries again, one at a time, every switch whose service has not started yet. */
    private void retryWaiting() {
        new TreeMap<>(waiting).keySet().forEach(this::startOne);
    }

    /** The switches whose services listen now, sorted by name. */
    public List<String> serving() {
        return serving.keySet().stream().sorted().toList();
    }

    /** The switches whose services have not started yet, with the last reason, sorted by name. */
    public Map<String, String> waiting() {
        return new TreeMap<>(waiting);
    }

    /** How many I/O threads all the switches share. */
    public int ioThreads() {
        return loops.threads();
    }

    /** Blocks until the agent is closed. */
    public void awaitTermination() throws InterruptedException {
        stopped.await();
    }

    /** Stops retrying, stops every switch's service, then the shared threads. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            retries.shutdownNow();
            awaitRetries();
            serving.values().forEach(RunningService::close);
            serving.clear();
            loops.close();
        } finally {
            stopped.countDown();
        }
    }

    /** A retry in progress finishes its start (which then sees {@code closed}) before the loops go. */
    private void awaitRetries() {
        try {
            if (!retries.awaitTermination(1, TimeUnit.MINUTES)) {
                LOG.warn("a switch's retried start did not end within a minute of the agent stopping");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
