package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.model.SwitchState;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** What the lab commands share: the lab directory, writers, failure reporting. */
abstract class LabSubcommand implements Callable<Integer> {
    protected final CliContext context;

    @Spec
    protected CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".waldoconf/lab",
            description = "The lab's directory: its record, inventory, state and log (default: ${DEFAULT-VALUE}).")
    protected Path dir;

    LabSubcommand(CliContext context) {
        this.context = context;
    }

    /** The command's work; failures are thrown and reported by {@link Failures}. */
    protected abstract int run() throws CommandFailure, IOException;

    @Override
    public final Integer call() throws CommandFailure, IOException {
        try {
            return run();
        } finally {
            out().flush();
            err().flush();
        }
    }

    protected LabDirectory lab() {
        return new LabDirectory(dir);
    }

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** Docker as this invocation's environment names it. */
    protected Docker docker() {
        return Docker.from(context.environment());
    }

    /**
     * Prints each switch of the lab {@code info} describes with its addresses (and container) and
     * whether it answers SNMP; exit code 3 if one does not.
     */
    protected int printSwitches(LabDirectory.Info info) throws IOException {
        Function<String, String> container = info.spec().containers() ? containers() : name -> "";
        Inventory inventory;
        try {
            inventory = InventoryLoader.load(lab().inventory());
        } catch (ConfigException e) {
            throw new IOException("the lab's inventory is broken: " + e.getMessage()
                    + "; run 'waldoconf lab down' and 'waldoconf lab up'", e);
        }
        boolean allAnswer = true;
        try (WaldoConf waldoconf = context.waldoconf().apply(EngineOptions.DEFAULTS)) {
            for (SwitchEntry entry : inventory.switches()) {
                String state = probe(waldoconf, inventory, entry);
                allAnswer &= !state.startsWith("not answering");
                out().println("  " + entry.name() + "  snmp " + entry.snmp() + "  service " + entry.service() + "  "
                        + state + container.apply(entry.name()));
            }
        }
        out().println("Inventory: " + lab().inventory() + " (plan and apply use it when no --inventory is given)");
        return allAnswer ? ExitCodes.OK : ExitCodes.UNREACHABLE;
    }

    /** Each switch's container, as "  container NAME (STATUS)"; when Docker does not answer, each says so. */
    private Function<String, String> containers() {
        try {
            Map<String, String> byName = new SwitchContainers(docker(), lab()).list();
            return name -> "  container " + byName.getOrDefault(name,
                    "missing (run 'waldoconf lab down' and 'waldoconf lab up --containers')");
        } catch (IOException e) {
            return name -> "  container unknown: " + e.getMessage();
        }
    }

    private String probe(WaldoConf waldoconf, Inventory inventory, SwitchEntry entry) {
        try {
            SwitchState state = waldoconf.read(inventory, entry);
            return "answering, VLANs " + state.vlans().keySet();
        } catch (Exception e) {
            return "not answering: " + e.getMessage();
        }
    }
}
