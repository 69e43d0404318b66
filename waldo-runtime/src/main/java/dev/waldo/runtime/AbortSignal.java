package dev.waldo.runtime;

/**
 * Unwinds a transaction whose program called {@code abort()}. A
 * RuntimeException (so that {@code throw ctx.abort();} compiles) that is neither
 * an {@link ApplicationException} nor a {@link NetworkException}, so Waldo's
 * catch clauses never see it; the host turns it into a {@link TransactionAbortedException}.
 */
final class AbortSignal extends RuntimeException {
    AbortSignal() {
        super("abort() called", null, false, false);
    }
}
