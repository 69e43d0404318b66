package dev.waldoconf.cli;

import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.ConfigProblem;
import dev.waldoconf.custom.CustomProgramException;
import dev.waldoconf.engine.EngineException;
import java.io.IOException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.ParseResult;

/**
 * The one place where a command's failure becomes a message and an exit code ({@link ExitCodes}).
 * Commands throw; picocli hands the exception here, which prints what failed and what to do next
 * (never a stack trace, except for a bug) and maps it to its exit code.
 */
final class Failures implements IExitCodeExceptionMapper, IExecutionExceptionHandler {
    @Override
    public int getExitCode(Throwable exception) {
        return switch (exception) {
            // picocli asks here for bad command lines too, once a mapper is set.
            case CommandLine.ParameterException badUsage -> ExitCodes.USAGE;
            case CommandFailure failure -> failure.exitCode();
            case ConfigException invalid -> ExitCodes.USAGE;
            // A .wld with errors is bad input; its message lists them as file:line:col.
            case CustomProgramException invalid -> ExitCodes.USAGE;
            case EngineException failed -> switch (failed.kind()) {
                case UNREACHABLE -> ExitCodes.UNREACHABLE;
                case CONFLICT -> ExitCodes.CONFLICT;
                case REFUSED -> ExitCodes.CHANGE_FAILED;
                case UNAVAILABLE -> ExitCodes.UNAVAILABLE;
            };
            // The lab (or its containers) could not be started, or a file could not be written.
            case IOException io -> ExitCodes.UNAVAILABLE;
            default -> ExitCodes.INTERNAL;
        };
    }

    @Override
    public int handleExecutionException(Exception exception, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        switch (exception) {
            case ConfigException invalid -> printProblems(invalid, err);
            case EngineException failed -> err.println("error: " + failed.getMessage() + hint(failed, commandLine));
            case CommandFailure failure -> err.println("error: " + failure.getMessage());
            case CustomProgramException invalid -> err.println("error: " + invalid.getMessage());
            case IOException io -> err.println("error: " + io.getMessage());
            default -> err.println("internal error: " + exception + " (a bug in waldoconf; please report it with"
                    + " the command line you ran)");
        }
        commandLine.getOut().flush();
        err.flush();
        return getExitCode(exception);
    }

    private static void printProblems(ConfigException invalid, PrintWriter err) {
        for (ConfigProblem problem : invalid.problems()) {
            err.println(problem);
        }
        int count = invalid.problems().size();
        err.println(count + " problem" + (count == 1 ? "" : "s") + "; nothing was changed. Fix "
                + (count == 1 ? "it" : "them") + " and run the command again.");
    }

    /** For an unreachable service: whether the two ends seem to disagree about TLS, as the command's options say. */
    private static String hint(EngineException failed, CommandLine commandLine) {
        if (failed.kind() == EngineException.Kind.UNREACHABLE && commandLine.getCommand() instanceof SwitchCommand c) {
            return c.network.mismatchHint(failed.getMessage());
        }
        return "";
    }
}
