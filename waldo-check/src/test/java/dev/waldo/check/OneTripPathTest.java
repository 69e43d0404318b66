package dev.waldo.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.check.program.ClientDesk;
import dev.waldo.check.program.ListStore;
import dev.waldo.check.program.Op;
import dev.waldo.check.program.StoreDesk;
import dev.waldo.check.program.Structs;
import dev.waldo.net.NetTransport;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.ForwardingTransport;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.Transport;
import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.lang.WList;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload's transactions take the one-round-trip commit path: {@code ClientDesk.run} ends
 * with {@code LastOp}, whose step on the last operation's store carries the prepare, and that
 * store's reply carries its vote. The same program as the multi-process runs, on real hosts and
 * waldo-net transports over loopback (in one JVM), with what the client and each store send counted.
 */
class OneTripPathTest {
    private static final int STORES = 3;
    @TempDir
    Path stateDir;
    private final List<Host> hosts = new ArrayList<>();
    private CountingTransport clientLink;
    private final List<CountingTransport> storeLinks = new ArrayList<>();
    private final WList<EndpointRef> stores = new WList<>();
    private final List<ClientDesk> desks = new ArrayList<>();

    @BeforeEach
    void connect() throws Exception {
        NetTransport clientNet = transport("client");
        clientLink = new CountingTransport(clientNet);
        Host clientHost = host("client", clientLink);
        for (int s = 0; s < STORES; s++) {
            NetTransport storeNet = transport("store-" + s);
            InetSocketAddress address = storeNet.listen(new InetSocketAddress("127.0.0.1", 0));
            CountingTransport link = new CountingTransport(storeNet);
            storeLinks.add(link);
            Host storeHost = host("store-" + s, link);
            clientNet.connect(address).get(10, TimeUnit.SECONDS);
            ListStore store = ListStore.create(storeHost);
            Host.Connection<ClientDesk, StoreDesk> pair =
                    clientHost.connect(ClientDesk::create, storeHost, host -> StoreDesk.create(host, store.ref()));
            stores.add(store.ref());
            desks.add(pair.local());
        }
    }

    @AfterEach
    void close() {
        hosts.forEach(Host::close);
    }

    private NetTransport transport(String hostId) {
        return new NetTransport(StoreServer.hostConfig(hostId, stateDir.resolve(hostId), false), Structs::create);
    }

    private Host host(String hostId, Transport transport) {
        Host host = Host.create(hostId, transport);
        hosts.add(host);
        return host;
    }

    /** Appends on stores 0 and 1, then reads on store 2: only store 2's call carries the prepare. */
    @Test
    void theLastOperationsStoreVotesInItsReplyAndGetsNoPrepare() {
        run(ops(op(true, 0, "a", 1), op(true, 1, "b", 2), op(true, 2, "c", 3)));
        clearCounts();

        WList<WList<Double>> results =
                run(ops(op(true, 0, "a", 4), op(false, 1, "b", 0), op(false, 2, "c", 0)));

        assertThat(results.get(1)).containsExactly(2.0);
        assertThat(results.get(2)).as("the list LastOp read on store 2").containsExactly(3.0);
        assertThat(clientLink.sentTo(2)).as("a Commit of the transaction before may come first")
                .contains("Call + Prepare").doesNotContain("Prepare");
        // Store 2 only read: its vote in the reply is read-only, and no commit follows to it.
        assertThat(storeLinks.get(2).sentTo(-1)).contains("Reply + Vote READ_ONLY").doesNotContain("Vote");
        assertThat(clientLink.sentTo(0)).contains("Call", "Prepare").doesNotContain("Call + Prepare");
        assertThat(clientLink.sentTo(1)).contains("Call", "Prepare").doesNotContain("Call + Prepare");
    }

    /**
     * Many transactions, as the workload draws them: every one ends with one early vote (read-only
     * when the last store only read), and the client sends a Prepare only to the other stores it
     * touched. Prints the counts.
     */
    @Test
    void everyTransactionOfTheWorkloadEndsWithAnEarlyVote() {
        int txns = 60;
        java.util.Random random = new java.util.Random(7);
        int expectedPrepares = 0;
        long value = 100;
        for (int t = 0; t < txns; t++) {
            WList<Op> ops = new WList<>();
            java.util.Set<Integer> touched = new java.util.HashSet<>();
            int count = 2 + random.nextInt(4);
            for (int i = 0; i < count; i++) {
                int store = random.nextInt(STORES);
                touched.add(store);
                ops.add(op(random.nextBoolean(), store, "k" + random.nextInt(3), ++value));
            }
            int lastStore = (int) Math.round(ops.get(ops.size() - 1).store);
            touched.remove(lastStore);
            expectedPrepares += touched.size();
            run(ops);
        }
        long readOnly = storeLinks.stream().mapToLong(link -> link.count("Reply + Vote READ_ONLY")).sum();
        long earlyVotes = readOnly + storeLinks.stream().mapToLong(link -> link.count("Reply + Vote YES")).sum();
        long prepares = clientLink.count("Prepare");
        System.out.printf("one-trip path: %d transactions, %d early votes (%d read-only), %d Prepare messages (%d"
                + " without the path's)%n", txns, earlyVotes, readOnly, prepares, prepares + earlyVotes);
        assertThat(readOnly).as("last stores that only read").isPositive();
        assertThat(earlyVotes).isEqualTo(txns);
        assertThat(clientLink.count("Call + Prepare")).isEqualTo(txns);
        assertThat(prepares).isEqualTo(expectedPrepares);
    }

    /** Runs {@code ops} as the workload does: on the desk connected to the store of the last one. */
    private WList<WList<Double>> run(WList<Op> ops) {
        return desks.get((int) Math.round(ops.get(ops.size() - 1).store)).run(ops, stores);
    }

    private void clearCounts() {
        clientLink.clear();
        storeLinks.forEach(CountingTransport::clear);
    }

    private static WList<Op> ops(Op... ops) {
        WList<Op> list = new WList<>();
        list.addAll(List.of(ops));
        return list;
    }

    private static Op op(boolean append, int store, String key, long value) {
        Op op = new Op();
        op.append = append;
        op.store = store;
        op.incarnation = 0;
        op.key = key;
        op.value = value;
        return op;
    }

    /** Records what one host sends, to whom, by message type (a call's prepare and a reply's vote named). */
    private static final class CountingTransport extends ForwardingTransport {
        private final List<Envelope> sent = new ArrayList<>();

        CountingTransport(Transport inner) {
            super(inner);
        }

        synchronized void clear() {
            sent.clear();
        }

        /** What was sent to the host named {@code store-<store>} (or {@code client} for a negative number). */
        synchronized List<String> sentTo(int store) {
            int to = hostNumber(store < 0 ? "client" : "store-" + store);
            return sent.stream().filter(e -> e.to() == to).map(e -> name(e.message())).toList();
        }

        synchronized long count(String name) {
            return sent.stream().filter(e -> name(e.message()).equals(name)).count();
        }

        private static String name(Message message) {
            return switch (message) {
                case Message.Call call -> "Call" + (call.prepareWith() == null ? "" : " + Prepare");
                case Message.Reply reply -> "Reply" + (reply.vote() == null ? "" : " + Vote " + reply.vote().verdict());
                default -> message.getClass().getSimpleName();
            };
        }

        @Override
        public synchronized void send(Envelope envelope) {
            sent.add(envelope);
            super.send(envelope);
        }
    }
}
