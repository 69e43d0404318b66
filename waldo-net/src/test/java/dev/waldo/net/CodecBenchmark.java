package dev.waldo.net;

import dev.waldo.runtime.Requests;
import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.core.Priority;
import dev.waldo.runtime.core.TxnId;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH microbenchmark of the wire codec: the four frames of one two-host
 * transaction (Call with the prepare, Reply with the vote, Commit, Ack), each encoded by the
 * real pipeline of one host (protobuf, aliases, framing, the protocol guard)
 * and decoded by the other's, without sockets or TLS. Run with
 * {@code -prof gc} (bench/jmh.sh) for bytes allocated per transaction.
 * Not a test: verify never runs it; build it with {@code -Pjmh}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {
    private EmbeddedPair pair;
    private int a;
    private int b;
    private long serial;
    private long clock;
    private final Object step = new Requests.StepInvocation(7, 3L << 40 | 1, "Bump", 1, Map.of("by", 1.0));
    private final Object stepResponse = new Requests.Response(Requests.Kind.VALUE, null, null, Map.of("total", 2.0), false);

    @Setup(Level.Trial)
    public void connect() {
        // No heartbeats flow between embedded channels: a timeout would close them between iterations.
        pair = new EmbeddedPair(config -> config.withHeartbeat(3_600_000, 7_200_000));
        a = pair.a;
        b = pair.b;
    }

    @TearDown(Level.Trial)
    public void close() {
        pair.close();
    }

    /** One transaction's frames, both ways; returns the bytes they took on the wire. */
    @Benchmark
    public int transactionFrames() {
        TxnId txn = new TxnId(a, ++serial);
        long callId = (long) a << 40 | serial;
        // The last step's call carries the prepare and its reply the vote: four frames in all.
        int bytes = send(pair.aToB, pair.aChannel, pair.bChannel, a, b, new Message.Call(txn, new Priority(false, clock, a, serial),
                callId, step, Set.of()));
        bytes += send(pair.bToA, pair.bChannel, pair.aChannel, b, a, new Message.Reply(txn, callId, stepResponse, false, Set.of(b),
                new Message.Vote(txn, Message.Verdict.YES, null, false)));
        bytes += send(pair.aToB, pair.aChannel, pair.bChannel, a, b, new Message.Commit(txn));
        bytes += send(pair.bToA, pair.bChannel, pair.aChannel, b, a, new Message.Ack(txn));
        pair.aEvents.messages.clear();
        pair.bEvents.messages.clear();
        return bytes;
    }

    private int send(PeerLink link, EmbeddedChannel from, EmbeddedChannel to, int sender, int receiver,
            Message message) {
        link.send(new Envelope(sender, receiver, ++clock, message));
        return EmbeddedPair.pump(from, to);
    }
}
