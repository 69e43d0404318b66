package dev.waldoconf.service;

import dev.waldo.net.NetHost;
import dev.waldo.runtime.Host;
import dev.waldoconf.config.Inventory;
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
 * Learns, in the background, the outcome of the transactions a service's previous run left in
 * doubt (it voted yes, then stopped), and hands each outcome to the service, which ends the
 * transaction on its device: keeps the new state if it committed, puts the undo data back if not.
 * Every kind of service uses it (a switch's VLAN service, a custom device service).
 *
 * <p>It links to the other services of the inventory (a restarted host knows nobody), then has
 * the runtime ask the hosts its storage logged with each transaction's prepare ({@link
 * Host#restoredInDoubt}, {@link Host#recoverInDoubt(String)}): the first that
 * knows the outcome, or that never voted yes and so vetoes, decides; the service's own runtime
 * storage answers at once for a transaction it logged as ended, or never logged as prepared
 * (its vote never left). While every host asked voted yes and none knows, or none can be
 * reached, the transaction stays in doubt and the runtime keeps asking (a trial's deadline then
 * ends it, see {@link TrialTimer}).
 */
public final class InDoubtRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(InDoubtRecovery.class);
    private static final long CONNECT_TIMEOUT_MS = 10_000;
    /** How often a resolve that must wait (a transaction of this run is unfinished) is tried. */
    private static final int RESOLVE_ATTEMPTS = 30;
    private static final long RESOLVE_PAUSE_MS = 1_000;
    /** Services down at start are dialed again this often while a transaction is in doubt, for 10 minutes. */
    private static final long REDIAL_PAUSE_MS = 5_000;
    private static final int REDIAL_ROUNDS = 120;

    /**
     * One transaction a previous run left in doubt.
     *
     * @param key how the service names it in its journal and logs
     * @param transactionId the runtime's id of it ({@link dev.waldo.runtime.BoundTransaction#id()})
     */
    public record InDoubt(String key, String transactionId) {
    }

    /** The service side: what is in doubt, and how an outcome is applied. */
    public interface Participant {
        /** The transactions still in doubt. */
        List<InDoubt> inDoubt();

        /**
         * Ends {@code transaction} on the device as {@code committed} says.
         *
         * @throws IllegalStateException if it cannot be ended yet (tried again, bounded)
         * @throws Exception if it cannot be ended; a DeviceException is tried again too
         */
        void resolve(InDoubt transaction, boolean committed) throws Exception;
    }

    /**
     * Another service: its host and where it is reached (its own node's address, or its site
     * agent's, which several switches' hosts share).
     */
    public record Peer(String host, InetSocketAddress address) {
        @Override
        public String toString() {
            return host + " at " + address;
        }
    }

    /** The services of {@code inventory}'s switches other than {@code switchName}'s. */
    public static List<Peer> othersIn(Inventory inventory, String switchName) {
        return inventory.switches().stream().filter(other -> !other.name().equals(switchName))
                .map(other -> new Peer(Identities.serviceIdentity(other.name()), other.service().resolve())).toList();
    }

    /** Links this service's host to another service's, so that the runtime can ask it. */
    @FunctionalInterface
    public interface Dialer {
        /**
         * Links to the service {@code service}.
         *
         * @throws Exception if it cannot be reached now
         */
        void link(Peer service) throws Exception;
    }

    /** A host that reaches every other host without dialing (in-memory networks). */
    public static final Dialer NO_DIALING = service -> { };

    /**
     * Dials other services through {@code net}'s transport; the node at each address must be one its
     * node's {@link dev.waldo.net.HostAuthority} lets speak for that service's host.
     */
    public static Dialer dialing(NetHost net) {
        return service -> net.transport().connect(service.address(), service.host(), null)
                .get(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    private final String name;
    private final Host host;
    private final Participant participant;
    private final Dialer dialer;

    private InDoubtRecovery(String name, Host host, Participant participant, Dialer dialer) {
        this.name = name;
        this.host = host;
        this.participant = participant;
        this.dialer = dialer;
    }

    /**
     * Starts recovering {@code participant}'s in-doubt transactions on a thread of its own and
     * returns at once: the answer may take long, and the service serves meanwhile.
     *
     * @param otherServices the inventory's other services (this service excluded)
     */
    public static void start(String name, Host host, Participant participant, Dialer dialer,
            Collection<Peer> otherServices) {
        List<InDoubt> transactions = participant.inDoubt();
        if (transactions.isEmpty()) {
            return;
        }
        InDoubtRecovery recovery = new InDoubtRecovery(name, host, participant, dialer);
        Thread.ofVirtual().name("waldoconf-recover-" + name).start(() -> {
            Set<Peer> unreached = new LinkedHashSet<>(otherServices);
            unreached.removeIf(service -> recovery.connect(service, true));
            transactions.forEach(recovery::ask);
            recovery.redial(unreached);
        });
    }

    /**
     * Dials the services that were down at start again, bounded, while a transaction is still in
     * doubt: once linked, the runtime asks them at once.
     */
    private void redial(Set<Peer> unreached) {
        for (int round = 0; round < REDIAL_ROUNDS && !unreached.isEmpty() && !participant.inDoubt().isEmpty();
                round++) {
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
    private boolean connect(Peer service, boolean report) {
        try {
            dialer.link(service);
            LOG.debug("{}: linked to the service {} to ask about in-doubt transactions", name, service);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            if (report) {
                LOG.warn("{}: cannot reach the service {} to ask it about in-doubt transactions ({}); the others"
                        + " are asked, and it is dialed again every {} s for a while", name, service, reason(e),
                        REDIAL_PAUSE_MS / 1000);
            }
            return false;
        }
    }

    private static String reason(Exception e) {
        if (e instanceof TimeoutException) {
            return "no answer within " + CONNECT_TIMEOUT_MS + " ms";
        }
        return e instanceof ExecutionException && e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
    }

    private void ask(InDoubt transaction) {
        LOG.info("{}: asking {} for the outcome of in-doubt transaction {}", name, peersOf(transaction),
                transaction.key());
        CompletableFuture<Boolean> outcome;
        try {
            outcome = host.recoverInDoubt(transaction.transactionId());
        } catch (IllegalArgumentException e) {
            LOG.error("{}: cannot recover in-doubt transaction {}: {}; it stays in the journal", name,
                    transaction.key(), e.getMessage());
            return;
        }
        // Not on the thread that completes it (the host's binding thread): ending it may run a transaction.
        outcome.thenAcceptAsync(committed -> resolve(transaction, committed),
                        command -> Thread.ofVirtual().name("waldoconf-resolve-" + name).start(command))
                .exceptionally(error -> {
                    LOG.error("{}: could not recover in-doubt transaction {}: {}; it stays in the journal", name,
                            transaction.key(), error.getMessage());
                    return null;
                });
    }

    /**
     * Whom the runtime asks about {@code transaction}: the peers its storage logged with the
     * prepare, or a note saying why nobody (the log has no prepare, so it is backed out at once).
     */
    private Object peersOf(InDoubt transaction) {
        return host.restoredInDoubt().stream().filter(restored -> restored.id().equals(transaction.transactionId()))
                .findFirst().<Object>map(Host.RestoredInDoubt::peers)
                .orElse("nobody (the transaction log holds no yes vote of it, or its outcome is known already)");
    }

    /** Ends the transaction on the device, waiting (bounded) while it cannot be ended yet. */
    private void resolve(InDoubt transaction, boolean committed) {
        String outcome = committed ? "committed" : "backed out";
        for (int attempt = 1; attempt <= RESOLVE_ATTEMPTS; attempt++) {
            try {
                participant.resolve(transaction, committed);
                // A warning, like the one at start that reported it in doubt: it ends that one.
                LOG.warn("{}: in-doubt transaction {} was {}: {}", name, transaction.key(), outcome,
                        committed ? "the device keeps its new state" : "the device holds its old state again");
                return;
            } catch (IOException | IllegalArgumentException e) {
                LOG.error("{}: in-doubt transaction {} was {}, but the journal could not record it: {}", name,
                        transaction.key(), outcome, e.getMessage());
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                if (attempt == RESOLVE_ATTEMPTS || !pause(RESOLVE_PAUSE_MS)) {
                    LOG.error("{}: in-doubt transaction {} was {}, but it could not be ended here: {}. It stays in"
                            + " the journal; start the service again to retry", name, transaction.key(), outcome,
                            e.getMessage());
                    return;
                }
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
