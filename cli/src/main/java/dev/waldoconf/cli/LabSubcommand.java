package dev.waldoconf.cli;

import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.model.SwitchState;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
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

    /** The command's work. */
    protected abstract int run() throws CommandFailure, IOException;

    @Override
    public final Integer call() {
        try {
            return run();
        } catch (CommandFailure failure) {
            err().println("error: " + failure.getMessage());
            return failure.exitCode();
        } catch (IOException e) {
            err().println("error: " + e.getMessage());
            return ExitCodes.UNAVAILABLE;
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

    /** Prints each lab switch with its addresses and whether it answers SNMP; exit code 3 if one does not. */
    protected int printSwitches() throws IOException {
        Inventory inventory;
        try {
            inventory = InventoryLoader.load(lab().inventory());
        } catch (ConfigException e) {
            throw new IOException("the lab's inventory is broken: " + e.getMessage()
                    + "; run 'waldoconf lab down' and 'waldoconf lab up'", e);
        }
        boolean allAnswer = true;
        for (SwitchEntry entry : inventory.switches()) {
            String state = probe(inventory, entry);
            allAnswer &= !state.startsWith("not answering");
            out().println("  " + entry.name() + "  snmp " + entry.snmp() + "  service " + entry.service() + "  "
                    + state);
        }
        out().println("Inventory: " + lab().inventory() + " (plan and apply use it when no --inventory is given)");
        return allAnswer ? ExitCodes.OK : ExitCodes.UNREACHABLE;
    }

    private String probe(Inventory inventory, SwitchEntry entry) {
        try (VlanDevice device = context.devices().open(entry, inventory.credentialsOf(entry))) {
            SwitchState state = device.read();
            return "answering, VLANs " + state.vlans().keySet();
        } catch (Exception e) {
            return "not answering: " + e.getMessage();
        }
    }
}
