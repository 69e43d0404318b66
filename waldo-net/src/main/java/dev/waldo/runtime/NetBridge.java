package dev.waldo.runtime;

import java.util.Map;

/**
 * What waldo-net needs from waldo-runtime that the runtime does not yet make
 * public: the host layer's Call and Reply payloads ({@code Requests}), a host
 * on a transport of one's own, and pairing a local endpoint with a partner on
 * another host.
 *
 * <p>This class sits in waldo-runtime's package but ships in waldo-net, which
 * works on the class path (not across named modules). It goes away once
 * waldo-runtime offers {@code public Requests}, {@code Host.create(String, Transport)}
 * and {@code Host.pair(WaldoEndpoint, EndpointRef)}; waldo-net/README.md lists them.
 */
public final class NetBridge {
    private NetBridge() {
    }

    /** A host named {@code id} that talks to other hosts through {@code transport}. */
    public static Host newHost(String id, Transport transport) {
        try {
            var constructor = Host.class.getDeclaredConstructor(String.class, Transport.class);
            constructor.setAccessible(true);
            return constructor.newInstance(id, transport);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException("cannot create host " + id, e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this waldo-runtime has no Host(String, Transport) constructor", e);
        }
    }

    /** Makes {@code remote}, an endpoint on another host, the partner of {@code local}. */
    public static void pair(WaldoEndpoint local, EndpointRef remote) {
        local.connectTo(remote);
    }

    /** Receives the parts of one payload. */
    public interface Visitor<R> {
        /** A Public function call. */
        R invocation(long object, String function, Object[] args);

        /** A sequence step with the sequence data that changed. */
        R step(long object, long frame, String sequence, int step, Map<String, Object> changes);

        /**
         * How a call or step ended.
         *
         * @param kind the ordinal of the response kind: value, application error, network error, aborted
         */
        R response(int kind, Object value, String message, Map<String, Object> changes, boolean returned);
    }

    /** Hands the parts of {@code payload} to {@code visitor}. */
    public static <R> R visit(Object payload, Visitor<R> visitor) {
        return switch (payload) {
            case Requests.Invocation call -> visitor.invocation(call.object(), call.function(), call.args());
            case Requests.StepInvocation step -> visitor.step(step.object(), step.frame(), step.sequence(),
                    step.step(), step.changes());
            case Requests.Response response -> visitor.response(response.kind().ordinal(), response.value(),
                    response.message(), response.changes(), response.returned());
            default -> throw new IllegalArgumentException("not a host payload: " + payload.getClass().getName());
        };
    }

    /** A Public function call payload. */
    public static Object invocation(long object, String function, Object[] args) {
        return new Requests.Invocation(object, function, args);
    }

    /** A sequence step payload. */
    public static Object step(long object, long frame, String sequence, int step, Map<String, Object> changes) {
        return new Requests.StepInvocation(object, frame, sequence, step, changes);
    }

    /**
     * A response payload.
     *
     * @throws IllegalArgumentException if {@code kind} is no response kind's ordinal
     */
    public static Object response(int kind, Object value, String message, Map<String, Object> changes,
                                  boolean returned) {
        Requests.Kind[] kinds = Requests.Kind.values();
        if (kind < 0 || kind >= kinds.length) {
            throw new IllegalArgumentException("no response kind " + kind);
        }
        return new Requests.Response(kinds[kind], value, message, changes, returned);
    }
}
