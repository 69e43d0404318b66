package dev.waldo.net.testing;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.SequenceFrame;
import dev.waldo.runtime.TVar;
import dev.waldo.runtime.WaldoEndpoint;
import dev.waldo.runtime.lang.Dispatch;
import java.util.Map;

/**
 * A hand-written endpoint in the shape the compiler emits, for this Waldo source:
 * <pre>
 * Endpoint Peer {
 *     Number count;
 *     &#64;ledger Number bound;
 *     Public ping() { Ping(); }
 *     Public bump(Number by) returns Number { return Bump(by); }
 * }
 * Sequence Ping { Peer.there { } Peer.back { } }
 * Sequence Bump(Number by) returns Number total {
 *     Peer.start { count += by; bound += by; total = count; }
 *     Peer.echo  { count += by; bound += by; total += count; }
 * }
 * </pre>
 * {@code ping} is the paper's microbenchmark: a two-step sequence that touches
 * no endpoint data. {@code bump} changes plain and bound state on both sides.
 * {@link #beforeEcho} lets a test stop a partner in the middle of a sequence.
 */
public final class PeerEndpoint extends WaldoEndpoint {
    /** The annotation of {@code bound}, which a test binding takes part in commit for. */
    public static final String LEDGER = "ledger";
    public final TVar<Double> count;
    public final TVar<Double> bound;
    /** Runs on the partner before its step of Bump; tests use it to hang or kill the partner there. */
    public volatile Runnable beforeEcho = () -> { };

    private PeerEndpoint(Host host) {
        super(host, "Peer");
        count = var("count", () -> 0.0);
        bound = var("bound", () -> 0.0, new Annotation(LEDGER, Map.of()));
    }

    /** The generated factory. */
    public static PeerEndpoint create(Host host) {
        return new PeerEndpoint(host);
    }

    /** Public ping(): runs the two-step Ping sequence as one transaction. */
    public void ping() {
        transact("ping", ctx -> {
            ping$(ctx);
            return null;
        });
    }

    void ping$(Ctx ctx) {
        SequenceFrame frame = new SequenceFrame("Ping");
        runStep(ctx, frame, 0);
        if (!frame.returned()) {
            ctx.lastPartnerStep(this, frame, 1); // as the emitter marks a last partner step
        }
    }

    /** Public bump(by): adds {@code by} to count and bound on both sides; returns the total. */
    public double bump(double by) {
        return transact("bump", ctx -> bump$(ctx, by));
    }

    double bump$(Ctx ctx, double by) {
        SequenceFrame frame = new SequenceFrame("Bump");
        frame.set("by", by);
        frame.set("total", 0.0);
        runStep(ctx, frame, 0);
        if (!frame.returned()) {
            ctx.lastPartnerStep(this, frame, 1); // as the emitter marks a last partner step
        }
        return (Double) frame.get("total");
    }

    @Override
    protected void runStep(Ctx ctx, SequenceFrame frame, int step) {
        switch (frame.sequence() + "#" + step) {
            case "Ping#0", "Ping#1" -> { }
            case "Bump#0" -> {
                double value = add(ctx, (Double) frame.get("by"));
                frame.set("total", value);
            }
            case "Bump#1" -> {
                beforeEcho.run();
                double value = add(ctx, (Double) frame.get("by"));
                frame.set("total", (Double) frame.get("total") + value);
            }
            default -> throw Dispatch.noSuchStep(this, frame.sequence(), step);
        }
    }

    private double add(Ctx ctx, double by) {
        double value = count.get(ctx) + by;
        count.set(ctx, value);
        bound.set(ctx, bound.get(ctx) + by);
        return value;
    }

    /**
     * Ping's steps wait for nothing, as generated code would, so they may start on the receiving
     * thread; Bump's partner step runs {@link #beforeEcho}, which tests use to block it.
     */
    @Override
    protected boolean servesOnReceivingThread(String functionOrSequence) {
        return functionOrSequence.equals("Ping") || functionOrSequence.equals("ping");
    }

    @Override
    protected Object dispatch(Ctx ctx, String function, Object[] args) {
        return switch (function) {
            case "ping" -> {
                ping$(ctx);
                yield null;
            }
            case "bump" -> bump$(ctx, Dispatch.argument(this, function, args, 0, Double.class));
            default -> throw Dispatch.noSuchFunction(this, function);
        };
    }
}
