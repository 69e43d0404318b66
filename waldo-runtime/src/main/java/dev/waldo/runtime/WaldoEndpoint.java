package dev.waldo.runtime;

/**
 * Base of generated endpoint classes: one side of a connection, with exactly
 * one partner once connected. Sequences run their steps alternately on the
 * two partners.
 */
public abstract class WaldoEndpoint extends WaldoObject {
    private volatile EndpointRef partner;

    protected WaldoEndpoint(Host host, String kind) {
        super(host, kind);
    }

    /** This endpoint's partner, or null before it is connected. */
    public final EndpointRef partner() {
        return partner;
    }

    /** Makes {@code other} this endpoint's partner; {@link Host#connect} and {@link Host#pair} do it for both sides. */
    final void connectTo(EndpointRef other) {
        partner = other;
    }

    /**
     * Runs step {@code step} of the sequence in {@code frame} on this endpoint,
     * for a {@link Ctx#partnerStep} issued by the partner. Generated code
     * switches over (sequence, step).
     *
     * @throws ApplicationException if this endpoint has no such step
     */
    protected abstract void runStep(Ctx ctx, SequenceFrame frame, int step);
}
