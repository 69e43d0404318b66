package dev.waldoconf.service;

import dev.waldo.net.NetHost;
import dev.waldo.net.PeerIdentity;
import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.WaldoObject;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Stands in front of a service's device binding: it lets a change reach the switch only when an
 * operator with the change role started it (or the service itself, reverting an expired trial),
 * and records every change, with who started it and its outcome, in the {@link AuditJournal}.
 *
 * <p>Who started a transaction is the identity on the link to its root host ({@link
 * NetHost#originOf}). Under mutual TLS the project CA vouched for it and its roles; a certified
 * operator without {@value Identities#CHANGE_ROLE} is refused in prepare, before the device is
 * touched, so the whole change backs out on every switch. Under trust on first use or without
 * TLS no one vouched for any role: changes are allowed and recorded as unverified.
 */
public final class ChangeGuard implements Binding {
    private static final int MAX_VALUE_CHARS = 40;

    private final String switchName;
    private final Binding device;
    private final NetHost net;
    private final AuditJournal journal;
    private final Clock clock;
    /** Changes between prepare and their outcome, by transaction id. */
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();

    /** What prepare learned about one change, for the journal line its outcome writes. */
    private record Pending(String who, String what, String refusal, boolean devicePrepared) {
    }

    private ChangeGuard(String switchName, Binding device, NetHost net, AuditJournal journal, Clock clock) {
        this.switchName = switchName;
        this.device = device;
        this.net = net;
        this.journal = journal;
        this.clock = clock;
    }

    /**
     * Puts a guard in front of the binding of {@code @annotation} variables on {@code net}'s host.
     *
     * @throws IllegalStateException if no such binding is installed
     */
    public static ChangeGuard install(String switchName, NetHost net, String annotation, AuditJournal journal,
            Clock clock) {
        Binding device = net.host().binding(annotation);
        if (device == null) {
            throw new IllegalStateException("no @" + annotation + " binding on host " + net.host().id() + " to guard");
        }
        ChangeGuard guard = new ChangeGuard(switchName, device, net, journal, clock);
        net.host().bind(annotation, guard);
        return guard;
    }

    /** The journal this guard writes. */
    public AuditJournal journal() {
        return journal;
    }

    /**
     * Reads go straight to the guarded binding: a transaction that touches a bound variable starts
     * from what the device holds, whoever runs it; only changes need the change role (prepare).
     */
    @Override
    public Object load(WaldoObject owner, String variable, Annotation annotation, String transaction)
            throws Exception {
        return device.load(owner, variable, annotation, transaction);
    }

    /** Locking is the guarded binding's: the guard only checks who changes. */
    @Override
    public boolean keyed(Annotation annotation) {
        return device.keyed(annotation);
    }

    @Override
    public Vote prepare(BoundTransaction transaction) throws Exception {
        Optional<PeerIdentity> origin = net.originOf(transaction.id());
        String who = origin.map(this::describe).orElse("unknown host");
        String what = describe(transaction.changes());
        String refusal = refusal(origin, transaction.id());
        if (refusal != null) {
            pending.put(transaction.id(), new Pending(who, what, refusal, false));
            return Vote.no(switchName + " refuses the change: " + refusal);
        }
        pending.put(transaction.id(), new Pending(who, what, null, true));
        Vote vote = device.prepare(transaction);
        if (!vote.accepted()) {
            pending.put(transaction.id(), new Pending(who, what, "the switch voted no: " + vote.reason(), true));
        }
        return vote;
    }

    @Override
    public void commit(BoundTransaction transaction) throws Exception {
        device.commit(transaction);
        record(transaction, "committed");
    }

    @Override
    public void abort(BoundTransaction transaction) throws Exception {
        Pending change = pending.get(transaction.id());
        try {
            if (change == null || change.devicePrepared()) {
                device.abort(transaction);
            }
        } finally {
            record(transaction, change != null && change.refusal() != null ? "refused: " + change.refusal()
                    : "backed out");
        }
    }

    private void record(BoundTransaction transaction, String outcome) {
        Pending change = pending.remove(transaction.id());
        String who = change == null ? "unknown host" : change.who();
        String what = change == null ? describe(transaction.changes()) : change.what();
        journal.append(new AuditJournal.Entry(clock.instant(), switchName, who, outcome, transaction.id(), what));
    }

    /** Why the change may not reach the switch, or null when it may. */
    private String refusal(Optional<PeerIdentity> origin, String transactionId) {
        if (origin.isEmpty()) {
            return "it cannot tell who started transaction " + transactionId + " (no link to its host)";
        }
        PeerIdentity who = origin.get();
        if (who.hostId().equals(net.host().id()) || !who.certified() || who.hasRole(Identities.CHANGE_ROLE)) {
            return null;
        }
        return who.name() + " may only read (its certificate from the project CA has the role(s) "
                + String.join(", ", who.roles()) + ", not " + Identities.CHANGE_ROLE + "); ask whoever keeps the"
                + " project CA for a certificate with the change role ('waldoconf init --operator NAME')";
    }

    private String describe(PeerIdentity who) {
        if (who.hostId().equals(net.host().id())) {
            return who.name() + " (this service: an expired trial)";
        }
        return who.name() + (who.certified() ? "" : " (unverified)");
    }

    /** "vlans (2 -> 3 entries), trial '' -> 'c-17'". */
    private static String describe(List<BoundTransaction.Change> changes) {
        return changes.stream().map(change -> change.variable() + " " + brief(change.before()) + " -> "
                + brief(change.after())).collect(Collectors.joining(", "));
    }

    private static String brief(Object value) {
        if (value instanceof Map<?, ?> map) {
            return map.size() + (map.size() == 1 ? " entry" : " entries");
        }
        if (value instanceof Collection<?> list) {
            return list.size() + (list.size() == 1 ? " item" : " items");
        }
        String text = Objects.toString(value);
        return "'" + (text.length() > MAX_VALUE_CHARS ? text.substring(0, MAX_VALUE_CHARS) + "..." : text) + "'";
    }
}
