package dev.waldoconf.cli;

import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.engine.ChangeEngine;
import dev.waldoconf.engine.ChangeEngines;
import dev.waldoconf.engine.EngineOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the commands need from outside: the change engine (if this build has one), how to open
 * switches, the environment (for secrets), the terminal, and how to start a lab. {@link #system()}
 * is the real one; tests pass fakes.
 *
 * @param engines finds the change engine set up with the given options (TLS or not); empty when no engine is
 *     built into waldoconf
 * @param devices opens switches to read their state
 * @param environment environment variables, for {@code {env: ...}} secrets
 * @param terminal the operator's terminal
 * @param labs starts a lab in the background
 */
public record CliContext(Function<EngineOptions, Optional<ChangeEngine>> engines, DeviceFactory devices,
                         Map<String, String> environment, Terminal terminal, LabLauncher labs) {
    /** The default lab directory, relative to the working directory. */
    public static final Path DEFAULT_LAB_DIR = Path.of(".waldoconf", "lab");

    /** The context of a real run: ServiceLoader engine, SNMP devices, process environment, a terminal. */
    public static CliContext system() {
        Map<String, String> environment = System.getenv();
        return new CliContext(ChangeEngines::find, new SnmpDeviceFactory(environment), environment,
                Terminal.system(), LabLauncher.process());
    }
}
