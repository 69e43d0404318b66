package dev.waldoconf.cli;

import dev.waldoconf.engine.ChangeEngine;
import dev.waldoconf.engine.ChangeEngineProvider;
import dev.waldoconf.service.WaldoConfEngine;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Registers WaldoConf's change engine ({@link WaldoConfEngine}) for
 * {@link dev.waldoconf.engine.ChangeEngines#find()}. It lives here because the
 * CLI owns how switches are opened (SNMP credentials from the environment).
 */
public final class EngineProvider implements ChangeEngineProvider {
    /** Where the operator's Waldo host keeps its TLS key and the service certificates it pinned. */
    static final Path OPERATOR_STATE = Path.of(".waldoconf", "operator");

    @Override
    public ChangeEngine create() {
        return new WaldoConfEngine(new SnmpDeviceFactory(System.getenv()), OPERATOR_STATE, Clock.systemUTC());
    }
}
