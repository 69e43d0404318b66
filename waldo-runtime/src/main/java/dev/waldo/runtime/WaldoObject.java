package dev.waldo.runtime;

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
    /**
     * Registers the object with {@code host}, which assigns its id.
     *
     * @param kind the Endpoint or Service name in the Waldo source
     */
    protected WaldoObject(Host host, String kind) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** The host this object lives on. */
    public final Host host() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** The Endpoint or Service name in the Waldo source. */
    public final String kind() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** A reference to this object, as Waldo's {@code self}. */
    public final EndpointRef ref() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** This object's id as Text, as Waldo's {@code id()}. */
    public final String id() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Declares a variable that is locked as a whole; {@code initial} gives its default value. */
    protected final <T> TVar<T> var(String name, Supplier<T> initial, Annotation... annotations) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Declares a Map variable that is locked per key; it starts empty. */
    protected final <K, V> TMap<K, V> mapVar(String name, Annotation... annotations) {
        throw new UnsupportedOperationException("TODO runtime");
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
        throw new UnsupportedOperationException("TODO runtime");
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
     * Reads a variable's last committed value outside any transaction, by
     * its Waldo name: for tests, status and drift checks. Lists, maps and
     * structs are returned as copies.
     *
     * @throws IllegalArgumentException if there is no such variable
     */
    public final Object committedValue(String variable) {
        throw new UnsupportedOperationException("TODO runtime");
    }
}
