package dev.waldo.net.bench;

import dev.waldo.runtime.core.Decision;
import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.HostCore;
import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.core.Outbox;
import dev.waldo.runtime.core.TxnId;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH microbenchmarks of the runtime core alone ({@link HostCore}: no threads,
 * sockets or storage): the CPU one transaction costs the protocol's state
 * machines, and what a tick costs with attempts live. The host layer and the
 * network add to these; bench/RESULTS.md compares.
 *
 * <p>Build with {@code -Pjmh} and run through bench/jmh.sh (JMH's own main,
 * {@code -prof gc} for allocation per operation). Not a test: verify never runs it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CoreBenchmark {
    private static final LockId COUNTER = LockId.whole(1, "counter");
    private HostCore client;
    private HostCore server;
    private final ArrayDeque<Envelope> wire = new ArrayDeque<>();

    /** Fresh cores per trial: host 1 runs the roots, host 2 serves their calls. */
    @Setup(Level.Trial)
    public void start() {
        client = new HostCore(1);
        server = new HostCore(2);
    }

    /**
     * One two-host transaction, as the benchmark's clients run it: the root on
     * host 1 makes its last call to host 2, which locks a variable, prepares
     * and returns its vote with the reply; then the decision, commit and
     * acknowledgement. Returns the root's outcome.
     */
    @Benchmark
    public Decision.Result twoHostTransaction() {
        TxnId txn = client.begin(1);
        client.call(txn, 2, "step", true);
        pumpUntilQuiet();
        client.finishRoot(txn, HostCore.Ending.DONE);
        return pumpUntilQuiet();
    }

    /** A transaction whose data all live on the root's host: no messages at all. */
    @Benchmark
    public Decision.Result oneHostTransaction() {
        TxnId txn = client.begin(1);
        client.lock(txn, COUNTER);
        client.finishRoot(txn, HostCore.Ending.DONE);
        return pumpUntilQuiet();
    }

    /** Ticks of a host with {@code live} roots waiting for their votes (the coordinator's re-send scan). */
    @State(Scope.Thread)
    public static class Busy {
        @Param({"0", "100"})
        int live;
        HostCore core;

        @Setup(Level.Trial)
        public void start() {
            core = new HostCore(1);
            for (int i = 0; i < live; i++) {
                TxnId txn = core.begin(i);
                core.call(txn, 2, "step");
            }
            core.drain();
        }
    }

    @Benchmark
    public Outbox tick(Busy busy) {
        busy.core.tick();
        return busy.core.drain();
    }

    /** Plays both hosts' layers until neither has anything to do; returns the last root outcome seen. */
    private Decision.Result pumpUntilQuiet() {
        Decision.Result result = null;
        boolean busy = true;
        while (busy) {
            busy = false;
            for (HostCore core : new HostCore[] {client, server}) {
                for (Outbox out = core.drain(); !out.isEmpty(); out = core.drain()) {
                    busy = true;
                    for (Decision decision : out.decisions()) {
                        Decision.Result done = apply(core, decision);
                        result = done != null ? done : result;
                    }
                    wire.addAll(out.messages());
                }
            }
            for (Envelope envelope = wire.poll(); envelope != null; envelope = wire.poll()) {
                busy = true;
                (envelope.to() == 1 ? client : server).step(envelope);
            }
        }
        return result;
    }

    private static Decision.Result apply(HostCore core, Decision decision) {
        switch (decision) {
            case Decision.RunCall run -> {
                core.lock(run.txn(), COUNTER);
                core.finishCall(run.txn(), run.callId(), "done", false);
            }
            case Decision.PrepareLocal prepare -> core.vote(prepare.txn(), true, null);
            case Decision.Install install -> core.finished(install.txn());
            case Decision.Discard discard -> core.finished(discard.txn());
            case Decision.RootDone done -> {
                return done.result();
            }
            default -> { }
        }
        return null;
    }
}
