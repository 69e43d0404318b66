package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HelpAndCompletionTest {
    @TempDir
    Path dir;

    @Test
    void helpListsCommandsAndExitCodes() {
        CliHarness.Result result = new CliHarness(dir).run("--help");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("plan", "apply", "confirm", "rollback", "status", "serve", "lab", "waldoc",
                "generate-completion", "Exit codes:", "3   a switch or its service is unreachable");
    }

    @Test
    void everyCommandHasHelp() {
        CliHarness cli = new CliHarness(dir);
        for (String command : new String[] {"plan", "apply", "confirm", "rollback", "status", "serve", "lab"}) {
            CliHarness.Result result = cli.run(command, "--help");
            assertThat(result.exitCode()).as(command).isZero();
            assertThat(result.out()).as(command).startsWith("Usage: waldoconf " + command);
        }
        assertThat(cli.run("lab", "up", "--help").out()).contains("--switches=N", "--containers", "Exit codes:");
    }

    @Test
    void everyExitCodeIsDocumentedAndNoneMeansAMissingEngine() {
        CliHarness cli = new CliHarness(dir);
        assertThat(cli.run("--help").out()).contains("0   done", "1   change refused", "2   bad usage",
                "3   a switch or its service is unreachable", "4   a pending trial", "5   not set up on this machine",
                "6   internal error");
        for (String command : new String[] {"plan", "apply", "confirm", "rollback", "status", "serve", "call", "lab",
            "init", "log"}) {
            assertThat(cli.run(command, "--help").out()).as(command).doesNotContain("change engine");
        }
        assertThat(cli.run("apply", "--help").out()).contains("this operator has no certificate (run 'waldoconf"
                + " init')");
    }

    @Test
    void aBadOptionExitsWith2() {
        CliHarness.Result result = new CliHarness(dir).run("apply", "--trial", "soon", "plan.yaml");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("--trial");
    }

    @Test
    void noCommandIsAUsageError() {
        CliHarness.Result result = new CliHarness(dir).run();
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).startsWith("say what to do: plan, apply");
    }

    @Test
    void completionScriptCoversTheSubcommands() {
        CliHarness.Result result = new CliHarness(dir).run("generate-completion");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("complete -F _complete_waldoconf").contains("rollback").contains("--trial");
    }

    @Test
    void waldocIsASubcommand() {
        CliHarness.Result result = new CliHarness(dir).run("waldoc", "--help");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).startsWith("Usage: waldoconf waldoc").contains("--jar");
    }
}
