package dev.waldoconf.cli;

import dev.waldo.compiler.Waldoc;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code waldoconf}: atomic VLAN changes across switches, with trial, confirm and rollback. */
@Command(name = "waldoconf", mixinStandardHelpOptions = true, version = "waldoconf 0.1.0",
        description = {"Changes VLANs on many switches as one transaction: every switch moves to the new state or"
                + " none does. With --trial, every switch reverts by itself unless the change is confirmed in time.",
            "",
            "  waldoconf plan configs/vlan.yaml",
            "  waldoconf apply configs/vlan.yaml --trial 300s",
            "  waldoconf confirm      (or: waldoconf rollback)"},
        subcommands = {PlanCommand.class, ApplyCommand.class, ConfirmCommand.class, RollbackCommand.class,
            StatusCommand.class, ServeCommand.class, CallCommand.class, LabCommand.class, InitCommand.class,
            LogCommand.class,
            AutoComplete.GenerateCompletion.class},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:done",
            "1:change refused or failed (every switch kept or got back its old state), or declined",
            "2:bad usage, or invalid inventory or plan (printed as file:line:col: field: message)",
            "3:a switch or its service is unreachable",
            "4:a pending trial blocks the change, or no such change",
            "5:not set up on this machine (no operator certificate: run 'waldoconf init'), or the lab could not start",
            "6:internal error (a bug; please report it)"})
public final class WaldoconfCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "say what to do: plan, apply, confirm, rollback, status, serve, call, lab, init, log or waldoc"
                        + " (see --help)");
    }

    /**
     * The {@code waldoconf} command line, its subcommands built with {@code context}. Set its
     * writers with {@code setOut}/{@code setErr} after this call; they reach every subcommand.
     */
    public static CommandLine newCommandLine(CliContext context) {
        CommandLine commandLine = new CommandLine(new WaldoconfCommand(), new ContextFactory(context));
        commandLine.addSubcommand("waldoc", Waldoc.newCommandLine());
        commandLine.getSubcommands().get("generate-completion").getCommandSpec().usageMessage().hidden(false);
        // One place for every command: failures are printed as messages and mapped to their exit codes.
        Failures failures = new Failures();
        commandLine.setExitCodeExceptionMapper(failures);
        commandLine.setExecutionExceptionHandler(failures);
        return commandLine;
    }

    /** Builds commands that take a {@link CliContext}; everything else the picocli way. */
    private record ContextFactory(CliContext context) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            try {
                var constructor = type.getDeclaredConstructor(CliContext.class);
                constructor.setAccessible(true);
                return constructor.newInstance(context);
            } catch (NoSuchMethodException e) {
                return CommandLine.defaultFactory().create(type);
            }
        }
    }
}
