package dev.waldoconf.cli;

import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.service.AuditJournal;
import dev.waldoconf.service.SwitchServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code waldoconf log}: the changes the switches' services recorded, with who made each one, when,
 * what it changed and how it ended, oldest first.
 */
@Command(name = "log", mixinStandardHelpOptions = true,
        description = {"Shows every change the switches' services recorded: when, which switch, who (the"
                + " operator named by the certificate that started it), the outcome (committed, backed out,"
                + " refused and why), the transaction and what it changed. Oldest first.",
            "It reads the services' audit journals (DIR/NAME/net/audit.log) on this machine."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done (also when nothing is recorded yet)",
            "2:bad usage, invalid inventory or unknown switch", "5:a journal cannot be read"})
final class LogCommand extends SwitchCommand {
    @Option(names = "--switch", paramLabel = "NAME", description = "Only this switch (default: every switch).")
    String switchName;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "The services' state directory, as 'serve --state-dir' (default: the local lab's, without"
                    + " --inventory; else .waldoconf/services).")
    Path stateDir;

    LogCommand(CliContext context) {
        super(context);
    }

    @Override
    protected int run() throws Exception {
        Inventory inventory = inventory(false);
        List<AuditJournal.Entry> entries = new ArrayList<>();
        Path services = servicesDir();
        for (SwitchEntry entry : chosen(inventory)) {
            entries.addAll(new AuditJournal(SwitchServer.netDir(services.resolve(entry.name()))).read());
        }
        if (entries.isEmpty()) {
            out().println("No change recorded yet in " + services + ".");
            return ExitCodes.OK;
        }
        entries.sort(Comparator.comparing(AuditJournal.Entry::at));
        for (AuditJournal.Entry entry : entries) {
            out().println(entry.at() + "  " + entry.switchName() + "  " + entry.who() + "  " + entry.outcome()
                    + "  " + entry.transaction() + "  " + entry.what());
        }
        return ExitCodes.OK;
    }

    private Path servicesDir() {
        if (stateDir != null) {
            return stateDir;
        }
        return inventoryOptions.inventory == null ? new LabDirectory(inventoryOptions.labDir).serviceState()
                : Path.of(".waldoconf", "services");
    }

    private List<SwitchEntry> chosen(Inventory inventory) throws CommandFailure {
        if (switchName == null) {
            return inventory.switches();
        }
        return List.of(inventory.switchNamed(switchName).orElseThrow(() -> new CommandFailure(ExitCodes.USAGE,
                "no switch named '" + switchName + "' in " + show(inventory.file()) + "; known: "
                        + String.join(", ", inventory.groups().get(Inventory.ALL)))));
    }
}
