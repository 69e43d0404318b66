package dev.waldo.runtime;

/**
 * Base of generated service classes: state and code on one host that drives
 * many endpoints at once. A service has no partner and runs no sequence steps.
 */
public abstract class WaldoService extends WaldoObject {
    protected WaldoService(Host host, String kind) {
        super(host, kind);
    }
}
