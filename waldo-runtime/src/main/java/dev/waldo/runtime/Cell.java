package dev.waldo.runtime;

import java.util.List;

/**
 * A variable of an endpoint or service as the commit machinery sees it:
 * {@link TVar} and {@link TMap}. A transaction keeps one working state per
 * cell it touched; commit installs it, backout drops it.
 */
interface Cell {
    WaldoObject owner();

    String name();

    List<Annotation> annotations();

    /** A copy of the last committed value. */
    Object committedCopy();

    /** A copy of the value the transaction with working state {@code working} would commit. */
    Object afterValue(Object working);

    /** A transaction's working state that starts from {@code loaded} (see {@link Binding#load}), not the committed value. */
    Object workingFrom(Object loaded);

    /** Makes {@code working} the committed value; the caller holds the cell's locks. */
    void install(Object working);
}
