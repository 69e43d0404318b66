package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import dev.waldoconf.engine.EngineOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * What the commands need from outside: WaldoConf itself (the product API, opened with the options a
 * command asks for), the environment, the terminal, and how to start a lab. {@link #system()} is the
 * real one; tests pass WaldoConf over simulated switches and a fake engine.
 *
 * @param waldoconf opens WaldoConf with the given options (TLS or not, where the operator's state is);
 *     the command closes it
 * @param environment environment variables, for {@code {env: ...}} secrets and the docker command
 * @param terminal the operator's terminal
 * @param labs starts a lab in the background
 */
public record CliContext(Function<EngineOptions, WaldoConf> waldoconf, Map<String, String> environment,
                         Terminal terminal, LabLauncher labs) {
    /** The default lab directory, relative to the working directory. */
    public static final Path DEFAULT_LAB_DIR = Path.of(".waldoconf", "lab");

    /** The context of a real run: WaldoConf over SNMP, the process environment, a terminal. */
    public static CliContext system() {
        Map<String, String> environment = System.getenv();
        return new CliContext(options -> WaldoConf.open(options, environment), environment,
                Terminal.system(), LabLauncher.process());
    }
}
