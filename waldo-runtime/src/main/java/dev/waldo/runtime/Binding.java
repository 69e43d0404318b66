package dev.waldo.runtime;

/**
 * Lets an outside system take part in two-phase commit for the variables that
 * carry one annotation (DESIGN.md "Bound state"). Register it with
 * {@link Host#bind}; WaldoConf's SNMP binding is one.
 *
 * <p>The life of one transaction on one host, for each binding whose variables
 * the transaction changed there:
 * <ol>
 *   <li>{@link #prepare} gets the before/after values and applies or validates
 *       them; it returns {@link Vote#yes()} or {@link Vote#no(String)} (throwing
 *       counts as no, with the exception's message as the reason). A no backs the
 *       transaction out on every host, and its Java caller gets a
 *       {@link TransactionAbortedException} with reason VOTED_NO and this reason.</li>
 *   <li>Then exactly one of {@link #commit} (finalize) or {@link #abort} (undo what
 *       prepare did) follows. {@code abort} also follows a prepare that voted no or
 *       threw, so it must cope with a partly done prepare.</li>
 * </ol>
 * A host calls its bindings on one thread, in the order its transactions
 * prepared and ended, so a binding needs no locking of its own: a later
 * transaction's prepare never overtakes an earlier one's commit or abort on
 * the same variables. Prepare may be slow (device I/O); it runs off the
 * transaction threads. Variables whose value did not change are not reported,
 * and a binding with nothing changed is not called at all.
 *
 * <p><b>Locks are held until commit or abort returned.</b> A transaction
 * whose bindings took part on a host keeps every lock it holds there until
 * each of those bindings' {@link #commit} or {@link #abort} for it has
 * returned; only then may another transaction lock those variables, and so
 * {@link #load} them. A transaction that comes next therefore reads the
 * outside system as the commit left it, or as the abort put it back, never
 * half-way (a backed-out change still on a device while its undo runs). The
 * price: the transaction's variables on that host stay locked for as long as
 * commit or abort takes, so keep them short, and one that never returns
 * keeps them locked. A binding needs no waiting of its own for this.
 */
public interface Binding {
    /**
     * The value a transaction starts from when it first touches a variable
     * bound here, instead of the variable's last committed value: the outside
     * system's state, read while the transaction holds the variable's lock
     * (a bound Map as a whole, unless it is {@link #keyed}). The loaded value is also the
     * {@link BoundTransaction.Change#before} that {@link #prepare} sees, so a
     * binding pushes exactly the difference between what it read and what the
     * transaction wrote. Every attempt of a transaction loads afresh.
     *
     * <p>Unlike the other methods, it runs on the transaction's thread. The
     * default loads nothing: the transaction starts from the committed value.
     *
     * @param owner the endpoint or service that owns the variable
     * @param variable the variable's name in the Waldo source
     * @param annotation the annotation that bound it here
     * @param transaction the attempt that loads ({@link BoundTransaction#id()} in its prepare): an
     *     attempt that touches several bound variables may have them loaded from one read of the
     *     outside system
     * @return the value to start from (a {@code WMap} for a Map variable), or null for the committed value
     * @throws Exception if the outside system cannot be read; the transaction then fails with an
     *     {@link ApplicationException} carrying the message, which Waldo code may catch
     */
    default Object load(WaldoObject owner, String variable, Annotation annotation, String transaction)
            throws Exception {
        return null;
    }

    /**
     * Whether the Map variables bound here by {@code annotation} are locked per key, as unbound
     * maps are (reads of a key shared, every other use of it exclusive, the whole map only for
     * whole uses), instead of as a whole and exclusively (the default). Such a map is still
     * {@link #load}ed whole, once per attempt, at the attempt's first touch: what it then holds for a
     * key the attempt does not lock yet is whatever the outside system held, another transaction's
     * change in progress included, so a program that uses a key of it must keep every transaction
     * that could change that key out from before that first touch on (WaldoConf's VLAN service takes
     * Claret's abstract locks on counters first; see its README). For that price, transactions
     * that use different keys of one outside table run side by side.
     */
    default boolean keyed(Annotation annotation) {
        return false;
    }

    /** Applies or validates the changes; must not return null. */
    Vote prepare(BoundTransaction transaction) throws Exception;

    /**
     * The transaction committed everywhere: make the prepared changes final.
     * The transaction keeps its locks on this host until this returns (see
     * above), so the next transaction loads what it leaves.
     */
    void commit(BoundTransaction transaction) throws Exception;

    /**
     * The transaction was backed out: undo whatever {@link #prepare} did.
     * The transaction keeps its locks on this host until this returns, so the
     * next transaction loads the outside system as this put it back, not the
     * backed-out change.
     */
    void abort(BoundTransaction transaction) throws Exception;

    /**
     * A binding's answer in prepare.
     *
     * @param accepted true if the changes are in place and can be committed
     * @param reason why not, for the Java caller (null for yes)
     */
    record Vote(boolean accepted, String reason) {
        /** The changes are applied and can be committed. */
        public static Vote yes() {
            return new Vote(true, null);
        }

        /** The changes cannot be committed, because of {@code reason}. */
        public static Vote no(String reason) {
            return new Vote(false, reason);
        }
    }
}
