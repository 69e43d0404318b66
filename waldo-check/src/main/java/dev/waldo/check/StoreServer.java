package dev.waldo.check;

import dev.waldo.check.program.ListStore;
import dev.waldo.check.program.StoreDesk;
import dev.waldo.check.program.Structs;
import dev.waldo.decisions.DecisionGroup;
import dev.waldo.decisions.RatisDecisionRegister;
import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.net.Security;
import dev.waldo.runtime.storage.FileStorage;
import dev.waldo.runtime.storage.Storage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * One store host of the list-append workload, as a process of its own: a
 * {@code ListStore} served to every client that connects. It prints
 * {@code LISTENING <port>} once it listens on 127.0.0.1 and runs until its
 * standard input ends (so it never outlives the test that started it) or it
 * is killed.
 *
 * <pre>
 * java dev.waldo.check.StoreServer HOST-ID STATE-DIR [--tls] [--optimistic] [--group-commit] [--shared-appends]
 *     [--broken-scheduler] [--broken-abstract-locks] [--port N] [--incarnation N] [--decisions GROUP]
 * </pre>
 * The host logs its transactions to {@code STATE-DIR/transactions} ({@code FileStorage}), so that
 * a store killed with {@code -9} and started again with the same id, state directory and
 * {@code --port} takes up the attempts it had prepared and learns their outcome from its peers.
 * Its lists start empty in each run (the runtime keeps no variables across runs): {@code
 * --incarnation} numbers the run, and the store backs out every operation meant for another.
 * {@code --optimistic} makes the store validate optimistically instead of locking
 * ({@code Host.useOptimisticConcurrency}, Tribune's OCC).
 * {@code --shared-appends} lets concurrent appends to a list share its lock
 * ({@code Host.useSharedAppends}), installed in the order of their commits' real-time stamps;
 * their clients must share appends too.
 * {@code --group-commit} opens the log for group commit ({@code Storage.Commit.GROUP}): one fsync
 * covers the records of every transaction written before it began.
 * {@code --decisions GROUP} has the store's outcomes settled by the replicated decision register
 * of that group ({@code DecisionGroup.spec()}: {@code ID@NAME=HOST:PORT,...}), which its clients
 * must use too.
 * {@code --broken-scheduler} releases every attempt's locks as it votes yes,
 * before the decision ({@code waldo.test.releaseLocksAtVote}): a scheduler that
 * is wrong on purpose, so that a test can see the checker catch it.
 * {@code --broken-abstract-locks} makes reads compatible with concurrent
 * appends ({@code waldo.test.readsCommute}): abstract locks wrong on purpose.
 */
public final class StoreServer {
    /** Heartbeat period of the workload's hosts: short, so that a lost link is noticed within the run. */
    public static final long HEARTBEAT_PERIOD_MS = 300;
    /** Heartbeat timeout of the workload's hosts: generous, because the machine is shared and loaded. */
    public static final long HEARTBEAT_TIMEOUT_MS = 3_000;

    private StoreServer() {
    }

    /** Starts the store; see the class comment for the arguments. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: StoreServer HOST-ID STATE-DIR [--tls] [--optimistic] [--group-commit]"
                    + " [--shared-appends] [--broken-scheduler] [--broken-abstract-locks] [--port N] [--incarnation N] [--decisions GROUP]");
            System.exit(2);
        }
        List<String> flags = List.of(args).subList(2, args.length);
        if (flags.contains("--broken-scheduler")) {
            // Set before the runtime's core classes load: the switch is read once, when they do.
            System.setProperty("waldo.test.releaseLocksAtVote", "true");
        }
        if (flags.contains("--broken-abstract-locks")) {
            System.setProperty("waldo.test.readsCommute", "true");
        }
        Path stateDir = Path.of(args[1]);
        NetConfig config = hostConfig(args[0], stateDir, flags.contains("--tls"));
        FileStorage storage = FileStorage.open(stateDir.resolve("transactions"),
                flags.contains("--group-commit") ? Storage.Commit.GROUP : Storage.Commit.EACH);
        String decisions = valueAfter(flags, "--decisions", "a value");
        NetHost net = decisions == null ? NetHost.start(config, Structs::create, storage)
                : NetHost.start(config, Structs::create, storage,
                        RatisDecisionRegister.connect(DecisionGroup.parse(decisions)));
        if (flags.contains("--optimistic")) {
            net.host().useOptimisticConcurrency(); // before the store's first transaction
        }
        net.host().useSharedAppends(flags.contains("--shared-appends"));
        ListStore store = ListStore.create(net.host());
        store.startIncarnation(numberAfter(flags, "--incarnation"));
        InetSocketAddress bound = net.listen(new InetSocketAddress("127.0.0.1", (int) numberAfter(flags, "--port")),
                host -> StoreDesk.create(host, store.ref()), null);
        System.out.println("LISTENING " + bound.getPort());
        System.out.flush();
        while (System.in.read() != -1) {
            // Nothing is read from stdin: its end tells that the parent is gone.
        }
        net.close();
    }

    /**
     * The word after {@code flag}, or null when the flag is absent (the store's and the client
     * process's command lines).
     *
     * @param what what the word must be, for the error when it is missing ("a number")
     */
    static String valueAfter(List<String> flags, String flag, String what) {
        int at = flags.indexOf(flag);
        if (at < 0) {
            return null;
        }
        if (at + 1 >= flags.size()) {
            throw new IllegalArgumentException(flag + " needs " + what + " after it");
        }
        return flags.get(at + 1);
    }

    /** The number after {@code flag}, or 0 when the flag is absent. */
    private static long numberAfter(List<String> flags, String flag) {
        String number = valueAfter(flags, flag, "a number");
        return number == null ? 0 : Long.parseLong(number);
    }

    /** The network settings every host of the workload uses, the client's included. */
    public static NetConfig hostConfig(String hostId, Path stateDir, boolean tls) {
        return NetConfig.defaults(hostId, stateDir).withSecurity(tls ? Security.SELF_SIGNED : Security.INSECURE)
                .withHeartbeat(HEARTBEAT_PERIOD_MS, HEARTBEAT_TIMEOUT_MS);
    }
}
