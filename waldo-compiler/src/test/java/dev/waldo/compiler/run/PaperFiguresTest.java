package dev.waldo.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.WaldoEndpoint;
import dev.waldo.runtime.WaldoObject;
import dev.waldo.runtime.lang.WList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The paper's Figures 1–3, compiled unchanged from the corpus and run on
 * several in-memory hosts, with the failures each figure is about.
 */
@Timeout(60)
class PaperFiguresTest {
    private static final Path PAPER = Path.of("src/test/resources/corpus/paper");

    static SourceFile figure(String file) throws IOException {
        return new SourceFile(file, Files.readString(PAPER.resolve(file)));
    }

    /** Publisher on one host; each subscriber is a server/client pair on two more hosts. */
    private record PubSub(ProgramRunner runner, WaldoObject publisher, List<Host.Connection<WaldoEndpoint,
            WaldoEndpoint>> subscribers) {
        List<Object> publicationsOfEachClient() {
            List<Object> all = new ArrayList<>();
            subscribers.forEach(s -> all.add(runner.committed(s.remote(), "publications")));
            return all;
        }
    }

    private static PubSub pubSub(ProgramRunner runner, int subscribers) {
        WaldoObject publisher = runner.create("Publisher", runner.host("publisher"));
        List<Host.Connection<WaldoEndpoint, WaldoEndpoint>> pairs = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            var pair = runner.connect("PubSubServer", runner.host("server" + i), "PubSubClient",
                    runner.host("client" + i));
            runner.call(publisher, "add_subscriber", pair.local().ref());
            pairs.add(pair);
        }
        return new PubSub(runner, publisher, pairs);
    }

    @Test
    void figure1EverySubscriberGetsEveryPublication() throws IOException {
        try (ProgramRunner runner = new ProgramRunner(figure("fig1_pubsub.wld"))) {
            PubSub pubSub = pubSub(runner, 3);
            runner.call(pubSub.publisher(), "publish", "aaaabbbcd");
            runner.call(pubSub.publisher(), "publish", "zzzzzzzzzzzz");
            assertThat(pubSub.publicationsOfEachClient()).hasSize(3).allSatisfy(publications ->
                    assertThat(publications).isEqualTo(WList.of("aaaabbbcd", "zzzzzzzzzzzz")));
        }
    }

    @Test
    void figure1NoSubscriberGetsAPublicationWhenOneStepFails() throws IOException {
        try (ProgramRunner runner = new ProgramRunner(figure("fig1_pubsub.wld"))) {
            PubSub pubSub = pubSub(runner, 3);
            runner.call(pubSub.publisher(), "publish", "first");
            runner.network().cut("server2", "client2");  // the last receive_push step cannot run

            assertThatThrownBy(() -> runner.call(pubSub.publisher(), "publish", "second"))
                    .isInstanceOf(NetworkException.class);
            assertThat(pubSub.publicationsOfEachClient()).allSatisfy(publications ->
                    assertThat(publications).isEqualTo(WList.of("first")));

            runner.network().heal("server2", "client2");
            runner.call(pubSub.publisher(), "publish", "third");
            assertThat(pubSub.publicationsOfEachClient()).allSatisfy(publications ->
                    assertThat(publications).isEqualTo(WList.of("first", "third")));
        }
    }

    private static List<WaldoObject> replicas(ProgramRunner runner, WaldoObject log, int count) {
        List<WaldoObject> replicas = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            WaldoObject replica = runner.create("Replica", runner.host("replica" + i));
            runner.call(log, "add_replica", replica.ref());
            replicas.add(replica);
        }
        return replicas;
    }

    @Test
    void figure2CommitsOnAMajorityAndUnreachableReplicasKeepNothing() throws IOException {
        try (ProgramRunner runner = new ProgramRunner(figure("fig2_replicated_log.wld"))) {
            WaldoObject log = runner.create("LogService", runner.host("log"));
            List<WaldoObject> replicas = replicas(runner, log, 5);
            appendOnEveryReplica(runner, log, replicas, "a");
            runner.network().cut("log", "replica3");
            runner.network().cut("log", "replica4");

            runner.call(log, "append", "b");  // 3 of 5 took it: a majority

            for (int i = 0; i < 3; i++) {
                assertThat(runner.committed(replicas.get(i), "entries")).isEqualTo(WList.of("a", "b"));
            }
            for (int i = 3; i < 5; i++) {
                assertThat(runner.committed(replicas.get(i), "entries")).isEqualTo(WList.of("a"));
            }
        }
    }

    @Test
    void figure2AbortsOnAMinorityAndNoReplicaKeepsTheEntry() throws IOException {
        try (ProgramRunner runner = new ProgramRunner(figure("fig2_replicated_log.wld"))) {
            WaldoObject log = runner.create("LogService", runner.host("log"));
            List<WaldoObject> replicas = replicas(runner, log, 5);
            appendOnEveryReplica(runner, log, replicas, "a");
            for (int i = 2; i < 5; i++) {
                runner.network().cut("log", "replica" + i);
            }

            assertThatThrownBy(() -> runner.call(log, "append", "b"))
                    .isInstanceOfSatisfying(TransactionAbortedException.class, e ->
                            assertThat(e.reason()).isEqualTo(TransactionAbortedException.Reason.ABORT_CALLED));

            assertThat(replicas).allSatisfy(replica ->
                    assertThat(runner.committed(replica, "entries")).isEqualTo(WList.of("a")));
        }
    }

    /**
     * Appends {@code entry} and waits until every replica installed it. A commit returns at the
     * decision, and a replica cut off before the Commit reached it keeps the entry undecided (in
     * doubt, so a committed() read there no longer waits for it): tests that cut replicas next
     * must wait for the installs, which reading each replica does.
     */
    private static void appendOnEveryReplica(ProgramRunner runner, WaldoObject log, List<WaldoObject> replicas,
            String entry) {
        runner.call(log, "append", entry);
        assertThat(replicas).allSatisfy(replica ->
                assertThat(runner.committed(replica, "entries")).isEqualTo(WList.of(entry)));
    }

    private static Host.Connection<WaldoEndpoint, WaldoEndpoint> negotiation(ProgramRunner runner,
            WList<String> clientCiphers, WList<String> serverCiphers) {
        Host clientHost = runner.host("client");
        Host serverHost = runner.host("server");
        return clientHost.connect(h -> (WaldoEndpoint) runner.create("Client", h, clientCiphers), serverHost,
                h -> (WaldoEndpoint) runner.create("Server", h, serverCiphers));
    }

    @Test
    void figure3ChoosesTheFirstOfferedCipherTheServerSupports() throws IOException {
        try (ProgramRunner runner = new ProgramRunner(figure("fig3_negotiation.wld"))) {
            var pair = negotiation(runner, WList.of("aes256", "chacha20", "aes128"), WList.of("aes128", "chacha20"));
            assertThat(runner.call(pair.local(), "connect")).isEqualTo(true);
            assertThat(runner.call(pair.local(), "current_cipher")).isEqualTo("chacha20");
            assertThat(runner.call(pair.remote(), "current_cipher")).isEqualTo("chacha20");
        }
    }

    @Test
    void figure3ReturnsFalseAndInitializesNothingWhenNoCipherMatches() throws IOException {
        try (ProgramRunner runner = new ProgramRunner(figure("fig3_negotiation.wld"))) {
            var pair = negotiation(runner, WList.of("aes256"), WList.of("des", "rc4"));
            assertThat(runner.call(pair.local(), "connect")).isEqualTo(false);
            assertThat(runner.call(pair.local(), "current_cipher")).isEqualTo("");
            assertThat(runner.call(pair.remote(), "current_cipher")).isEqualTo("");
        }
    }
}
