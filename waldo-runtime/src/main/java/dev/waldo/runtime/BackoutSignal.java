package dev.waldo.runtime;

/**
 * Unwinds the threads of a wounded (or cut-off) transaction attempt. An Error,
 * so that generated code, which catches only {@link ApplicationException} and
 * {@link NetworkException}, lets it
 * pass; the runtime catches it where the attempt's body or call began.
 */
final class BackoutSignal extends Error {
    BackoutSignal() {
        super("transaction attempt backed out", null, false, false);
    }
}
