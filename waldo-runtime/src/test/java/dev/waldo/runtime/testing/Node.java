package dev.waldo.runtime.testing;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.SequenceFrame;
import dev.waldo.runtime.TMap;
import dev.waldo.runtime.TVar;
import dev.waldo.runtime.TxnBody;
import dev.waldo.runtime.WaldoEndpoint;
import dev.waldo.runtime.lang.WList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A hand-written endpoint in the shape the compiler's emitter produces, for
 * this Waldo source (plus test hooks: {@link #atomically} and {@link #define}):
 * <pre>
 * Endpoint Node {
 *     Number x; Number y; Number z;
 *     List(element: Text) log;
 *     Map(from: Text, to: Number) table;
 *     &#64;test(oid: '1.2.3') Number bound;
 *     Public add(Text var, Number delta) returns Number { ... }
 *     Public read(Text var) returns Number { ... }
 *     Public bump(Number by) returns Number { return Bump(by); }
 * }
 * Sequence Bump(Number by) returns Number total {
 *     Node.start  { x += by; total = x; }
 *     Node.echo   { x += by; total += x; if (x &lt; 0) { return -1; } }
 *     Node.finish { log.append('bumped ' + toText(total)); }
 * }
 * </pre>
 */
public final class Node extends WaldoEndpoint {
    /** A Public function defined by a test: runs inside the calling transaction. */
    @FunctionalInterface
    public interface Function {
        Object run(Ctx ctx, Object[] args);
    }

    public final TVar<Double> x;
    public final TVar<Double> y;
    public final TVar<Double> z;
    public final TVar<WList<String>> log;
    public final TMap<String, Double> table;
    public final TVar<Double> bound;
    private final Map<String, Function> defined = new ConcurrentHashMap<>();

    public Node(Host host) {
        super(host, "Node");
        x = var("x", () -> 0.0);
        y = var("y", () -> 0.0);
        z = var("z", () -> 0.0);
        log = var("log", WList::new);
        table = mapVar("table");
        bound = var("bound", () -> 0.0, new Annotation("test", Map.of("oid", "1.2.3")));
    }

    /** The generated factory: constructs the endpoint and runs its initializers as its first transaction. */
    public static Node create(Host host) {
        Node node = new Node(host);
        node.transact("onCreate", ctx -> {
            node.x.set(ctx, 0.0);
            return null;
        });
        return node;
    }

    /** Runs {@code body} as a root transaction, the way a generated Public method does. */
    public <T> T atomically(String name, TxnBody<T> body) {
        return transact(name, body);
    }

    /** Adds a Public function, callable through {@code ctx.call(node.ref(), name, args)}. */
    public void define(String name, Function function) {
        defined.put(name, function);
    }

    public double add(String var, double delta) {
        return transact("add", ctx -> add$(ctx, var, delta));
    }

    public double add$(Ctx ctx, String var, double delta) {
        TVar<Double> variable = variable(var);
        double value = variable.get(ctx) + delta;
        variable.set(ctx, value);
        return value;
    }

    public double read(String var) {
        return transact("read", ctx -> read$(ctx, var));
    }

    public double read$(Ctx ctx, String var) {
        return variable(var).get(ctx);
    }

    public double bump(double by) {
        return transact("bump", ctx -> bump$(ctx, by));
    }

    public double bump$(Ctx ctx, double by) {
        SequenceFrame frame = new SequenceFrame("Bump");
        frame.set("by", by);
        frame.set("total", 0.0);
        runStep(ctx, frame, 0);
        if (!frame.returned()) {
            ctx.lastPartnerStep(this, frame, 1); // the last partner step; the final step here calls no one
        }
        if (!frame.returned()) {
            runStep(ctx, frame, 2);
        }
        if (frame.returned() && frame.returnedValue() != null) {
            return (Double) frame.returnedValue();
        }
        return (Double) frame.get("total");
    }

    @Override
    protected void runStep(Ctx ctx, SequenceFrame frame, int step) {
        switch (frame.sequence() + "#" + step) {
            case "Bump#0" -> {
                double value = x.get(ctx) + (Double) frame.get("by");
                x.set(ctx, value);
                frame.set("total", value);
            }
            case "Bump#1" -> {
                double value = x.get(ctx) + (Double) frame.get("by");
                x.set(ctx, value);
                frame.set("total", (Double) frame.get("total") + value);
                if (value < 0) {
                    frame.markReturned(-1.0);
                }
            }
            case "Bump#2" -> log.get(ctx).add("bumped " + frame.get("total"));
            default -> throw new ApplicationException("Node has no step " + step + " of sequence " + frame.sequence());
        }
    }

    @Override
    protected Object dispatch(Ctx ctx, String function, Object[] args) {
        return switch (function) {
            case "add" -> add$(ctx, (String) args[0], (Double) args[1]);
            case "read" -> read$(ctx, (String) args[0]);
            case "bump" -> bump$(ctx, (Double) args[0]);
            default -> {
                Function defined = this.defined.get(function);
                if (defined == null) {
                    throw new ApplicationException("Node has no Public function " + function);
                }
                yield defined.run(ctx, args);
            }
        };
    }

    /**
     * The functions and the sequence in the shape the compiler emits wait only through the runtime,
     * as generated code does, so they may start on the receiving thread; functions a test
     * {@link #define}s run Java of its own, which may block, so they never do.
     */
    @Override
    protected boolean servesOnReceivingThread(String functionOrSequence) {
        return !defined.containsKey(functionOrSequence);
    }

    private TVar<Double> variable(String name) {
        return switch (name) {
            case "x" -> x;
            case "y" -> y;
            case "z" -> z;
            case "bound" -> bound;
            default -> throw new ApplicationException("Node has no Number variable " + name);
        };
    }
}
