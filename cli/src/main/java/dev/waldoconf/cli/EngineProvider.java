package dev.waldoconf.cli;

import dev.waldoconf.engine.ChangeEngine;
import dev.waldoconf.engine.ChangeEngineProvider;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.service.WaldoConfEngine;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Registers WaldoConf's change engine ({@link WaldoConfEngine}) for
 * {@link dev.waldoconf.engine.ChangeEngines#find(EngineOptions)}. It lives here because the
 * CLI owns how switches are opened (SNMP credentials from the environment).
 */
public final class EngineProvider implements ChangeEngineProvider {
    /**
     * Where the operator's Waldo host keeps its key and certificate from the project CA ({@code
     * waldoconf init}), or under {@code --tofu} its self-signed one and the service certificates it pinned.
     */
    static final String OPERATOR_STATE_NAME = ".waldoconf/operator";
    static final Path OPERATOR_STATE = Path.of(OPERATOR_STATE_NAME);

    private final Path operatorState;

    /** The provider {@link java.util.ServiceLoader} uses: operator state in {@value #OPERATOR_STATE_NAME}. */
    public EngineProvider() {
        this(OPERATOR_STATE);
    }

    /** A provider whose engines keep the operator's TLS state in {@code operatorState} (tests use a fresh one). */
    EngineProvider(Path operatorState) {
        this.operatorState = operatorState;
    }

    @Override
    public ChangeEngine create(EngineOptions options) {
        return new WaldoConfEngine(new SnmpDeviceFactory(System.getenv()), options.operatorState().orElse(operatorState),
                Clock.systemUTC(), options);
    }
}
