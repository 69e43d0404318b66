package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.core.StorageRecord;
import dev.waldo.runtime.storage.InMemoryStorage;
import dev.waldo.runtime.testing.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The last partner step of a sequence carries the prepare and its reply the vote: a two-host
 * transaction sends no Prepare and no Vote message, only the step's call and reply, with the
 * Commit and its Ack after the caller returned, both unhurried: a transport sends each with the next
 * message to the same host, or after a short delay. Counted on the real host layer's transport.
 */
class OneRoundTripTest {
    private InMemoryNetwork network;
    private CountingTransport rootLink;
    private CountingTransport partnerLink;
    private Node root;
    private Node partner;

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        rootLink = new CountingTransport(network.attach("root"));
        partnerLink = new CountingTransport(network.attach("partner"));
        Host rootHost = Host.create("root", rootLink);
        Host partnerHost = Host.create("partner", partnerLink);
        Host.Connection<Node, Node> pair = rootHost.connect(Node::create, partnerHost, Node::create);
        root = pair.local();
        partner = pair.remote();
    }

    @AfterEach
    void close() {
        network.close();
    }

    /** bump runs Bump, whose partner step is marked last: one call out, one reply back, no Prepare or Vote. */
    @Test
    void aSequenceWhoseLastPartnerStepCarriesThePrepareCommitsWithoutPrepareOrVoteMessages() {
        rootLink.clear();
        partnerLink.clear();
        assertThat(root.bump(2)).isEqualTo(4.0); // start: x=2, total=2; echo on the partner: x=2, total=2+2
        Awaiting.until(() -> partnerLink.count(Message.Ack.class) == 1, "the partner acknowledged the commit");

        assertThat(rootLink.sent()).containsExactly("Call + Prepare", "Commit (unhurried)");
        assertThat(partnerLink.sent()).containsExactly("Reply + Vote YES", "Ack (unhurried)");
        assertThat(partner.x.committed()).isEqualTo(2.0);
        assertThat(root.log.committed()).containsExactly("bumped 4.0");
    }

    /**
     * When bindings take part on the partner, the caller waits for its acknowledgement (sent once
     * they committed): the Commit and the Ack go at once, not piggybacked. So does a backout's
     * acknowledgement, which a retry waits for.
     */
    @Test
    void aCommitWhoseAckTheCallerWaitsForAndABackoutsAckAreNotHeldBack() {
        partner.host().bind("test", new RecordingBinding());
        rootLink.clear();
        partnerLink.clear();
        root.atomically("addBound", ctx -> ctx.lastCall(partner.ref(), "add", "bound", 1.0));
        assertThat(rootLink.sent()).containsExactly("Call + Prepare", "Commit");
        assertThat(partnerLink.sent()).containsExactly("Reply + Vote YES", "Ack");

        rootLink.clear();
        partnerLink.clear();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> root.atomically("addThenAbort", ctx -> {
            ctx.call(partner.ref(), "add", "y", 1.0);
            throw ctx.abort();
        })).isInstanceOf(TransactionAbortedException.class);
        Awaiting.until(() -> partnerLink.count(Message.Ack.class) >= 1, "the partner acknowledged the backout");
        assertThat(rootLink.sent()).startsWith("Call", "Backout").doesNotContain("Backout (unhurried)");
        assertThat(partnerLink.sent()).startsWith("Reply", "Ack").doesNotContain("Ack (unhurried)");
    }

    /**
     * Walter's fast commit at one remote host: a body that touches nothing on its own host and
     * calls the partner (not marked last, so the call carries no prepare) has the partner decide
     * alone: Delegate and its Vote replace Prepare, Vote, Commit and Ack, and the partner's
     * logged commit is forgotten on an unhurried Ack.
     */
    @Test
    void withFastCommitAWriteOnTheOnlyOtherHostIsDelegatedInsteadOfPreparedAndCommitted() {
        root.host().useFastCommit(true);
        rootLink.clear();
        partnerLink.clear();
        Object sum = root.atomically("addThere", ctx -> ctx.call(partner.ref(), "add", "y", 4.0));
        assertThat(sum).isEqualTo(4.0);
        assertThat(partner.y.committed()).isEqualTo(4.0);
        Awaiting.until(() -> partner.host().decisionsOwed() == 0, "the partner heard its commit acknowledged");

        assertThat(rootLink.sent()).containsExactly("Call", "Delegate", "Ack (unhurried)");
        assertThat(partnerLink.sent()).containsExactly("Reply", "Vote");
    }

    /**
     * {@link Host#fastCommits} counts the roots committed by delegation, and only those: with fast
     * commit on, a root whose partner voted in the last call's reply, or that holds a lock on its
     * own host too, goes through two-phase commit and does not count; nor does the partner's side.
     */
    @Test
    void fastCommitsCountsOnlyTheRootsTheOtherHostCommittedAlone() {
        root.host().useFastCommit(true);
        root.atomically("addThere", ctx -> ctx.call(partner.ref(), "add", "y", 1.0));
        assertThat(root.host().fastCommits()).as("a write on the only other host, delegated").isEqualTo(1);

        root.bump(1); // the partner step carries the prepare: its vote came in the reply
        root.atomically("addHereAndThere", ctx -> {
            root.add$(ctx, "z", 1.0); // a lock on the root's own host
            return ctx.call(partner.ref(), "add", "y", 1.0);
        });
        root.atomically("addThereAgain", ctx -> ctx.call(partner.ref(), "add", "y", 1.0));

        assertThat(partner.y.committed()).isEqualTo(3.0);
        assertThat(root.host().fastCommits()).as("two delegated of four committed").isEqualTo(2);
        assertThat(partner.host().fastCommits()).as("the delegate's side").isZero();
    }

    /** A transaction whose data all live on its root's host commits there without two-phase commit: no message at all. */
    @Test
    void aTransactionOnTheRootsOwnDataSendsNoMessage() {
        rootLink.clear();
        assertThat(root.add("z", 5)).isEqualTo(5.0);
        assertThat(rootLink.sent()).isEmpty();
        assertThat(root.z.committed()).isEqualTo(5.0);
    }

    /**
     * A body that calls again after the marked last step: that attempt is retried (the callee
     * may already have prepared), the function's calls stop carrying the prepare, and every
     * transaction still commits exactly once.
     */
    @Test
    void aBodyThatCallsAfterTheLastStepIsRetriedOnceAndStopsCarryingThePrepare() {
        for (int i = 1; i <= 3; i++) {
            root.atomically("bumpThenAdd", ctx -> {
                root.bump$(ctx, 1);
                return ctx.call(partner.ref(), "add", "y", 1.0);
            });
        }
        assertThat(partner.y.committed()).isEqualTo(3.0);
        assertThat(partner.x.committed()).isEqualTo(3.0);
        assertThat(rootLink.count(Message.Prepare.class)).as("each transaction prepares its partner after the body").isEqualTo(3);
        assertThat(rootLink.sent().stream().filter("Call + Prepare"::equals)).as("only the first attempt carried it").hasSize(1);
    }

    /** A Java body whose only call is a Public function marked last: the call carries the prepare, the reply the vote. */
    @Test
    void aPublicFunctionCalledLastCommitsWithoutPrepareOrVoteMessages() {
        rootLink.clear();
        partnerLink.clear();
        Object sum = root.atomically("addThere", ctx -> {
            root.add$(ctx, "z", 1.0); // the root's own part prepares locally
            return ctx.lastCall(partner.ref(), "add", "y", 2.0);
        });
        assertThat(sum).isEqualTo(2.0);
        Awaiting.until(() -> partnerLink.count(Message.Ack.class) == 1, "the partner acknowledged the commit");

        assertThat(rootLink.sent()).containsExactly("Call + Prepare", "Commit (unhurried)");
        assertThat(partnerLink.sent()).containsExactly("Reply + Vote YES", "Ack (unhurried)");
        assertThat(partner.y.committed()).isEqualTo(2.0);
        assertThat(root.z.committed()).isEqualTo(1.0);
    }

    /** Earlier calls to the same host go plain; only the last carries the prepare, and that host is not asked again. */
    @Test
    void onlyTheMarkedCallCarriesThePrepareAndItsHostIsNotAskedAgain() {
        rootLink.clear();
        partnerLink.clear();
        root.atomically("readThenAdd", ctx -> {
            double seen = (Double) ctx.call(partner.ref(), "read", "y");
            return ctx.lastCall(partner.ref(), "add", "y", seen + 5.0);
        });
        Awaiting.until(() -> partnerLink.count(Message.Ack.class) == 1, "the partner acknowledged the commit");

        assertThat(rootLink.sent()).containsExactly("Call", "Call + Prepare", "Commit (unhurried)");
        assertThat(partnerLink.sent()).containsExactly("Reply", "Reply + Vote YES", "Ack (unhurried)");
        assertThat(partner.y.committed()).isEqualTo(5.0);
    }

    /**
     * With a third host in the transaction, the last call still carries the prepare to its own
     * host, and only the other host gets a Prepare message; both commit.
     */
    @Test
    void withAnotherParticipantOnlyTheHostNotCalledLastIsSentPrepare() {
        CountingTransport thirdLink = new CountingTransport(network.attach("third"));
        Host third = Host.create("third", thirdLink);
        Node other = root.host().connect(Node::create, third, Node::create).remote();
        rootLink.clear();
        partnerLink.clear();
        thirdLink.clear();
        root.atomically("addOnTwo", ctx -> {
            ctx.call(other.ref(), "add", "y", 1.0);
            return ctx.lastCall(partner.ref(), "add", "y", 1.0);
        });
        Awaiting.until(() -> partnerLink.count(Message.Ack.class) == 1 && thirdLink.count(Message.Ack.class) == 1,
                "both participants acknowledged the commit");

        assertThat(rootLink.count(Message.Prepare.class)).as("a Prepare to the third host only").isEqualTo(1);
        assertThat(rootLink.sent()).contains("Call + Prepare");
        assertThat(partnerLink.sent()).containsExactly("Reply + Vote YES", "Ack (unhurried)");
        assertThat(thirdLink.sent()).containsExactly("Reply", "Vote", "Ack (unhurried)");
        assertThat(partner.y.committed()).isEqualTo(1.0);
        assertThat(other.y.committed()).isEqualTo(1.0);
    }

    /** A body that calls again after its marked last Public call: retried once, then its calls go plain. */
    @Test
    void aBodyThatCallsAfterItsLastPublicCallIsRetriedOnceAndStopsCarryingThePrepare() {
        for (int i = 1; i <= 3; i++) {
            root.atomically("wrongMark", ctx -> {
                ctx.lastCall(partner.ref(), "add", "y", 1.0);
                return ctx.call(partner.ref(), "add", "x", 1.0);
            });
        }
        assertThat(partner.y.committed()).isEqualTo(3.0);
        assertThat(partner.x.committed()).isEqualTo(3.0);
        assertThat(rootLink.count(Message.Prepare.class)).as("each transaction prepares its partner after the body").isEqualTo(3);
        assertThat(rootLink.sent().stream().filter("Call + Prepare"::equals)).as("only the first attempt carried it").hasSize(1);
    }

    /**
     * A transaction whose only other host is the one its last call went to, which voted in its
     * reply: the caller returns with no further round trip. The partner's mailbox is held at
     * the Commit, so the call returns while the Commit has not even been received there; the
     * decision was logged on the root's storage by then, and the partner installs once released.
     */
    @Test
    void whenTheLastCallsHostIsTheOnlyParticipantTheCallerReturnsBeforeTheCommitArrives() {
        InMemoryNetwork own = new InMemoryNetwork();
        Latch commitHeld = new Latch("the partner holding the Commit");
        Latch release = new Latch("release of the partner's mailbox");
        try {
            InMemoryStorage rootLog = new InMemoryStorage();
            Host rootHost = Host.create("root", own.attach("root"), rootLog);
            HoldingTransport partnerLink = new HoldingTransport(own.attach("partner"), commitHeld, release);
            Host partnerHost = Host.create("partner", partnerLink);
            Host.Connection<Node, Node> pair = rootHost.connect(Node::create, partnerHost, Node::create);
            Node caller = pair.local();
            Node callee = pair.remote();
            partnerLink.armed = true;

            // On a thread of its own, so that a caller waiting for the held partner fails the test instead of hanging it.
            CompletableFuture<Object> sum = CompletableFuture.supplyAsync(
                    () -> caller.atomically("addThere", ctx -> ctx.lastCall(callee.ref(), "add", "y", 3.0)));

            assertThat(Latch.get(sum)).isEqualTo(3.0);
            assertThat(rootLog.durableRecords()).as("the commit was logged before the caller returned")
                    .anyMatch(StorageRecord.Committed.class::isInstance);
            commitHeld.await(); // the Commit did leave, and waits in the partner's mailbox
            release.open();
            assertThat(callee.y.committed()).isEqualTo(3.0);
        } finally {
            release.open();
            own.close();
        }
    }

    /** Once armed, holds the host's incoming messages at the first Commit until released. */
    private static final class HoldingTransport extends ForwardingTransport {
        private final Latch held;
        private final Latch release;
        volatile boolean armed;

        HoldingTransport(Transport inner, Latch held, Latch release) {
            super(inner);
            this.held = held;
            this.release = release;
        }

        @Override
        public void start(Receiver receiver) {
            super.start(new Receiver() {
                @Override
                public void onMessage(Envelope envelope) {
                    if (armed && envelope.message() instanceof Message.Commit && !held.isOpen()) {
                        held.open();
                        release.await();
                    }
                    receiver.onMessage(envelope);
                }

                @Override
                public void onLinkDown(int host) {
                    receiver.onLinkDown(host);
                }

                @Override
                public void onLinkUp(int host) {
                    receiver.onLinkUp(host);
                }

                @Override
                public void onPeerRestarted(int host) {
                    receiver.onPeerRestarted(host);
                }

                @Override
                public void onTick() {
                    receiver.onTick();
                }
            });
        }
    }

    /** Records what one host sends, by message type (the last call's prepare and the reply's vote named). */
    private static final class CountingTransport extends ForwardingTransport {
        private final List<String> sent = new ArrayList<>();
        private final List<Message> messages = new ArrayList<>();

        CountingTransport(Transport inner) {
            super(inner);
        }

        synchronized void clear() {
            sent.clear();
            messages.clear();
        }

        synchronized List<String> sent() {
            return List.copyOf(sent);
        }

        synchronized long count(Class<? extends Message> type) {
            return messages.stream().filter(type::isInstance).count();
        }

        @Override
        public synchronized void send(Envelope envelope) {
            Message message = envelope.message();
            messages.add(message);
            sent.add(switch (message) {
                case Message.Call call -> "Call" + (call.prepareWith() == null ? "" : " + Prepare");
                case Message.Reply reply -> "Reply" + (reply.vote() == null ? "" : " + Vote " + reply.vote().verdict());
                default -> message.getClass().getSimpleName();
            } + (envelope.unhurried() ? " (unhurried)" : ""));
            super.send(envelope);
        }
    }
}
