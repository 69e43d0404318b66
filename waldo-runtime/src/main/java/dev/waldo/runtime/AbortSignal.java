package dev.waldo.runtime;

/**
 * Unwinds a transaction whose program called {@code abort()}. A
 * RuntimeException (so that {@code throw ctx.abort();} compiles) that is not a
 * {@link WaldoException}, so Waldo's catch clauses never see it.
 */
final class AbortSignal extends RuntimeException {
    AbortSignal() {
        super("abort() called", null, false, false);
    }
}
