package dev.waldoconf.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options shared by the commands that act on switches: which inventory, or which local lab. */
final class InventoryOptions {
    @Option(names = {"-i", "--inventory"}, paramLabel = "INV",
            description = "Inventory file (switches, groups, credentials). Default: the local lab's inventory,"
                    + " starting the lab if none is running.")
    Path inventory;

    @Option(names = "--lab-dir", paramLabel = "DIR", defaultValue = ".waldoconf/lab",
            description = "Where the local lab keeps its inventory and state (default: ${DEFAULT-VALUE}).")
    Path labDir;

    @Option(names = "--lab-switches", paramLabel = "N", defaultValue = "4",
            description = "Switches in a lab started because no inventory was given (default: ${DEFAULT-VALUE}).")
    int labSwitches;
}
