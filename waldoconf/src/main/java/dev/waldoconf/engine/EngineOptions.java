package dev.waldoconf.engine;

import dev.waldo.net.Security;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How {@link dev.waldoconf.WaldoConf} and its change engine reach the switches' services.
 *
 * @param security how the operator and the switches' services authenticate each other:
 *     {@link Security#MUTUAL} (the default: certificates from the project CA, with roles),
 *     {@link Security#SELF_SIGNED} ({@code --tofu}: trust on first use, no roles) or
 *     {@link Security#INSECURE} ({@code --insecure}: TLS off, for benchmarks and debugging). Both ends
 *     must agree.
 * @param operatorState where the operator's host keeps its key and certificate (and, under trust on
 *     first use, the service certificates it pinned), if not {@link dev.waldoconf.WaldoConf#DEFAULT_OPERATOR_STATE}:
 *     each local lab has its own, because each lab has its own project CA
 * @param projectCa where the project CA lives that issues a service its certificate on its first
 *     start, if not {@link #DEFAULT_PROJECT_CA}
 */
public record EngineOptions(Security security, Optional<Path> operatorState, Optional<Path> projectCa) {
    /** Where {@code waldoconf init} and {@code serve} keep the project CA unless told otherwise. */
    public static final Path DEFAULT_PROJECT_CA = Path.of(".waldoconf", "ca");
    /** The defaults: mutual TLS, the default operator state, the default project CA. */
    public static final EngineOptions DEFAULTS = new EngineOptions(Security.MUTUAL);

    /** Checks the parts. */
    public EngineOptions {
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(operatorState, "operatorState");
        Objects.requireNonNull(projectCa, "projectCa");
    }

    /** {@code security}, the default operator state, the default project CA. */
    public EngineOptions(Security security) {
        this(security, Optional.empty(), Optional.empty());
    }

    /** True when TLS is off ({@code --insecure}). */
    public boolean insecure() {
        return security == Security.INSECURE;
    }

    /** These options with the operator's TLS state in {@code directory}. */
    public EngineOptions withOperatorState(Path directory) {
        return new EngineOptions(security, Optional.of(directory), projectCa);
    }

    /** These options with the project CA in {@code directory}. */
    public EngineOptions withProjectCa(Path directory) {
        return new EngineOptions(security, operatorState, Optional.of(directory));
    }

    /** The project CA's directory. */
    public Path projectCaDir() {
        return projectCa.orElse(DEFAULT_PROJECT_CA);
    }
}
