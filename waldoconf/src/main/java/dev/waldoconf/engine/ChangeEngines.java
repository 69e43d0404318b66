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

    /** The first registered engine, if any. */
    public static Optional<ChangeEngine> find() {
        return ServiceLoader.load(ChangeEngineProvider.class).findFirst().map(ChangeEngineProvider::create);
    }
}
