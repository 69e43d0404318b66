package dev.waldoconf.custom;

import dev.waldo.net.NetHost;
import dev.waldoconf.custom.ScalarJournal.Entry;
import dev.waldoconf.device.DeviceException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Learns, in the background, the outcome of the transactions a custom service's previous run left
 * in doubt (journaled {@code prepared}: it voted yes, then stopped), and ends them on the agent with
 * {@link ScalarSnmpBinding#resolve}. It connects to the other services of the inventory (a restarted
 * host knows nobody), then asks the hosts journaled with each entry through {@link
 * dev.waldo.runtime.Host#recoverInDoubt}: the first that knows the outcome, or that never voted yes
 * and so vetoes, decides. While every host asked voted yes and none knows, or none can be reached,
 * the entry stays in doubt and the runtime keeps asking.
 */
final class InDoubtRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(InDoubtRecovery.class);
    private static final long CONNECT_TIMEOUT_MS = 10_000;
    /** How often a resolve that must wait (a transaction of this run is unfinished) is tried. */
    private static final int RESOLVE_ATTEMPTS = 30;
    private static final long RESOLVE_PAUSE_MS = 1_000;
    /** Services down at start are dialed again this often while an entry is in doubt, for 10 minutes. */
    private static final long REDIAL_PAUSE_MS = 5_000;
    private static final int REDIAL_ROUNDS = 120;

    private final String name;
    private final ScalarSnmpBinding binding;
    private final NetHost host;

    private InDoubtRecovery(String name, ScalarSnmpBinding binding, NetHost host) {
        this.name = name;
        this.binding = binding;
        this.host = host;
    }

    /**
     * Starts recovering {@code binding}'s in-doubt entries on a thread of its own and returns at once:
     * the answer may take long, and the service serves meanwhile.
     *
     * @param otherServices where the inventory's other services listen (this service excluded)
     */
    static void start(String name, ScalarSnmpBinding binding, NetHost host,
            Collection<InetSocketAddress> otherServices) {
        List<Entry> entries = binding.inDoubt();
        if (entries.isEmpty()) {
            return;
        }
        InDoubtRecovery recovery = new InDoubtRecovery(name, binding, host);
        Thread.ofVirtual().name("waldoconf-recover-" + name).start(() -> {
            Set<InetSocketAddress> unreached = new LinkedHashSet<>(otherServices);
            unreached.removeIf(service -> recovery.connect(service, true));
            entries.forEach(recovery::ask);
            recovery.redial(unreached);
        });
    }

    /**
     * Dials the services that were down at start again, bounded, while an entry is still in doubt:
     * once linked, the runtime asks them at once.
     */
    private void redial(Set<InetSocketAddress> unreached) {
        for (int round = 0; round < REDIAL_ROUNDS && !unreached.isEmpty() && !binding.inDoubt().isEmpty(); round++) {
            if (!pause(REDIAL_PAUSE_MS)) {
                return;
            }
            unreached.removeIf(service -> connect(service, false));
        }
    }

    /**
     * Links to another service so that the runtime knows its host id and can ask it.
     *
     * @param report whether to log a failure (the first attempt does; redials stay quiet)
     * @return true once linked
     */
    private boolean connect(InetSocketAddress service, boolean report) {
        try {
            String peer = host.transport().connect(service).get(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            LOG.debug("{}: linked to {} at {} to ask about in-doubt transactions", name, peer, service);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            if (report) {
                LOG.warn("{}: cannot reach the service at {} to ask it about in-doubt transactions ({}); the others"
                        + " are asked, and it is dialed again every {} s for a while", name, service,
                        e instanceof ExecutionException ? e.getCause().getMessage()
                                : "no answer within " + CONNECT_TIMEOUT_MS + " ms", REDIAL_PAUSE_MS / 1000);
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void ask(Entry entry) {
        LOG.info("{}: asking {} for the outcome of in-doubt transaction {}", name, entry.peers(), entry.key());
        CompletableFuture<Boolean> outcome;
        try {
            outcome = host.host().recoverInDoubt(entry.transactionId(), entry.peers());
        } catch (IllegalArgumentException e) {
            LOG.error("{}: cannot recover in-doubt transaction {}: {}; it stays in the journal", name, entry.key(),
                    e.getMessage());
            return;
        }
        outcome.thenAcceptAsync(committed -> resolve(entry, committed),
                        command -> Thread.ofVirtual().name("waldoconf-resolve-" + name).start(command))
                .exceptionally(error -> {
                    LOG.error("{}: could not recover in-doubt transaction {}: {}; it stays in the journal", name,
                            entry.key(), error.getMessage());
                    return null;
                });
    }

    /** Ends the entry on the agent, waiting (bounded) while a transaction of this run is unfinished here. */
    private void resolve(Entry entry, boolean committed) {
        String outcome = committed ? "committed" : "backed out";
        for (int attempt = 1; attempt <= RESOLVE_ATTEMPTS; attempt++) {
            try {
                binding.resolve(entry.key(), committed);
                // A warning, like the one at start that reported the entry in doubt: it ends that one.
                LOG.warn("{}: in-doubt transaction {} was {}: {}", name, entry.key(), outcome,
                        committed ? "the agent keeps its values" : "the agent holds its old values again");
                return;
            } catch (IllegalStateException | DeviceException e) {
                if (attempt == RESOLVE_ATTEMPTS || !pause(RESOLVE_PAUSE_MS)) {
                    LOG.error("{}: in-doubt transaction {} was {}, but it could not be ended here: {}. It stays in"
                            + " the journal; start the service again to retry", name, entry.key(), outcome,
                            e.getMessage());
                    return;
                }
            } catch (IOException | IllegalArgumentException e) {
                LOG.error("{}: in-doubt transaction {} was {}, but the journal could not record it: {}", name,
                        entry.key(), outcome, e.getMessage());
                return;
            }
        }
    }

    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
