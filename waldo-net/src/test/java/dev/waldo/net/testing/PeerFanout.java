package dev.waldo.net.testing;

import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.WaldoObject;
import dev.waldo.runtime.lang.Dispatch;
import java.util.List;

/**
 * A local object whose one transaction bumps several {@link PeerEndpoint}s,
 * each partnered with a different host: a root whose commit has a
 * participant per partner host, as a WaldoConf change has one per switch.
 * In Waldo:
 * <pre>
 * Service Fanout {
 *     List(element: Peer) peers;
 *     Public bumpAll(Number by) returns Number {
 *         Number total = 0;
 *         for (Peer peer in peers) { total += peer.bump(by); }
 *         return total;
 *     }
 * }
 * </pre>
 */
public final class PeerFanout extends WaldoObject {
    private final List<PeerEndpoint> peers;

    /** A fanout over {@code peers}, on {@code host}. */
    public PeerFanout(Host host, List<PeerEndpoint> peers) {
        super(host, "Fanout");
        this.peers = List.copyOf(peers);
    }

    /** Public bumpAll(by): bumps every peer in one transaction and returns the sum of their totals. */
    public double bumpAll(double by) {
        return transact("bumpAll", ctx -> bumpAll$(ctx, by));
    }

    private double bumpAll$(Ctx ctx, double by) {
        double total = 0;
        for (PeerEndpoint peer : peers) {
            total += (Double) ctx.call(peer.ref(), "bump", by);
        }
        return total;
    }

    @Override
    protected Object dispatch(Ctx ctx, String function, Object[] args) {
        if (function.equals("bumpAll")) {
            return bumpAll$(ctx, Dispatch.argument(this, function, args, 0, Double.class));
        }
        throw Dispatch.noSuchFunction(this, function);
    }
}
