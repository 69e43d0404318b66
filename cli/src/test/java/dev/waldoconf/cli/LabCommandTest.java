package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
            for (Path secret : List.of(labDir.resolve("community"), labDir.resolve("ca").resolve("ca.key"),
                    labDir.resolve("operator").resolve("host.key"))) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).as(secret.toString())
                        .isEqualTo("rw-------");
            }
            try (var files = Files.list(labDir)) {
                assertThat(files.map(Path::getFileName).map(Path::toString)).noneMatch(name -> name.endsWith(".tmp"));
            }

            CliHarness.Result again = cli.run("lab", "up", "--dir", labDir.toString());
            assertThat(again.out()).startsWith("A lab is already running in " + labDir);
            CliHarness.Result status = cli.run("lab", "status", "--dir", labDir.toString());
            assertThat(status.exitCode()).isZero();
            assertThat(status.out()).contains("2 switches; services running");
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
    void upWithAProfileRunsSwitchesThatAnswerAsItSays() throws Exception {
        try (CliHarness cli = new CliHarness(dir)) {
            Path labDir = dir.resolve("lab");
            CliHarness.Result up = cli.run("lab", "up", "--switches", "2", "--profile", "slow-cpu", "--profile-seed",
                    "9", "--dir", labDir.toString());
            assertThat(up.exitCode()).as(up.err()).isZero();
            assertThat(up.out()).startsWith("Started a lab of 2 switches, device profile slow-cpu (seed 9) in ");
            assertThat(Files.readString(labDir.resolve("lab.properties"))).contains("profile=slow-cpu")
                    .contains("profileSeed=9");
            String control = Files.readString(labDir.resolve("control-addresses"));
            assertThat(control).matches("lab-1 127\\.0\\.0\\.1:\\d+\nlab-2 127\\.0\\.0\\.1:\\d+\n");
            String[] lab2 = control.lines().toList().get(1).split("[ :]");
            try (var client = dev.waldoconf.lab.control.ControlClient.connect(new java.net.InetSocketAddress(lab2[1],
                    Integer.parseInt(lab2[2])))) {
                assertThat(client.command("state")).as("lab-2's control interface").endsWith("sysName=lab-2");
            }
            var snmp = dev.waldoconf.config.InventoryLoader.load(labDir.resolve("inventory.yaml")).switches().get(0)
                    .snmp();
            try (var client = dev.waldoconf.lab.LabClient.v2c(new java.net.InetSocketAddress(snmp.host(),
                    snmp.port()), "public", 5000)) {
                long start = System.nanoTime();
                client.get(dev.waldoconf.lab.snmp.Oids.scalar(dev.waldoconf.lab.snmp.Oids.SYS_NAME));
                // A lower bound only: slow-cpu processes every PDU for at least 20 ms.
                assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(
                        dev.waldoconf.lab.DeviceProfile.SLOW_CPU.delayMs());
            }
            CliHarness.Result other = cli.run("lab", "up", "--switches", "2", "--dir", labDir.toString());
            assertThat(other.out()).as("a fast lab is not the slow one running").contains("It is not the lab asked for");
        }
    }

    @Test
    void anUnknownProfileIsAUsageErrorThatListsTheProfiles() {
        CliHarness.Result result = new CliHarness(dir).run("lab", "up", "--profile", "turbo", "--dir",
                dir.resolve("lab").toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("unknown device profile 'turbo'; choose fast | slow-cpu | rate-limited"
                + " | flaky");
    }

    @Test
    void statusWithoutALabExitsWith3() {
        CliHarness.Result result = new CliHarness(dir).run("lab", "status", "--dir", dir.toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(result.err()).isEqualTo("error: no lab is running in " + dir + "; start one with 'waldoconf lab"
                + " up'\n");
    }

    @Test
    void containersWithoutADockerCommandSayWhatToInstallAndExitWith5() {
        CliHarness cli = new CliHarness(dir);
        cli.environment.put(Docker.COMMAND_VARIABLE, dir.resolve("no-such-docker").toString());
        CliHarness.Result result = cli.run("lab", "up", "--containers", "--dir", dir.resolve("lab").toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(result.err()).startsWith("error: --containers needs Docker, but '" + dir.resolve("no-such-docker")
                + "' cannot be run").contains("Install Docker").contains("without --containers");
        assertThat(cli.labs).as("no lab is started without Docker").isEmpty();
    }

    @Test
    void containersWhenNoEngineAnswersSayHowToStartOne() throws Exception {
        // A docker command that fails the way the real one does when the daemon is down.
        Path docker = Files.writeString(dir.resolve("docker"), "#!/bin/sh\necho 'Cannot connect to the Docker daemon"
                + " at unix:///var/run/docker.sock. Is the docker daemon running?' >&2\nexit 1\n");
        docker.toFile().setExecutable(true);
        CliHarness cli = new CliHarness(dir);
        cli.environment.put(Docker.COMMAND_VARIABLE, docker.toString());
        CliHarness.Result result = cli.run("lab", "up", "--containers", "--switches", "2", "--dir",
                dir.resolve("lab").toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(result.err()).startsWith("error: --containers needs a Docker engine, but none answers (")
                .contains("Is the docker daemon running?").contains("Start one").contains("without --containers");
        assertThat(cli.labs).isEmpty();
    }

    @Test
    void switchCountIsCheckedBeforeDocker() {
        CliHarness cli = new CliHarness(dir);
        cli.environment.put(Docker.COMMAND_VARIABLE, dir.resolve("no-such-docker").toString());
        CliHarness.Result result = cli.run("lab", "up", "--containers", "--switches", "0", "--dir", dir.toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).isEqualTo("error: --switches must be 1..1000, got 0\n");
    }

    @Test
    void upWithContainersWhileAProcessLabRunsSaysItIsAnotherLab() throws Exception {
        try (CliHarness cli = new CliHarness(dir)) {
            Path labDir = dir.resolve("lab");
            assertThat(cli.run("lab", "up", "--switches", "1", "--dir", labDir.toString()).exitCode()).isZero();
            cli.environment.put(Docker.COMMAND_VARIABLE, dir.resolve("no-such-docker").toString());
            CliHarness.Result again = cli.run("lab", "up", "--containers", "--dir", labDir.toString());
            assertThat(again.exitCode()).as(again.err()).isZero();
            assertThat(again.out()).contains("(pid " + ProcessHandle.current().pid() + ", 1 switch)")
                    .contains("It is not the lab asked for (4 switches in containers); run 'waldoconf lab down");
        }
    }

    @Test
    void downKeepsTheRecordOfAContainerLabWhenDockerDoesNotAnswer() throws Exception {
        LabDirectory lab = new LabDirectory(dir.resolve("lab"));
        // A container lab whose process is gone (pid -1 never runs), its containers perhaps still there.
        lab.write(new LabDirectory.Info(-1, new LabSpec(2, true, dev.waldo.net.Security.MUTUAL), "ready", "services running"));
        CliHarness cli = new CliHarness(dir);
        cli.environment.put(Docker.COMMAND_VARIABLE, dir.resolve("no-such-docker").toString());
        CliHarness.Result result = cli.run("lab", "down", "--dir", lab.dir().toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(result.err()).startsWith("error: the lab's switch containers could not be removed: ")
                .contains("run 'waldoconf lab down --dir " + lab.dir() + "' again");
        assertThat(lab.read()).as("kept, so a later down tries again").isPresent();
    }

    @Test
    void eachSwitchContainerRunsOnHostNetworkingAsTheStateOwnerWithFreePorts() throws Exception {
        LabDirectory lab = new LabDirectory(dir.resolve("lab"));
        Files.createDirectories(lab.switchState());
        SwitchContainers containers = new SwitchContainers(Docker.from(java.util.Map.of()), lab);
        String state = lab.switchState().toAbsolutePath().toString();
        Object uid = Files.getAttribute(lab.switchState(), "unix:uid");
        assertThat(containers.runArguments("img:tag", "lab-2", dev.waldoconf.lab.DeviceProfile.SLOW_CPU))
                .containsExactly("run", "-d",
                "--name", containers.containerName("lab-2"),
                "--label", "dev.waldoconf.lab.dir=" + lab.dir().toAbsolutePath().normalize(),
                "--label", "dev.waldoconf.lab.switch=lab-2",
                "--network", "host", "--user", uid + ":" + Files.getAttribute(lab.switchState(), "unix:gid"),
                "-v", state + ":" + state,
                "img:tag", "--name", "lab-2", "--host", "127.0.0.1", "--port", "0", "--control-port", "0",
                "--ports", "24", "--state-file", state + "/lab-2.state", "--profile", "slow-cpu",
                "--profile-seed", "1");
        assertThat(containers.containerName("lab-2")).matches("waldoconf-[0-9a-f]{8}-lab-2")
                .isNotEqualTo(new SwitchContainers(Docker.from(java.util.Map.of()),
                        new LabDirectory(dir.resolve("other"))).containerName("lab-2"));
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
        // From /proc: ProcessHandle.Info gave no arguments for the lab process in the test run.
        assertThat(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).split("\0"))
                .as("a short-lived load generator: C1 alone and the parallel collector")
                .contains("-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC");
        var status = run(context, "lab", "status", "--dir", labDir.toString());
        assertThat(status.out()).as(status.err()).contains("lab-1").contains("answering, VLANs [1]");
        var plan = run(context, "plan", Path.of("..", "configs", "vlan.yaml").toString(), "--lab-dir",
                labDir.toString());
        assertThat(plan.exitCode()).as(plan.err()).isZero();
        assertThat(plan.out()).as("read over SNMP from the lab process").contains("+ create VLAN 10 'users'")
                .contains("- remove ports 1-8 from VLAN 1").endsWith("on 1 of 1 switch.\n");
        var down = run(context, "lab", "down", "--dir", labDir.toString());
        assertThat(down.exitCode()).isZero();
        assertThat(down.out()).startsWith("Stopped the lab in " + labDir + " (1 switch, pid " + pid + ")");
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
        return CliHarness.run(context, args);
    }
}
