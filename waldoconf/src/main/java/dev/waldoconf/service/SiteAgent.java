package dev.waldoconf.service;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetLoops;
import dev.waldo.net.NetNode;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import java.net.InetSocketAddress;
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
 * What {@code waldoconf serve --site SITE} runs: the services of a site's switches in one process
 * (a site agent). Each switch stays its own Waldo participant, as under {@code serve --switch}: its
 * own host ({@code switch-NAME}), transaction log, journal, locks and trial timer, in {@code
 * stateDir/NAME}, so a switch can move between a one-switch service and an agent with its state.
 * What the agent shares is what costs per switch and need not: one node ({@link NetNode#shared})
 * with the agent's own identity ({@code site-SITE}, its certificate in {@link #agentDir}), listening
 * at the site's one address, whose connections carry every switch's links (an operator makes one
 * TLS handshake and keeps one heartbeat with the agent, not one per switch), the I/O threads under
 * it ({@link NetLoops}) and the threads that start the services.
 *
 * <p>A switch whose service cannot start (its SNMP agent does not answer, say) does not keep the
 * others from serving: it is reported, and tried again every {@link Settings#retryPeriod} until it
 * starts or the agent stops. Operators who reach it meanwhile are told the agent has no such host
 * (the link is refused, the connection stays), so a change that includes it fails before anything
 * is pushed, as for a stopped service.
 */
public final class SiteAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SiteAgent.class);

    private final Inventory inventory;
    private final Path stateDir;
    private final Optional<Path> customService;
    private final ServiceStarter starter;
    private final Events events;
    private final NetLoops loops;
    private final NetNode node;
    private final InetSocketAddress address;
    private final Map<String, RunningService> serving = new ConcurrentHashMap<>();
    private final Map<String, String> waiting = new ConcurrentHashMap<>();
    private final ScheduledExecutorService retries;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closed;

    /** Starts one switch's service, as {@code ChangeEngine::startService} or {@code WaldoConf::serve} does. */
    @FunctionalInterface
    public interface ServiceStarter {
        /**
         * Starts the service {@code spec} describes, on the agent's node.
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
     * @param ioThreads the Netty I/O threads of the agent's node, which every switch's host shares
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
            Events events, NetLoops loops, NetNode node, InetSocketAddress address) {
        this.inventory = inventory;
        this.stateDir = stateDir;
        this.customService = customService;
        this.starter = starter;
        this.events = events;
        this.loops = loops;
        this.node = node;
        this.address = address;
        this.retries = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("waldoconf-agent-retry").factory());
    }

    /**
     * Where the agent of {@code site} keeps its own state (its node's TLS key, certificate and pinned
     * peers) under {@code stateDir}: beside its switches' folders, named with a leading dot, which no
     * switch name has.
     */
    public static Path agentDir(Path stateDir, String site) {
        return stateDir.resolve("." + Identities.siteIdentity(site));
    }

    /**
     * Starts serving the switches of site {@code site} of {@code inventory}, each with its state in
     * {@code stateDir/NAME}, on one node that runs as {@code net} and listens at the site's address;
     * returns once each switch has started or failed to (see {@link #waiting()}).
     *
     * @param net the agent's node ({@link dev.waldoconf.WaldoConf#agentNet})
     * @param customService an operator's own .wld device service for every switch, or empty for the VLAN one
     * @throws IllegalArgumentException if the inventory has no such site, or it has no switch
     * @throws EngineException (unavailable) if the site's address cannot be listened on
     */
    public static SiteAgent start(Inventory inventory, String site, Path stateDir, NetConfig net,
            Optional<Path> customService, Settings settings, ServiceStarter starter, Events events)
            throws EngineException {
        List<SwitchEntry> switches = inventory.switchesOfSite(site);
        if (switches.isEmpty()) {
            throw new IllegalArgumentException("site '" + site + "' of " + inventory.file() + " has no switch to serve");
        }
        InetSocketAddress wanted = inventory.sites().get(site).resolve();
        NetLoops loops = NetLoops.create(settings.ioThreads(), "waldoconf-agent-io");
        NetNode node = NetNode.shared(net, loops);
        InetSocketAddress bound;
        try {
            bound = node.listen(wanted);
        } catch (java.io.UncheckedIOException e) {
            node.close();
            loops.close();
            throw new EngineException(EngineException.Kind.UNAVAILABLE, "the agent of site " + site + " cannot"
                    + " listen at its address: " + e.getCause().getMessage(), e);
        }
        SiteAgent agent = new SiteAgent(inventory, stateDir, customService, starter, events, loops, node, bound);
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
                    Optional.of(node)));
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

    /** Where the agent listens for every switch of its site. */
    public InetSocketAddress address() {
        return address;
    }

    /** Blocks until the agent is closed. */
    public void awaitTermination() throws InterruptedException {
        stopped.await();
    }

    /** Stops retrying, stops every switch's service, then the agent's node and threads. */
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
            node.close();
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
