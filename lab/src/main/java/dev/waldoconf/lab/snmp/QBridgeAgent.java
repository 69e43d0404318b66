package dev.waldoconf.lab.snmp;

import dev.waldoconf.lab.control.Faults;
import dev.waldoconf.lab.model.Bridge;
import dev.waldoconf.lab.model.Change;
import dev.waldoconf.lab.model.Outcome;
import dev.waldoconf.lab.model.SnmpError;
import dev.waldoconf.lab.model.SwitchSpec;
import dev.waldoconf.lab.model.SwitchState;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.snmp4j.agent.ManagedObject;
import org.snmp4j.agent.request.Request;
import org.snmp4j.agent.request.SubRequest;

/**
 * The SNMP side of one simulated switch: it holds the committed {@link SwitchState}, serves it
 * through {@link MibView}, and runs SET requests through SNMP4J-Agent's two-phase processing.
 *
 * <p>A SET is judged once, as a whole, when its first variable binding is prepared: every
 * varbind of the request is decoded and handed to {@link Bridge} together, so validation sees
 * the state the whole PDU would leave. The new state is swapped in at the first commit and
 * swapped back on undo, which makes each PDU all-or-nothing (RFC 3416 §4.2.5).
 */
public final class QBridgeAgent {
    /** Persists a committed state; a failure makes the SET answer commitFailed. */
    @FunctionalInterface
    public interface StateSaver {
        /** Writes the state durably, or throws. */
        void save(SwitchState state) throws IOException;
    }

    private static final System.Logger LOG = System.getLogger(QBridgeAgent.class.getName());

    private final String name;
    private final SwitchSpec spec;
    private final Bridge bridge;
    private final SetDecoder decoder;
    private final Faults faults;
    private final StateSaver saver;
    private final MibView.Renderer renderer;
    private SwitchState state;
    private MibView view;

    /**
     * An agent serving {@code initial}.
     *
     * @param name the switch's name, for logs
     * @param bridgeAddress six octets for dot1dBaseBridgeAddress
     */
    public QBridgeAgent(String name, SwitchSpec spec, SwitchState initial, Faults faults, StateSaver saver,
                        byte[] bridgeAddress) {
        this.name = name;
        this.spec = spec;
        this.bridge = new Bridge(spec);
        this.decoder = new SetDecoder(spec);
        this.faults = faults;
        this.saver = saver;
        this.renderer = new MibView.Renderer(spec, bridgeAddress.clone(), System.nanoTime());
        this.state = initial;
    }

    /** The committed state. */
    public synchronized SwitchState state() {
        return state;
    }

    /** One managed object per subtree of {@link Oids#SUBTREES}, to register with an MOServer. */
    public List<ManagedObject<?>> managedObjects() {
        List<ManagedObject<?>> objects = new ArrayList<>();
        for (OidSubtree subtree : OidSubtree.all()) {
            objects.add(new DeviceSubtree(subtree, this));
        }
        return objects;
    }

    /** The view of the committed state, rebuilt lazily after each change. */
    synchronized MibView view() {
        if (view == null) {
            view = renderer.render(state);
        }
        return view;
    }

    /** Prepare phase for one varbind: judges the whole request once, then reports this varbind's part. */
    void prepare(SubRequest<?> sreq) {
        SetTransaction tx = transaction(sreq.getRequest());
        if (tx.rejectedAt == sreq.getIndex()) {
            sreq.getStatus().setErrorStatus(tx.error.code());
        } else {
            sreq.getStatus().setPhaseComplete(true);
        }
    }

    /** Commit phase: the first call swaps the new state in and persists it. */
    synchronized void commit(SubRequest<?> sreq) {
        SetTransaction tx = transaction(sreq.getRequest());
        if (!tx.committed && !tx.failed) {
            commitOnce(tx, sreq);
        }
        sreq.getStatus().setPhaseComplete(true);
    }

    /** Undo phase: puts the state from before the request back, once. */
    synchronized void undo(SubRequest<?> sreq) {
        SetTransaction tx = transaction(sreq.getRequest());
        if (tx.committed && !tx.undone) {
            tx.undone = true;
            install(tx.before);
            saveQuietly(tx.before);
        }
        sreq.getStatus().setPhaseComplete(true);
    }

    private void commitOnce(SetTransaction tx, SubRequest<?> sreq) {
        OptionalInt refused = faults.refusedChange(tx.changes, SnmpError.COMMIT_FAILED);
        if (refused.isPresent()) {
            tx.failed = true;
            int position = tx.positions.get(refused.getAsInt());
            LOG.log(Level.DEBUG, () -> name + ": SET fails in commit (refuse fault) at varbind " + (position + 1));
            sreq.getRequest().get(position).getStatus().setErrorStatus(SnmpError.COMMIT_FAILED.code());
            return;
        }
        install(tx.after);
        try {
            saver.save(tx.after);
            tx.committed = true;
        } catch (IOException e) {
            LOG.log(Level.WARNING, name + ": cannot persist the new state, refusing the SET: " + e.getMessage());
            install(tx.before);
            tx.failed = true;
            sreq.getStatus().setErrorStatus(SnmpError.COMMIT_FAILED.code());
        }
    }

    private void install(SwitchState next) {
        state = next;
        view = null;
    }

    private void saveQuietly(SwitchState restored) {
        try {
            saver.save(restored);
        } catch (IOException e) {
            LOG.log(Level.WARNING, name + ": cannot persist the restored state: " + e.getMessage());
        }
    }

    private synchronized SetTransaction transaction(Request<?, ?, ?> request) {
        Object existing = request.getProcessingUserObject(this);
        if (existing instanceof SetTransaction tx) {
            return tx;
        }
        SetTransaction tx = judge(request);
        request.setProcessingUserObject(this, tx);
        return tx;
    }

    private SetTransaction judge(Request<?, ?, ?> request) {
        SetTransaction tx = new SetTransaction(state);
        for (int i = 0; i < request.size(); i++) {
            var vb = request.get(i).getVariableBinding();
            if (!OidSubtree.covers(vb.getOid())) {
                continue;
            }
            SetDecoder.Decoded decoded = decoder.decode(vb);
            if (decoded.error() != null) {
                return tx.reject(i, decoded.error(), decoded.reason());
            }
            tx.positions.add(i);
            tx.changes.add(decoded.change());
        }
        Outcome outcome = bridge.apply(state, tx.changes, view().upTimeCs());
        if (outcome instanceof Outcome.Rejected rejected) {
            return tx.reject(tx.positions.get(rejected.index()), rejected.error(), rejected.reason());
        }
        OptionalInt refused = faults.refusedChange(tx.changes, SnmpError.INCONSISTENT_VALUE);
        if (refused.isPresent()) {
            return tx.reject(tx.positions.get(refused.getAsInt()), SnmpError.INCONSISTENT_VALUE,
                    "refuse fault is set for this VLAN");
        }
        tx.after = ((Outcome.Accepted) outcome).next();
        return tx;
    }

    /** What the agent decided about one SET request, shared by all its varbinds' phases. */
    private final class SetTransaction {
        final List<Integer> positions = new ArrayList<>();
        final List<Change> changes = new ArrayList<>();
        final SwitchState before;
        SwitchState after;
        int rejectedAt = -1;
        SnmpError error;
        boolean committed;
        boolean failed;
        boolean undone;

        SetTransaction(SwitchState before) {
            this.before = before;
        }

        SetTransaction reject(int position, SnmpError status, String reason) {
            rejectedAt = position;
            error = status;
            LOG.log(Level.DEBUG, () -> name + ": SET refused with " + status.mibName() + " at varbind "
                    + (position + 1) + ": " + reason);
            return this;
        }
    }
}
