package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.custom.CustomProgram;
import dev.waldoconf.custom.CustomProgramException;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.service.SiteAgent;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code waldoconf serve}: runs one switch's WaldoConf service ({@code --switch}), or a site agent
 * that serves the switches of a site in one process ({@code --site}), until stopped.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Runs the WaldoConf service of one switch (--switch NAME, at its 'service:' address), or of"
                + " every switch of an inventory site in one process, a site agent (--site SITE, at the site's"
                + " address under 'sites:'), until stopped.",
            "The service holds the switch's intended state, takes part in changes, and reverts an unconfirmed"
                    + " trial at its deadline.",
            "In an agent each switch stays its own participant (own journal, transaction log, locks and trial); the"
                    + " switches share the agent's one listening port, its certificate (site-SITE) and its I/O"
                    + " threads, and an operator reaches all of them over one connection. A switch whose service"
                    + " cannot start (its SNMP agent does not answer) is reported and tried again every 10 s while"
                    + " the others serve.",
            "It accepts only operators whose certificate comes from the project CA, lets only those with the"
                    + " change role change the switch, and records every change in DIR/NAME/net/audit.log"
                    + " ('waldoconf log')."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:stopped", "2:bad usage, invalid inventory, unknown switch or site, a switch of a site served alone, or a"
                    + " --service .wld with errors (file:line:col)",
            "5:the service's certificate could not be issued from the project CA, or the site agent cannot listen at"
                    + " its address"})
final class ServeCommand extends SwitchCommand {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Served served;

    /** One switch, or a site of them. */
    static final class Served {
        @Option(names = "--switch", required = true, paramLabel = "NAME", description = "The switch (from the"
                + " inventory), one without a site.")
        String switchName;

        @Option(names = "--site", required = true, paramLabel = "SITE", description = "Serve every switch of this"
                + " inventory site (under 'sites:') in one process, at the site's address.")
        String site;
    }

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
        if (customService != null) {
            checkCustomService();
        }
        return served.site != null ? serveSite(inventory) : serveOne(inventory, served.switchName);
    }

    private int serveOne(Inventory inventory, String switchName) throws Exception {
        SwitchEntry entry = inventory.switchNamed(switchName).orElseThrow(() -> new CommandFailure(ExitCodes.USAGE,
                "no switch named '" + switchName + "' in " + show(inventory.file()) + "; known: "
                        + String.join(", ", inventory.groups().get(Inventory.ALL))));
        if (entry.site().isPresent()) {
            throw new CommandFailure(ExitCodes.USAGE, "switch " + switchName + " belongs to site " + entry.site().get()
                    + " in " + show(inventory.file()) + ", whose agent serves it at the site's address: run"
                    + " 'waldoconf serve --site " + entry.site().get() + "'");
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

    /**
     * Runs a site agent for the site's switches until the process is stopped. Failures to start a
     * switch are printed as they happen (they are retried); successes only as a count, so that the
     * output stays readable at a thousand switches.
     */
    private int serveSite(Inventory inventory) throws Exception {
        List<SwitchEntry> switches = inventory.switchesOfSite(served.site);
        if (switches.isEmpty()) {
            throw new CommandFailure(ExitCodes.USAGE, "no site named '" + served.site + "' with switches in "
                    + show(inventory.file()) + "; known: " + String.join(", ", inventory.sites().keySet()));
        }
        PrintWriter err = err();
        SiteAgent.Events events = new SiteAgent.Events() {
            @Override
            public void serving(String name) {
            }

            @Override
            public void waiting(String name, String reason) {
                synchronized (err) {
                    err.println(name + ": not serving yet, tried again every 10 s: " + reason);
                    err.flush();
                }
            }
        };
        try (WaldoConf waldoconf = waldoconf();
             SiteAgent agent = SiteAgent.start(inventory, served.site, stateDir,
                     waldoconf.agentNet(inventory, served.site, SiteAgent.agentDir(stateDir, served.site)),
                     Optional.ofNullable(customService), SiteAgent.Settings.forSwitches(switches.size()),
                     waldoconf::serve, events)) {
            out().println("Serving " + agent.serving().size() + " of the " + switches.size() + " switches of site "
                    + served.site + " at " + agent.address().getHostString() + ":" + agent.address().getPort()
                    + " with " + agent.ioThreads() + " I/O threads; stop with Ctrl-C.");
            out().flush();
            agent.awaitTermination();
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
