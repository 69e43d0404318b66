package dev.waldo.runtime;

/** The body of a transaction: generated code for one Public function call. */
@FunctionalInterface
public interface TxnBody<T> {
    /** Runs one attempt of the transaction; may be run again after a backout. */
    T run(Ctx ctx);
}
