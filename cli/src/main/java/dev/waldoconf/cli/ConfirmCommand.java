package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code waldoconf confirm [ID]}: keeps a trial change on every switch of it. */
@Command(name = "confirm", mixinStandardHelpOptions = true,
        description = "Keeps a trial change on every switch of it, so it no longer reverts.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:confirmed", "1:the confirm failed", "2:bad usage or invalid inventory",
            "3:a switch's service is unreachable", "4:no such trial, or several and no ID given",
            "5:this operator has no certificate (run 'waldoconf init')"})
final class ConfirmCommand extends SwitchCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "ID",
            description = "The change to confirm (from apply or status); default: the only pending trial.")
    String changeId;

    ConfirmCommand(CliContext context) {
        super(context);
    }

    @Override
    protected int run() throws Exception {
        return decideTrial(changeId, WaldoConf::confirm, "Confirmed");
    }
}
