package dev.waldoconf.engine;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds the change engine built into this WaldoConf. The engine registers a
 * {@link ChangeEngineProvider} in {@code META-INF/services/dev.waldoconf.engine.ChangeEngineProvider};
 * the CLI never names the implementation class.
 */
public final class ChangeEngines {
    private ChangeEngines() {
    }

    /** The first registered engine, if any, set up as {@code options} ask. */
    public static Optional<ChangeEngine> find(EngineOptions options) {
        return ServiceLoader.load(ChangeEngineProvider.class).findFirst().map(provider -> provider.create(options));
    }
}
