package dev.waldoconf.cli;

import dev.waldoconf.engine.EngineOptions;
import picocli.CommandLine.Option;

/** The option shared by every command that runs or reaches a Waldo network host: TLS on or off. */
final class NetworkOptions {
    @Option(names = "--insecure",
            description = {"Turn TLS off between the operator and the switches' services: for benchmarks and"
                    + " debugging ONLY (traffic is readable and unauthenticated). Both ends must agree: pass it to"
                    + " 'serve' or 'lab up' and to every command that reaches those services, or to none."})
    boolean insecure;

    /** The change engine's options these settings ask for. */
    EngineOptions engineOptions() {
        return new EngineOptions(insecure);
    }

    /**
     * A hint for a failed connection that looks like the two ends disagree about TLS, or "" when
     * it does not. A TLS client reading a plain peer's first bytes fails with "not an SSL/TLS
     * record"; a TLS server just closes a plain client's connection.
     */
    String mismatchHint(String failure) {
        if (failure == null) {
            return "";
        }
        if (!insecure && failure.contains("not an SSL/TLS record")) {
            return "; the service does not speak TLS: it was started with --insecure, so pass --insecure here"
                    + " too (benchmarks and debugging only), or restart it without";
        }
        if (insecure && failure.contains("closed by peer")) {
            return "; this command has TLS off (--insecure) and the service closed the connection, as a service"
                    + " with TLS on does: drop --insecure, unless the service was started with it";
        }
        return "";
    }
}
