package dev.waldoconf.cli;

import dev.waldo.compiler.check.Symbol;
import dev.waldo.runtime.lang.Values;
import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.custom.CustomCall;
import dev.waldoconf.custom.CustomProgram;
import dev.waldoconf.custom.CustomProgramException;
import dev.waldoconf.engine.EngineOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code waldoconf call FILE.wld Kind.function [ARG...]}: runs one Public function of a coordinator
 * Service in an operator's own device-service program, across the services that
 * {@code waldoconf serve --service FILE.wld} runs for the chosen switches, as ONE transaction; with
 * {@code --trial} the change reverts at the deadline unless {@code call FILE.wld --confirm ID} comes
 * first, and {@code --rollback ID} and {@code --trials} roll a trial back or list them.
 */
@Command(name = "call", mixinStandardHelpOptions = true,
        description = {"Calls a Public function of a coordinator Service in your own .wld across the custom"
                + " services of the chosen switches, as one transaction: every switch takes the change or none does.",
            "The function's first parameter receives the switches' services (List(element: Endpoint)), in the order"
                    + " of --switches (default: inventory order); the ARGs fill its other parameters (Text, Number"
                    + " or TrueFalse).",
            "With --trial, every switch's service reverts the change by itself at the deadline unless"
                    + " 'call NAME --confirm ID' comes in time; 'call NAME --rollback ID' reverts it at once;"
                    + " 'call NAME --trials' lists the pending ones. Each is one transaction across the switches.",
            "",
            "  waldoconf call system-group SystemGroupChange.set_all 'rack 12' noc@example.net"
                    + " -i configs/snmpd-inventory.yaml",
            "  waldoconf call system-group SystemGroupChange.set_all 'rack 12' noc@example.net --trial 60s",
            "  waldoconf call system-group --confirm t1a2b3c-x9"},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:committed on every switch (the result, if any, is printed)",
            "1:refused by a switch, aborted or failed in the program; no switch changed",
            "2:bad usage, a .wld with errors (printed as file:line:col), or an invalid inventory",
            "3:a switch's service is unreachable; no switch changed",
            "4:a pending trial blocks the change, or no such trial to confirm or roll back",
            "5:this operator has no certificate (run 'waldoconf init')"})
final class CallCommand extends SwitchCommand {
    @Parameters(index = "0", paramLabel = "FILE.wld|NAME", description = "Your device-service program, or a"
            + " built-in one by name (system-group).")
    Path programFile;

    @Parameters(index = "1", arity = "0..1", paramLabel = "KIND.FUNCTION", description = "The coordinator"
            + " Service and its Public function, e.g. SystemGroupChange.set_all (not with --confirm, --rollback,"
            + " --trials).")
    String target;

    @Option(names = "--trial", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Make the change a trial: every switch reverts it after DURATION (60s, 5m, 1h30m) unless"
                    + " confirmed.")
    Duration trial;

    @Option(names = "--confirm", paramLabel = "ID", description = "Keep trial ID on every switch where it is pending.")
    String confirm;

    @Option(names = "--rollback", paramLabel = "ID", description = "Revert trial ID now on every switch where it"
            + " is pending.")
    String rollback;

    @Option(names = "--trials", description = "List the trials pending on the switches' services.")
    boolean listTrials;

    @Parameters(index = "2..*", paramLabel = "ARG", description = "The function's arguments after the services.")
    List<String> arguments = new ArrayList<>();

    @Option(names = "--switches", split = ",", paramLabel = "NAME",
            description = "The switches whose services take part, comma-separated (default: every switch).")
    List<String> switches;

    @Option(names = "--operator-dir", paramLabel = "DIR",
            description = "Where this operator's certificate from the project CA is (or, with --tofu, the service"
                    + " certificates it pinned). Default: the local lab's, without --inventory; else "
                    + WaldoConf.DEFAULT_OPERATOR_STATE_NAME + ".")
    Path operatorDir;

    CallCommand(CliContext context) {
        super(context);
    }

    @Override
    protected int run() throws Exception {
        if (confirm != null || rollback != null || listTrials) {
            return trials();
        }
        if (target == null) {
            throw new CommandFailure(ExitCodes.USAGE, "give KIND.FUNCTION to call, e.g. SystemGroupChange.set_all,"
                    + " or one of --confirm ID, --rollback ID, --trials");
        }
        int dot = target.indexOf('.');
        if (dot <= 0 || dot == target.length() - 1) {
            throw new CommandFailure(ExitCodes.USAGE, "'" + target + "' is not KIND.FUNCTION, e.g."
                    + " SystemGroupChange.set_all");
        }
        String kind = target.substring(0, dot);
        String function = target.substring(dot + 1);
        CustomProgram program = CustomProgram.check(programFile);
        List<Object> values = values(program, kind, function);
        List<SwitchEntry> chosen = chosen(inventory(false));
        try (WaldoConf waldoconf = waldoconf()) {
            Object result;
            if (trial == null) {
                WaldoConf.CallResult done = waldoconf.call(program, chosen, kind, function, values);
                result = done.result();
                out().println("Committed on " + done.switches().size() + " switch(es): "
                        + String.join(", ", done.switches()) + ".");
            } else {
                CustomCall.Staged staged = waldoconf.callAsTrial(program, chosen, kind, function, values, trial);
                result = staged.result();
                out().println("Committed trial " + staged.change() + " on " + chosen.size() + " switch(es): "
                        + String.join(", ", chosen.stream().map(SwitchEntry::name).toList()) + ". Every one reverts"
                        + " at " + staged.deadline() + " unless '" + confirmHint(staged.change()) + "' comes first.");
            }
            if (result != null) {
                out().println(Values.toText(result));
            }
            return ExitCodes.OK;
        }
    }

    /** {@code --confirm}, {@code --rollback} or {@code --trials}: one transaction across the chosen switches. */
    private int trials() throws Exception {
        if (target != null || !arguments.isEmpty() || trial != null
                || (confirm != null ? 1 : 0) + (rollback != null ? 1 : 0) + (listTrials ? 1 : 0) > 1) {
            throw new CommandFailure(ExitCodes.USAGE, "--confirm, --rollback and --trials each stand alone: give"
                    + " the service and one of them, e.g. 'waldoconf call " + programFile + " --confirm ID'");
        }
        CustomProgram program = CustomProgram.check(programFile);
        List<SwitchEntry> chosen = chosen(inventory(false));
        try (WaldoConf waldoconf = waldoconf()) {
            if (listTrials) {
                printTrials(waldoconf.callTrials(program, chosen));
            } else if (confirm != null) {
                out().println("Confirmed trial " + confirm + " on "
                        + String.join(", ", waldoconf.confirmCall(program, chosen, confirm)) + ".");
            } else {
                out().println("Rolled back trial " + rollback + " on "
                        + String.join(", ", waldoconf.rollbackCall(program, chosen, rollback)) + ".");
            }
            return ExitCodes.OK;
        }
    }

    private void printTrials(List<CustomCall.PendingTrial> pending) {
        if (pending.isEmpty()) {
            out().println("No pending trials.");
        }
        for (CustomCall.PendingTrial found : pending) {
            out().println("Trial " + found.change() + " reverts at " + found.deadline() + " on "
                    + String.join(", ", found.pendingOn()) + "; '" + confirmHint(found.change()) + "' keeps it.");
        }
    }

    private String confirmHint(String change) {
        return "waldoconf call " + programFile + " --confirm " + change;
    }

    /** This operator's certificate (or pinned services) in --operator-dir, if given. */
    @Override
    protected EngineOptions engineOptions() {
        return operatorDir == null ? super.engineOptions() : super.engineOptions().withOperatorState(operatorDir);
    }

    /** The ARGs as the values of the function's parameters after the services. */
    private List<Object> values(CustomProgram program, String kind, String function) throws CommandFailure {
        try {
            Symbol.FunctionSym callable = program.callable(kind, function);
            return CustomCall.arguments(callable, arguments);
        } catch (CustomProgramException | IllegalArgumentException e) {
            throw new CommandFailure(ExitCodes.USAGE, e.getMessage());
        }
    }

    private List<SwitchEntry> chosen(Inventory inventory) throws CommandFailure {
        if (switches == null) {
            return inventory.switches();
        }
        List<SwitchEntry> chosen = new ArrayList<>();
        for (String name : switches) {
            chosen.add(inventory.switchNamed(name).orElseThrow(() -> new CommandFailure(ExitCodes.USAGE,
                    "no switch named '" + name + "' in " + show(inventory.file()) + "; known: "
                            + String.join(", ", inventory.groups().get(Inventory.ALL)))));
        }
        return chosen;
    }

}
