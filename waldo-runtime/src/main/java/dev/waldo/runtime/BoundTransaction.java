package dev.waldo.runtime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one transaction changed, on one host, in the variables a
 * {@link Binding} is bound to. The same instance is passed to prepare and to
 * the commit or abort that follows, so a binding can match them by identity
 * or by {@link #id()}. Until that commit or abort has returned, the
 * transaction keeps its locks on this host: no other transaction loads these
 * variables while the binding is still changing the outside system for this
 * one (see {@link Binding}).
 *
 * @param id the transaction attempt's id, unique on the network (for logs and journals)
 * @param changes the changed variables, in the order the transaction first touched them
 * @param peers the host ids of the attempt's other participants and of its
 *     coordinator (never this host): whom a binding that journals its vote
 *     should name, so that after a restart {@link Host#recoverInDoubt} can ask
 *     them the outcome
 */
public record BoundTransaction(String id, List<Change> changes, List<String> peers) {
    public BoundTransaction {
        changes = List.copyOf(changes);
        peers = List.copyOf(peers);
    }

    /** A transaction whose participants are not known (tests, bindings used outside a host). */
    public BoundTransaction(String id, List<Change> changes) {
        this(id, changes, List.of());
    }

    /** The changes grouped by the endpoint or service that owns the variable, in order. */
    public Map<WaldoObject, List<Change>> byOwner() {
        Map<WaldoObject, List<Change>> grouped = new LinkedHashMap<>();
        for (Change change : changes) {
            grouped.computeIfAbsent(change.owner(), o -> new java.util.ArrayList<>()).add(change);
        }
        return grouped;
    }

    /**
     * The change of {@code variable} on {@code owner}, if this transaction changed it (a binding's
     * typed way to look at one variable, e.g. {@code change(service, VlanSwitch.NAMES)}).
     */
    public Optional<Change> change(WaldoObject owner, Variable<?> variable) {
        return changes.stream().filter(c -> c.owner() == owner && variable.matches(c)).findFirst();
    }

    /** Whether this transaction changed {@code variable} on {@code owner}. */
    public boolean changed(WaldoObject owner, Variable<?> variable) {
        return change(owner, variable).isPresent();
    }

    /**
     * What {@code variable} of {@code owner} holds once this transaction commits: the value it
     * sets, or the committed value when it leaves the variable alone. A copy, like every value here.
     */
    public <T> T valueAfter(WaldoObject owner, Variable<T> variable) {
        Optional<Change> change = change(owner, variable);
        return change.isPresent() ? variable.after(change.get()) : owner.committed(variable);
    }

    /**
     * One annotated variable whose value the transaction changed. Values are
     * copies: a binding may keep them. For a Map variable both values are whole maps.
     *
     * @param owner the endpoint or service that owns the variable
     * @param variable the variable's name in the Waldo source, for messages (code matches a change
     *     with the generated {@link Variable} constant: {@link Variable#matches})
     * @param annotation the annotation that bound it to this binding (name and arguments)
     * @param before the last committed value
     * @param after the value the transaction will commit
     */
    public record Change(WaldoObject owner, String variable, Annotation annotation, Object before, Object after) {
    }
}
