package dev.waldo.runtime.testing;

import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.TVar;
import dev.waldo.runtime.WaldoService;
import dev.waldo.runtime.lang.WList;

/**
 * A hand-written service in the shape the emitter produces, for:
 * <pre>
 * Service Hub {
 *     List(element: Endpoint) members;
 *     Number reached;
 *     Public join(Endpoint member) { members.append(member); }
 *     Public bumpAll(Number by) returns Number {
 *         Number total = 0;
 *         for (Endpoint member in members) {
 *             try { total += member.bump(by); reached += 1; }
 *             catch (NetworkException e) { }
 *         }
 *         return total;
 *     }
 * }
 * </pre>
 */
public final class Hub extends WaldoService {
    public final TVar<WList<EndpointRef>> members;
    public final TVar<Double> reached;

    public Hub(Host host) {
        super(host, "Hub");
        members = var("members", WList::new);
        reached = var("reached", () -> 0.0);
    }

    public static Hub create(Host host) {
        Hub hub = new Hub(host);
        hub.transact("onCreate", ctx -> null);
        return hub;
    }

    public void join(EndpointRef member) {
        transact("join", ctx -> {
            join$(ctx, member);
            return null;
        });
    }

    public void join$(Ctx ctx, EndpointRef member) {
        members.get(ctx).add(member);
    }

    public double bumpAll(double by) {
        return transact("bumpAll", ctx -> bumpAll$(ctx, by));
    }

    public double bumpAll$(Ctx ctx, double by) {
        double total = 0;
        for (EndpointRef member : new WList<>(members.get(ctx))) {
            try {
                total += (Double) ctx.call(member, "bump", by);
                reached.set(ctx, reached.get(ctx) + 1);
            } catch (NetworkException e) {
                // The member's host is gone: go on without it (paper Fig. 2).
            }
        }
        return total;
    }

    /** Its functions are in the shape the compiler emits: they wait only through the runtime. */
    @Override
    protected boolean servesOnReceivingThread(String functionOrSequence) {
        return true;
    }

    @Override
    protected Object dispatch(Ctx ctx, String function, Object[] args) {
        return switch (function) {
            case "join" -> {
                join$(ctx, (EndpointRef) args[0]);
                yield null;
            }
            case "bumpAll" -> bumpAll$(ctx, (Double) args[0]);
            default -> throw new ApplicationException("Hub has no Public function " + function);
        };
    }
}
