package dev.waldoconf.engine;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How the CLI asks for its change engine.
 *
 * @param insecure TLS off between the operator and the switches' services ({@code --insecure}), for
 *     benchmarks and debugging: traffic is then readable and unauthenticated. Both ends must agree; a
 *     TLS host and an insecure one cannot talk.
 * @param operatorState where the operator's host keeps its TLS key and the service certificates it
 *     pinned, if not where the engine provider keeps them: each local lab has its own, because a lab
 *     made afresh has services with new certificates under the same names
 */
public record EngineOptions(boolean insecure, Optional<Path> operatorState) {
    /** The defaults: TLS on, the provider's operator state. */
    public static final EngineOptions DEFAULTS = new EngineOptions(false);

    /** TLS as {@code insecure} says, the provider's operator state. */
    public EngineOptions(boolean insecure) {
        this(insecure, Optional.empty());
    }

    /** These options with the operator's TLS state in {@code directory}. */
    public EngineOptions withOperatorState(Path directory) {
        return new EngineOptions(insecure, Optional.of(directory));
    }
}
