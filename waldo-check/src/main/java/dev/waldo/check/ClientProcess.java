package dev.waldo.check;

import dev.waldo.decisions.DecisionGroup;
import dev.waldo.decisions.RatisDecisionRegister;
import dev.waldo.runtime.WaldoException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A client host of the list-append workload in a process of its own, so that
 * a test can kill it with {@code -9} in the middle of its transactions. Every
 * transaction is journaled as it starts and as it ends
 * ({@link History#journal}); one the process never saw end stays unknown in
 * the history. Its transaction records are in {@code STATE-DIR/transactions},
 * so that started again with the same host id and state directory it settles
 * the attempts it left prepared on the stores.
 *
 * <pre>
 * java dev.waldo.check.ClientProcess HOST-ID STATE-DIR JOURNAL STORES-FILE
 *     [--seconds N] [--clients N] [--keys-per-store N] [--seed N] [--id-base N] [--value-base N]
 *     [--read-only-percent N] [--by-calls-percent N] [--group-commit] [--shared-appends] [--tls]
 *     [--decisions GROUP]
 * </pre>
 * {@code --read-only-percent} and {@code --by-calls-percent} are {@link ListAppendWorkload.Settings}'
 * {@code readOnlyPercent} and {@code byCallsPercent} (the latter turns fast commit on);
 * {@code --group-commit} opens the transaction log for group commit.
 * {@code --shared-appends} shares appends, as the stores started with it do.
 * {@code STORES-FILE} has a line {@code host:port incarnation} per store
 * ({@link #writeStores}); the process reads it again every 200 ms and
 * reconnects to each store whose incarnation went up. It prints
 * {@code RUNNING} once connected, and ends after {@code --seconds} (default
 * 60), or at once when its standard input ends (its parent is gone).
 */
public final class ClientProcess {
    private static final long STORES_POLL_MS = 200;

    private ClientProcess() {
    }

    /** Runs the client; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: ClientProcess HOST-ID STATE-DIR JOURNAL STORES-FILE [--seconds N] [--clients N]"
                    + " [--keys-per-store N] [--seed N] [--id-base N] [--value-base N] [--read-only-percent N]"
                    + " [--by-calls-percent N] [--group-commit] [--shared-appends] [--tls] [--decisions GROUP]");
            System.exit(2);
        }
        List<String> flags = List.of(args).subList(4, args.length);
        Path storesFile = Path.of(args[3]);
        List<Store> stores = readStores(storesFile);
        ListAppendWorkload.Settings settings = new ListAppendWorkload.Settings((int) number(flags, "--clients", 4),
                (int) number(flags, "--keys-per-store", 4), 4, 64, number(flags, "--seed", 1),
                (int) number(flags, "--id-base", 0), number(flags, "--value-base", 0),
                (int) number(flags, "--read-only-percent", 0), (int) number(flags, "--by-calls-percent", 0),
                flags.contains("--group-commit"), flags.contains("--shared-appends"));
        Thread.ofPlatform().daemon().name("parent-watch").start(ClientProcess::haltWhenParentGone);
        List<InetSocketAddress> addresses = stores.stream().map(Store::address).toList();
        ListAppendWorkload.Journal journal = History.journal(Path.of(args[2]));
        String decisions = StoreServer.valueAfter(flags, "--decisions", "a value");
        ListAppendWorkload workload = decisions == null
                ? ListAppendWorkload.connect(args[0], addresses, Path.of(args[1]), flags.contains("--tls"), true,
                        settings, journal)
                : ListAppendWorkload.connect(args[0], addresses, Path.of(args[1]), flags.contains("--tls"), true,
                        settings, journal, RatisDecisionRegister.connect(DecisionGroup.parse(decisions)));
        for (int s = 0; s < stores.size(); s++) {
            if (stores.get(s).incarnation() > 0) {
                workload.storeRestarted(s, stores.get(s).address(), stores.get(s).incarnation());
            }
        }
        Thread.ofPlatform().daemon().name("stores-watch").start(() -> followStores(storesFile, workload));
        System.out.println("RUNNING");
        System.out.flush();
        workload.run(Duration.ofSeconds(number(flags, "--seconds", 60)), Integer.MAX_VALUE);
        System.out.println("DONE committed=" + workload.committed() + " failed=" + workload.failed()
                + " indeterminate=" + workload.indeterminate() + " fastCommits=" + workload.fastCommits()
                + " unexpected=" + workload.unexpectedErrors());
        System.out.flush();
        Runtime.getRuntime().halt(0);  // without closing: the journal holds all, and a close may wait on stores
    }

    /** A store host as the stores file names it. */
    public record Store(InetSocketAddress address, int incarnation) {
    }

    /** Writes the stores file that client processes follow (atomically: they never read half of it). */
    public static void writeStores(Path file, List<Store> stores) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Store store : stores) {
            lines.add(store.address().getHostString() + ":" + store.address().getPort() + " " + store.incarnation());
        }
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.write(next, lines);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static List<Store> readStores(Path file) throws IOException {
        List<Store> stores = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String[] words = line.trim().split("[: ]");
            stores.add(new Store(new InetSocketAddress(words[0], Integer.parseInt(words[1])),
                    Integer.parseInt(words[2])));
        }
        return stores;
    }

    /** Reconnects to each store whose incarnation went up; one that cannot be reached yet is tried again. */
    private static void followStores(Path file, ListAppendWorkload workload) {
        while (true) {
            try {
                Thread.sleep(STORES_POLL_MS);
                List<Store> stores = readStores(file);
                for (int s = 0; s < stores.size(); s++) {
                    if (stores.get(s).incarnation() > workload.incarnation(s)) {
                        workload.storeRestarted(s, stores.get(s).address(), stores.get(s).incarnation());
                    }
                }
            } catch (WaldoException | IOException | UncheckedIOException notYet) {
                System.out.println("stores not all reachable yet: " + notYet.getMessage());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void haltWhenParentGone() {
        try {
            while (System.in.read() != -1) {
                // Nothing is read from stdin: its end tells that the parent is gone.
            }
        } catch (IOException e) {
            // The same: the parent is gone.
        }
        Runtime.getRuntime().halt(3);
    }

    private static long number(List<String> flags, String flag, long otherwise) {
        String number = StoreServer.valueAfter(flags, flag, "a number");
        return number == null ? otherwise : Long.parseLong(number);
    }
}
