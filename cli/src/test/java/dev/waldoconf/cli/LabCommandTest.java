package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabCommandTest {
    @TempDir
    Path dir;

    @Test
    void upWritesAnInventoryThatStatusAndPlanUse() throws Exception {
        try (CliHarness cli = new CliHarness(dir)) {
            Path labDir = dir.resolve("lab");
            CliHarness.Result up = cli.run("lab", "up", "--switches", "2", "--dir", labDir.toString());
            assertThat(up.exitCode()).as(up.err()).isZero();
            assertThat(up.out()).startsWith("Started a lab of 2 switches in " + labDir)
                    .contains("  lab-1  snmp 127.0.0.1:").contains("answering");
            String inventory = Files.readString(labDir.resolve("inventory.yaml"));
            assertThat(inventory).contains("name: lab-2").contains("community: {file: community}")
                    .doesNotContain(LabRunner.LAB_COMMUNITY);
            assertThat(Files.readString(labDir.resolve("community")).trim()).isEqualTo(LabRunner.LAB_COMMUNITY);

            CliHarness.Result again = cli.run("lab", "up", "--dir", labDir.toString());
            assertThat(again.out()).startsWith("A lab is already running in " + labDir);
            CliHarness.Result status = cli.run("lab", "status", "--dir", labDir.toString());
            assertThat(status.exitCode()).isZero();
            assertThat(status.out()).contains("2 switches; no change engine in this build");
        }
    }

    @Test
    void concurrentStartsStartOneLab() throws Exception {
        try (CliHarness cli = new CliHarness(dir)) {
            Path labDir = dir.resolve("lab");
            List<CliHarness.Result> results = Collections.synchronizedList(new ArrayList<>());
            Thread[] threads = new Thread[3];
            for (int i = 0; i < threads.length; i++) {
                threads[i] = new Thread(() -> results.add(cli.run("lab", "up", "--switches", "1", "--dir",
                        labDir.toString())));
                threads[i].start();
            }
            for (Thread thread : threads) {
                thread.join(30_000);
            }
            assertThat(cli.labs).hasSize(1);
            assertThat(results).extracting(CliHarness.Result::exitCode).containsOnly(0);
        }
    }

    @Test
    void statusWithoutALabExitsWith3() {
        CliHarness.Result result = new CliHarness(dir).run("lab", "status", "--dir", dir.toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(result.err()).isEqualTo("error: no lab is running in " + dir + "; start one with 'waldoconf lab"
                + " up'\n");
    }

    @Test
    void containersAreNotAvailableYet() {
        CliHarness.Result result = new CliHarness(dir).run("lab", "up", "--containers", "--dir", dir.toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(result.err()).startsWith("error: --containers is not available yet");
    }

    @Test
    void downWithoutALabIsFine() {
        CliHarness.Result result = new CliHarness(dir).run("lab", "down", "--dir", dir.toString());
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).isEqualTo("No lab is running in " + dir + ".\n");
    }

    /**
     * The real thing: {@code lab up} starts a background process that outlives the command,
     * and {@code lab down} from another invocation stops it.
     */
    @Test
    void upAndDownAcrossInvocationsWithARealProcess() throws Exception {
        Path labDir = dir.resolve("proc-lab");
        var context = CliContext.system();
        var up = run(context, "lab", "up", "--switches", "1", "--dir", labDir.toString());
        assertThat(up.exitCode()).as(up.err() + readLog(labDir)).isZero();
        long pid = new LabDirectory(labDir).running().orElseThrow().pid();
        assertThat(pid).isNotEqualTo(ProcessHandle.current().pid());
        var status = run(context, "lab", "status", "--dir", labDir.toString());
        assertThat(status.out()).as(status.err()).contains("lab-1").contains("answering, VLANs [1]");
        var plan = run(context, "plan", Path.of("..", "configs", "vlan.yaml").toString(), "--lab-dir",
                labDir.toString());
        assertThat(plan.exitCode()).as(plan.err()).isZero();
        assertThat(plan.out()).as("read over SNMP from the lab process").contains("+ create VLAN 10 'users'")
                .contains("- remove ports 1-8 from VLAN 1").endsWith("on 1 of 1 switch.\n");
        var down = run(context, "lab", "down", "--dir", labDir.toString());
        assertThat(down.exitCode()).isZero();
        assertThat(down.out()).startsWith("Stopped the lab in " + labDir + " (1 switches, pid " + pid + ")");
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    private static String readLog(Path labDir) {
        try {
            return Files.readString(labDir.resolve("lab.log"));
        } catch (java.io.IOException e) {
            return "(no lab log)";
        }
    }

    private static CliHarness.Result run(CliContext context, String... args) {
        var commandLine = WaldoconfCommand.newCommandLine(context);
        var out = new java.io.StringWriter();
        var err = new java.io.StringWriter();
        commandLine.setOut(new java.io.PrintWriter(out, true));
        commandLine.setErr(new java.io.PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new CliHarness.Result(exitCode, out.toString(), err.toString());
    }
}
