package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.custom.CustomProgram;
import dev.waldoconf.custom.CustomProgramException;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code waldoconf serve}: runs one switch's WaldoConf service until stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Runs the WaldoConf service of one switch until stopped.",
            "The service holds the switch's intended state, takes part in changes, and reverts an unconfirmed"
                    + " trial at its deadline.",
            "It accepts only operators whose certificate comes from the project CA, lets only those with the"
                    + " change role change the switch, and records every change in DIR/NAME/net/audit.log"
                    + " ('waldoconf log')."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:stopped", "2:bad usage, invalid inventory, unknown switch, or a --service .wld with errors (file:line:col)", "5:the service's certificate could not be issued from the project CA"})
final class ServeCommand extends SwitchCommand {
    @Option(names = "--switch", required = true, paramLabel = "NAME", description = "The switch (from the inventory).")
    String switchName;

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = ".waldoconf/services",
            description = "Where the service keeps its journal, its certificate and its audit journal (default:"
                    + " ${DEFAULT-VALUE}/NAME).")
    Path stateDir;

    @Option(names = "--service", paramLabel = "FILE.wld|NAME",
            description = "Run a Waldo device service instead of the Q-BRIDGE one: your own .wld, or a built-in"
                    + " one by name (system-group).")
    Path customService;

    @Option(names = "--ca-dir", paramLabel = "DIR",
            description = {"The project CA that issues this service its certificate on its first start, if it has"
                    + " none yet in its state directory (created here if there is no CA). Default: "
                    + ".waldoconf/ca; the local lab's own, without --inventory. Not used with --tofu or --insecure."})
    Path caDir;

    ServeCommand(CliContext context) {
        super(context);
    }

    @Override
    protected EngineOptions engineOptions() {
        EngineOptions options = super.engineOptions();
        return caDir == null ? options : options.withProjectCa(caDir);
    }

    @Override
    protected int run() throws Exception {
        Inventory inventory = inventory(false);
        if (inventory.switchNamed(switchName).isEmpty()) {
            throw new CommandFailure(ExitCodes.USAGE, "no switch named '" + switchName + "' in " + show(
                    inventory.file()) + "; known: " + String.join(", ", inventory.groups().get(Inventory.ALL)));
        }
        if (customService != null) {
            checkCustomService();
        }
        try (WaldoConf waldoconf = waldoconf();
             RunningService service = waldoconf.serve(new ServiceSpec(inventory, switchName,
                     stateDir.resolve(switchName), Optional.ofNullable(customService)))) {
            out().println("Serving switch " + switchName + "; stop with Ctrl-C.");
            out().flush();
            service.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ExitCodes.OK;
    }

    /** A custom service with errors is bad input: each is reported as file:line:col before anything starts. */
    private void checkCustomService() throws CustomProgramException, IOException {
        CustomProgram.check(customService).servedService();
    }
}
