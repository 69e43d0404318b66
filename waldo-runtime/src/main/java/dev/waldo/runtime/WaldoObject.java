package dev.waldo.runtime;

import dev.waldo.runtime.lang.Suggestions;
import dev.waldo.runtime.lang.Values;
import dev.waldo.runtime.lang.WCSet;
import dev.waldo.runtime.lang.WMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Base of every generated endpoint and service class: an object with
 * transactional state that lives on one {@link Host}.
 *
 * <p>Generated subclasses declare their variables with {@link #var} and
 * {@link #mapVar} in their constructor, expose each Public function twice
 * (a plain Java method that runs it as a root transaction through
 * {@link #transact}, and a {@code name$(Ctx, ...)} method that runs it inside
 * a running transaction), and route calls from other hosts through
 * {@link #dispatch}.
 */
public abstract class WaldoObject {
    private final Host host;
    private final String kind;
    private final long objectId;
    private final Map<String, Cell> variables = new LinkedHashMap<>();

    /**
     * Registers the object with {@code host}, which assigns its id.
     *
     * @param kind the Endpoint or Service name in the Waldo source
     */
    protected WaldoObject(Host host, String kind) {
        this.host = Objects.requireNonNull(host, "host");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.objectId = host.register(this);
    }

    /** The host this object lives on. */
    public final Host host() {
        return host;
    }

    /** The Endpoint or Service name in the Waldo source. */
    public final String kind() {
        return kind;
    }

    /** A reference to this object, as Waldo's {@code self}. */
    public final EndpointRef ref() {
        return new EndpointRef(host.id(), objectId);
    }

    /** This object's id as Text, as Waldo's {@code id()}. */
    public final String id() {
        return ref().toString();
    }

    final long objectId() {
        return objectId;
    }

    /**
     * Declares a variable that is locked as a whole; {@code initial} gives its default value.
     * Generated code declares through the variable's handle ({@link #var(Variable, Supplier)}).
     */
    protected final <T> TVar<T> var(String name, Supplier<T> initial, Annotation... annotations) {
        return declare(new TVar<>(this, name, initial.get(), annotations));
    }

    /** Declares a Map variable that is locked per key; it starts empty. */
    protected final <K, V> TMap<K, V> mapVar(String name, Annotation... annotations) {
        return declare(new TMap<>(this, name, annotations));
    }

    /** Declares a CSet variable whose adds and removes commute (see {@link TCSet}); it starts empty. */
    protected final <E> TCSet<E> csetVar(String name, Annotation... annotations) {
        return declare(new TCSet<>(this, name, annotations));
    }

    /** Declares the CSet variable {@code variable} describes (generated code). */
    protected final <E> TCSet<E> csetVar(Variable<WCSet<E>> variable) {
        return csetVar(own(variable).name(), variable.annotations().toArray(Annotation[]::new));
    }

    /** Declares the variable {@code variable} describes, locked as a whole (generated code). */
    protected final <T> TVar<T> var(Variable<T> variable, Supplier<T> initial) {
        return var(own(variable).name(), initial, variable.annotations().toArray(Annotation[]::new));
    }

    /** Declares the Map variable {@code variable} describes, locked per key (generated code). */
    protected final <K, V> TMap<K, V> mapVar(Variable<WMap<K, V>> variable) {
        return mapVar(own(variable).name(), variable.annotations().toArray(Annotation[]::new));
    }

    private <C extends Cell> C declare(C cell) {
        if (variables.putIfAbsent(cell.name(), cell) != null) {
            throw new IllegalArgumentException(kind + " declares variable '" + cell.name() + "' twice");
        }
        return cell;
    }

    /**
     * Runs {@code body} as a root transaction started by host code: retried
     * after a backout with its original timestamp, and returning only once it
     * committed on every host it touched.
     *
     * @param function the Public function's name, for logs and errors
     * @throws TransactionAbortedException if the program called abort() or a participant voted no
     * @throws ApplicationException if the body raised one that nothing caught
     * @throws NetworkException if the body needed an unreachable partner and did not catch it
     */
    protected final <T> T transact(String function, TxnBody<T> body) {
        return host.runRoot(this, function, body);
    }

    /**
     * Calls Public function {@code function} by its Waldo name as one transaction, as the typed
     * method of the generated class would: for tools, shells and tests that pick the function at
     * run time. Arguments are checked against {@link #functions()} before anything runs, and
     * converted as Waldo holds them: any Java number for a {@code Number}, any {@code List} or
     * {@code Map} with fitting contents, a generated object for an {@code Endpoint}.
     *
     * @return the function's result ({@code Double}, {@code String}, {@code Boolean}, a copy of a
     *     container or struct), or null for {@code Nothing}
     * @throws IllegalArgumentException if there is no such Public function (with the closest names),
     *     the number of arguments is wrong, or an argument does not fit its parameter (named)
     * @throws WaldoException what the function raised, as from the typed method
     */
    public final Object invoke(String function, Object... args) {
        Objects.requireNonNull(function, "function");
        Object[] accepted = publicFunction(function).accept(kind, args == null ? new Object[] {null} : args);
        // Copied per attempt, as the typed methods do: a retried attempt must not see the
        // arguments as a backed-out one left them (a Waldo parameter list may be appended to).
        return transact(function, ctx -> dispatch(ctx, function, copies(accepted)));
    }

    private static Object[] copies(Object[] values) {
        Object[] copied = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            copied[i] = Values.copy(values[i]);
        }
        return copied;
    }

    /** The Public functions host code can call, in declaration order, with their Waldo names and types. */
    public final List<PublicFunction> functions() {
        return publicFunctions();
    }

    private PublicFunction publicFunction(String name) {
        List<PublicFunction> known = publicFunctions();
        for (PublicFunction function : known) {
            if (function.name().equals(name)) {
                return function;
            }
        }
        throw new IllegalArgumentException(kind + " has no Public function '" + name + "'"
                + Suggestions.closest(name, known.stream().map(PublicFunction::name).toList())
                + (known.isEmpty() ? " (it has none)" : ""));
    }

    /**
     * The Public functions' signatures; generated classes list theirs. Hand-written subclasses (the
     * runtime's own tests) have none, so {@link #invoke} refuses every name on them.
     */
    protected List<PublicFunction> publicFunctions() {
        return List.of();
    }

    /**
     * Runs Public function {@code function} inside the running transaction,
     * for a call that arrived through {@link Ctx#call}. Generated code
     * switches over the Public functions and unpacks {@code args}.
     *
     * @throws ApplicationException if there is no such Public function or the arguments do not fit
     */
    protected abstract Object dispatch(Ctx ctx, String function, Object[] args);

    /**
     * Whether a call served here for another host ({@code functionOrSequence}: the Public
     * function's or the sequence's name) may start on the thread that received it instead of a
     * thread of its own, which saves a thread hand-off per call. Only code that waits for nothing
     * but the runtime (a lock, a call, a binding's load) may: the host unwinds such a run at the
     * first wait and runs the call again on a thread of its own. The compiler's generated classes
     * say true; the default is false, for hand-written Java that may block where the runtime
     * cannot see it (a blocked receiving thread hears nothing else).
     */
    protected boolean servesOnReceivingThread(String functionOrSequence) {
        return false;
    }

    /**
     * Reads a variable's last committed value outside any transaction, typed:
     * {@code service.committed(SystemGroup.LOCATION)}. For status, drift checks
     * and bindings; lists, maps and structs are returned as copies. It sees
     * the writes of every transaction whose call returned before it: it
     * waits while an attempt that voted yes here on the variable awaits its
     * decision (see {@link Host}'s notes on committed reads).
     *
     * @param variable a constant of this object's generated class
     * @throws IllegalArgumentException if {@code variable} belongs to another class
     */
    public final <T> T committed(Variable<T> variable) {
        Cell cell = variables.get(own(variable).name());
        if (cell == null) {
            throw new IllegalStateException(variable + " is not declared yet: read it after the constructor ran");
        }
        host.awaitUndecidedWriters(objectId(), variable.name());
        return variable.cast(cell.committedCopy());
    }

    private <T> Variable<T> own(Variable<T> variable) {
        if (!variable.owner().isInstance(this)) {
            throw new IllegalArgumentException(variable + " is not a variable of " + kind + " ("
                    + getClass().getName() + ")");
        }
        return variable;
    }

    /**
     * Reads a variable's last committed value outside any transaction, by
     * its Waldo name. Only for hand-written objects in the runtime's own
     * tests, which have no generated {@link Variable} constants; code that
     * uses generated classes reads {@link #committed(Variable)}.
     *
     * @throws IllegalArgumentException if there is no such variable
     */
    public final Object committedValue(String variable) {
        Cell cell = variables.get(variable);
        if (cell == null) {
            throw new IllegalArgumentException(kind + " has no variable '" + variable + "'");
        }
        host.awaitUndecidedWriters(objectId(), variable);
        return cell.committedCopy();
    }

    @Override
    public String toString() {
        return kind + " " + id();
    }
}
