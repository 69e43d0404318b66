package dev.waldoconf.custom;

import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.TxnBody;
import dev.waldo.runtime.WaldoObject;

/**
 * A transaction with a Java body on the operator's host, for what {@code waldoconf call} does
 * around an operator's program: stage a trial together with the program's function, confirm or
 * roll one back on every service, read every service's pending trial. Each is ONE Waldo
 * transaction across the services it calls.
 */
final class OperatorTransaction extends WaldoObject {
    OperatorTransaction(Host host) {
        super(host, "WaldoConfCall");
    }

    /** Runs {@code body} as one transaction; it may run more than once, only the committed run counts. */
    <T> T run(String what, TxnBody<T> body) {
        return transact(what, body);
    }

    @Override
    protected Object dispatch(Ctx ctx, String function, Object[] args) {
        throw new ApplicationException("the operator's call has no Public function '" + function + "'");
    }
}
