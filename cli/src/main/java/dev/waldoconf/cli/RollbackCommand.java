package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code waldoconf rollback [ID]}: reverts a pending trial on every switch of it, atomically. */
@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = "Reverts a pending trial on every switch of it, now and atomically.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:rolled back", "1:the rollback failed; no switch changed", "2:bad usage or invalid inventory",
            "3:a switch's service is unreachable", "4:no such change, or several and no ID given",
            "5:this operator has no certificate (run 'waldoconf init')"})
final class RollbackCommand extends SwitchCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "ID",
            description = "The trial to roll back (from apply or status); default: the only pending trial.")
    String changeId;

    RollbackCommand(CliContext context) {
        super(context);
    }

    @Override
    protected int run() throws Exception {
        return decideTrial(changeId, WaldoConf::rollback, "Rolled back");
    }
}
