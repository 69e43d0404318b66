package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.testing.Node;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Read-only transactions reading a snapshot, through real hosts ({@link Host#readOnly} with
 * {@link Host#useSnapshotReads}): the reader's host coordinates, the participant holds the data
 * and can hold back the coordinator's Commits. A reader never waits for nor wounds a writer that
 * holds what it reads, yet sees every commit that returned before it began; a write in it fails;
 * refused three times, it locks; it reads a bound variable's committed value without loading it.
 */
class SnapshotReadTest {
    private InMemoryNetwork network;
    private CommitHoldingTransport coordinatorLink;
    private Host coordinatorHost;
    private Host participantHost;
    private Node coordinator;
    private Node participant;

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        coordinatorLink = new CommitHoldingTransport(network.attach("coordinator"));
        coordinatorHost = Host.create("coordinator", coordinatorLink);
        coordinatorHost.useSnapshotReads(true);
        participantHost = Host.inMemory(network, "participant");
        Host.Connection<Node, Node> pair = coordinatorHost.connect(Node::create, participantHost, Node::create);
        coordinator = pair.local();
        participant = pair.remote();
        participant.define("peek", (ctx, args) -> variable((String) args[0]).read(ctx));
    }

    @AfterEach
    void close() {
        network.close();
    }

    private TVar<Double> variable(String name) {
        return switch (name) {
            case "x" -> participant.x;
            case "bound" -> participant.bound;
            default -> throw new ApplicationException("no variable " + name);
        };
    }

    /**
     * Runs {@code work} on a thread of its own: the common pool may have a single thread on a
     * small machine, and these tests block some of their transactions on latches.
     */
    private static <T> CompletableFuture<T> async(java.util.function.Supplier<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                result.complete(work.get());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** A read-only transaction on the coordinator's host that reads {@code variable} on the participant. */
    private double peek(String variable) {
        return coordinatorHost.readOnly(() -> coordinator.atomically("peek",
                ctx -> (Double) ctx.call(participant.ref(), "peek", variable)));
    }

    /**
     * The reader began first, so a locking read would wound the writer that holds x; it reads x's
     * committed value instead, while the writer still holds x, and the writer commits on its first
     * attempt.
     */
    @Test
    void aReaderNeitherWaitsForNorWoundsAWriterThatHoldsWhatItReads() throws Exception {
        Latch writerHolds = new Latch("the writer holds x");
        Latch readerMayRead = new Latch("the reader may read");
        Latch writerMayEnd = new Latch("the writer may end");
        AtomicInteger writerAttempts = new AtomicInteger();
        CompletableFuture<Double> read = async(() -> coordinatorHost.readOnly(() ->
                coordinator.atomically("peek", ctx -> {
                    readerMayRead.await();
                    return (Double) ctx.call(participant.ref(), "peek", "x");
                })));
        CompletableFuture<Object> write = async(() -> participant.atomically("write", ctx -> {
            writerAttempts.incrementAndGet();
            participant.x.set(ctx, 7.0);
            writerHolds.open();
            writerMayEnd.await();
            return null;
        }));
        writerHolds.await();
        readerMayRead.open();
        assertThat(Latch.get(read)).as("the committed value, read while the writer holds x").isEqualTo(0.0);
        writerMayEnd.open();
        Latch.get(write);
        assertThat(writerAttempts).as("the writer was never wounded").hasValue(1);
        assertThat(participant.x.committed()).isEqualTo(7.0);
    }

    /**
     * A commit returns at its decision, before the participant installs it. A read-only
     * transaction that begins after the return waits for that install (the writer voted yes
     * there and is undecided), and sees the write.
     */
    @Test
    void aReaderSeesACommitThatReturnedBeforeItBeganThoughTheParticipantHasNotInstalledIt() throws Exception {
        coordinatorLink.holdCommits(true);
        coordinator.atomically("add", ctx -> ctx.call(participant.ref(), "add", "x", 5.0));
        Awaiting.until(() -> coordinatorLink.heldCommits() == 1, "the coordinator's Commit is held back");
        CompletableFuture<Double> read = async(() -> peek("x"));
        Awaiting.until(() -> participantHost.waitingLockRequests() == 1, "the snapshot read waits for the yes-voter");
        assertThat(read).isNotDone();
        coordinatorLink.holdCommits(false);
        assertThat(Latch.get(read)).isEqualTo(5.0);
    }

    @Test
    void aWriteInAReadOnlyTransactionFailsNamingTheVariableAndChangesNothing() {
        assertThatThrownBy(() -> coordinatorHost.readOnly(() -> coordinator.atomically("sneak",
                ctx -> ctx.call(participant.ref(), "add", "y", 1.0))))
                .isInstanceOf(ApplicationException.class)
                .hasMessageContaining("tried to change variable 'y' on host participant (a WRITE)")
                .hasMessageContaining("may only read");
        assertThatThrownBy(() -> coordinatorHost.readOnly(() -> coordinator.atomically("sneak", ctx -> {
            coordinator.x.set(ctx, 1.0);
            return null;
        }))).isInstanceOf(ApplicationException.class).hasMessageContaining("variable 'x' on host coordinator");
        assertThat(participant.y.committed()).isEqualTo(0.0);
        assertThat(coordinator.x.committed()).isEqualTo(0.0);
    }

    /**
     * Each of the first three attempts has a writer install over its read before it prepares,
     * so each is refused; the fourth locks what it reads, so a writer that comes then waits for
     * it instead.
     */
    @Test
    void aReaderRefusedThreeTimesLocksOnItsFourthAttempt() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        double read = coordinatorHost.readOnly(() -> coordinator.atomically("peek", ctx -> {
            int attempt = attempts.incrementAndGet();
            double x = (Double) ctx.call(participant.ref(), "peek", "x");
            CompletableFuture<Double> writer = async(() -> participant.add("x", 1.0));
            if (attempt <= Host.SNAPSHOT_ATTEMPTS) {
                Latch.get(writer); // installed over the read: this attempt's validation fails
            } else {
                Awaiting.until(() -> participantHost.waitingLockRequests() == 1, "the writer waits for the read lock");
            }
            return x;
        }));
        assertThat(attempts).hasValue(Host.SNAPSHOT_ATTEMPTS + 1);
        assertThat(read).as("three writers committed before the locking attempt read").isEqualTo(3.0);
        Awaiting.until(() -> participant.x.committed() == 4.0, "the fourth writer commits after the reader");
    }

    /**
     * A snapshot reader reads a bound variable's committed value: a load would read a device a
     * writer may be changing.
     */
    @Test
    void aSnapshotReadOfABoundVariableReadsTheCommittedValueWithoutLoadingIt() {
        AtomicInteger loads = new AtomicInteger();
        participantHost.bind("test", new RecordingBinding() {
            @Override
            public Object load(WaldoObject owner, String variable, Annotation annotation, String transaction) {
                loads.incrementAndGet();
                return 99.0;
            }
        });
        assertThat(peek("bound")).isEqualTo(0.0);
        assertThat(loads).hasValue(0);
        double loaded = coordinator.atomically("peek", ctx -> (Double) ctx.call(participant.ref(), "peek", "bound"));
        assertThat(loaded).as("an ordinary transaction loads it").isEqualTo(99.0);
        assertThat(loads).hasValue(1);
    }

    /** The lock table of the participant while a read-only transaction that read x there is still running. */
    private String locksWhileReading() {
        return coordinatorHost.readOnly(() -> coordinator.atomically("peek", ctx -> {
            ctx.call(participant.ref(), "peek", "x");
            return participantHost.describeLocks();
        }));
    }

    @Test
    void aSnapshotReaderHoldsNoLockButWithSnapshotReadsOffItLocksAsAnyTransaction() {
        assertThat(locksWhileReading()).isEmpty();
        coordinatorHost.useSnapshotReads(false);
        assertThat(locksWhileReading()).contains(".x: held ").contains("/READ");
    }
}
