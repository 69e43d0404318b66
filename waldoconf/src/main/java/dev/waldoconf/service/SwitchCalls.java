package dev.waldoconf.service;

import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.WaldoObject;
import dev.waldoconf.engine.BoundedParallel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One Public function called on many switches' objects as ONE Waldo transaction with a Java body,
 * on the operator's host: {@link ApplyTransaction#CALLS_IN_FLIGHT} calls at a time from threads of
 * the body (the runtime routes each reply to its call, and a wound unwinds every call in flight),
 * as the apply's body makes its reads and stages. A Waldo loop makes them one after another: a
 * confirm of 1,000 switches was 1,000 round trips in a row.
 */
final class SwitchCalls extends WaldoObject {
    SwitchCalls(Host host) {
        super(host, "WaldoConfCalls");
    }

    /**
     * Calls {@code function} with {@code args} on each of {@code objects} (distinct) in one transaction.
     *
     * @return each call's result, in the order of {@code objects}
     */
    List<Object> each(List<EndpointRef> objects, String function, Object... args) {
        return transact(function, ctx -> new ArrayList<>(calls(ctx, objects, function, args).values()));
    }

    /**
     * Calls {@code function} (a Function returning TrueFalse) with {@code args} on each of {@code
     * objects} (distinct) in one transaction, which aborts if any call answers False: then nothing changes
     * anywhere, as a Waldo {@code abort()} does.
     *
     * @throws dev.waldo.runtime.TransactionAbortedException if an object answered False
     */
    void allTrue(List<EndpointRef> objects, String function, Object... args) {
        transact(function, ctx -> {
            if (calls(ctx, objects, function, args).containsValue(Boolean.FALSE)) {
                throw ctx.abort();
            }
            return null;
        });
    }

    private static Map<EndpointRef, Object> calls(Ctx ctx, List<EndpointRef> objects, String function, Object[] args) {
        return BoundedParallel.all(ApplyTransaction.CALLS_IN_FLIGHT, objects, object -> ctx.call(object, function, args));
    }

    @Override
    protected Object dispatch(Ctx ctx, String function, Object[] args) {
        throw new ApplicationException("the operator's calls have no Public function '" + function + "'");
    }
}
