package dev.waldoconf.engine;

/**
 * How the CLI asks for its change engine.
 *
 * @param insecure TLS off between the operator and the switches' services ({@code --insecure}), for
 *     benchmarks and debugging: traffic is then readable and unauthenticated. Both ends must agree; a
 *     TLS host and an insecure one cannot talk.
 */
public record EngineOptions(boolean insecure) {
    /** The defaults: TLS on. */
    public static final EngineOptions DEFAULTS = new EngineOptions(false);
}
