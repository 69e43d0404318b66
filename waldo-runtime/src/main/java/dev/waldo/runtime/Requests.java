package dev.waldo.runtime;

import java.util.Map;

/**
 * The payloads the host layer puts into the core's Call and Reply messages.
 * They hold only Waldo values, copied before they travel, so a wire transport
 * can serialize them: it encodes what it finds in a
 * {@link dev.waldo.runtime.core.Message.Call#request()} or
 * {@link dev.waldo.runtime.core.Message.Reply#response()} and rebuilds the
 * same records on the other side.
 */
public final class Requests {
    private Requests() {
    }

    /** Call Public function {@code function} of object {@code object} with {@code args}. */
    public record Invocation(long object, String function, Object[] args) {
    }

    /**
     * Run step {@code step} of a sequence on endpoint {@code object}.
     * {@code frame} identifies the running sequence within the transaction;
     * {@code changes} are the data entries that changed since the partner last saw them.
     */
    public record StepInvocation(long object, long frame, String sequence, int step, Map<String, Object> changes) {
    }

    /** How a served call ended, as its caller must see it. */
    public enum Kind {
        /** It returned (a value, or nothing). */
        VALUE,
        /** It raised an application error that nothing caught. */
        APPLICATION_ERROR,
        /** It needed an unreachable host and did not catch the NetworkException. */
        NETWORK_ERROR,
        /** It called abort(). */
        ABORTED
    }

    /**
     * The outcome of a call or step. For a step, {@code changes} are the data
     * entries the step changed and {@code returned} tells whether it executed
     * {@code return} (with {@code value} as the returned value).
     */
    public record Response(Kind kind, Object value, String message, Map<String, Object> changes, boolean returned) {
        static Response value(Object value) {
            return new Response(Kind.VALUE, value, null, Map.of(), false);
        }

        static Response step(Map<String, Object> changes, boolean returned, Object returnedValue) {
            return new Response(Kind.VALUE, returnedValue, null, changes, returned);
        }

        static Response failure(Kind kind, String message) {
            return new Response(kind, null, message, Map.of(), false);
        }

        /** Raises at the caller what the callee raised, or returns the value. */
        Object unwrap() {
            return switch (kind) {
                case VALUE -> value;
                case APPLICATION_ERROR -> throw new ApplicationException(message);
                case NETWORK_ERROR -> throw new NetworkException(message);
                case ABORTED -> throw new AbortSignal();
            };
        }
    }
}
