package dev.waldoconf.cli;

import dev.waldoconf.config.ConfigException;
import dev.waldoconf.lab.DeviceProfile;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code waldoconf lab up|down|status}: a local lab of simulated SNMP switches. */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = {"Runs a local lab of simulated SNMP switches on loopback, in the background.",
            "It writes an inventory for them that plan and apply use when no --inventory is given."},
        subcommands = {LabCommand.Up.class, LabCommand.Down.class, LabCommand.Status.class, LabCommand.Run.class},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done", "2:bad usage",
            "3:no lab running (status), or a switch does not answer",
            "5:the lab could not be started, or --containers and no Docker engine answers"})
final class LabCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "say what to do with the lab: up, down or status");
    }

    /** {@code lab up}. */
    @Command(name = "up", mixinStandardHelpOptions = true,
            description = {"Starts N simulated switches in the background and writes DIR/inventory.yaml for them.",
                "One WaldoConf service per switch runs beside them.",
                "Unless --tofu or --insecure, the lab has its own project CA (DIR/ca), which issues each service its"
                        + " certificate and you an operator certificate with the change role (DIR/operator)."},
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done", "2:bad usage",
            "3:no lab running (status), or a switch does not answer",
            "5:the lab could not be started, or --containers and no Docker engine answers"})
    static final class Up extends LabSubcommand {
        @CommandLine.Option(names = "--switches", paramLabel = "N", defaultValue = "4",
                description = "How many switches, 1.." + LabSpec.MAX_SWITCHES + " (default: ${DEFAULT-VALUE}).")
        int switches;

        @CommandLine.Option(names = "--containers",
                description = {"Run each switch in its own container (host networking, loopback ports) instead of"
                        + " all in one background process. Needs a Docker engine; the image is built here from"
                        + " local files the first time (nothing is pulled). Set " + Docker.COMMAND_VARIABLE
                        + " to use another docker command."})
        boolean containers;

        @CommandLine.Mixin
        NetworkOptions network;

        @CommandLine.Mixin
        ProfileOptions profile;

        Up(CliContext context) {
            super(context);
        }

        @Override
        protected int run() throws CommandFailure, IOException {
            if (switches < 1 || switches > LabSpec.MAX_SWITCHES) {
                throw new CommandFailure(ExitCodes.USAGE, "--switches must be 1.." + LabSpec.MAX_SWITCHES + ", got "
                        + switches);
            }
            LabSpec spec = new LabSpec(switches, containers, network.security(), profile.profile());
            var running = lab().running();
            if (running.isEmpty() && containers) {
                // Checked here, not only in the lab process, so the user sees what is missing (and the image
                // build's progress) right away instead of in the lab's log.
                Docker docker = docker();
                docker.requireEngine();
                new SwitchContainers(docker, lab()).ensureImage(out());
            }
            LabDirectory.Started lab = lab().ensureRunning(context.labs(), spec);
            if (!lab.started()) {
                out().println("A lab is already running in " + lab().dir() + " (pid " + lab.info().pid() + ", "
                        + lab.info().spec().describe() + "); inventory: " + lab().inventory());
                if (!lab.info().spec().equals(spec)) {
                    out().println("It is not the lab asked for (" + spec.describe() + "); run 'waldoconf lab down"
                            + " --dir " + lab().dir() + "' first to start that one.");
                }
                return ExitCodes.OK;
            }
            out().println("Started a lab of " + spec.describe() + " in " + lab().dir() + ".");
            return printSwitches(lab.info());
        }
    }

    /** {@code lab down}. */
    @Command(name = "down", mixinStandardHelpOptions = true,
            description = "Stops the lab's switches and services; a container lab's containers are removed.",
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done", "2:bad usage",
            "5:a container lab's containers could not be removed (Docker does not answer)"})
    static final class Down extends LabSubcommand {
        /** How long the lab gets to shut down before it is killed. */
        static final long STOP_TIMEOUT_MS = 15_000;

        Down(CliContext context) {
            super(context);
        }

        @Override
        protected int run() throws CommandFailure, IOException {
            var record = lab().read();
            var running = record.filter(LabDirectory.Info::isAlive);
            running.ifPresent(info -> stop(ProcessHandle.of(info.pid()).orElseThrow()));
            int leftovers = record.filter(info -> info.spec().containers()).isPresent() ? removeContainers() : 0;
            lab().clear();
            if (running.isEmpty()) {
                out().println("No lab is running in " + lab().dir() + "."
                        + (leftovers > 0 ? " Removed " + leftovers + " container(s) left over from it." : ""));
                return ExitCodes.OK;
            }
            out().println("Stopped the lab in " + lab().dir() + " (" + running.get().spec().describe() + ", pid "
                    + running.get().pid() + "). Switch state is kept in " + lab().switchState() + ".");
            return ExitCodes.OK;
        }

        /**
         * The lab process removes its containers as it stops; this removes the ones a killed or
         * crashed lab left. If Docker does not answer, the record stays so that a later down tries again.
         */
        private int removeContainers() throws CommandFailure {
            try {
                return new SwitchContainers(docker(), lab()).remove();
            } catch (IOException e) {
                throw new CommandFailure(ExitCodes.UNAVAILABLE, "the lab's switch containers could not be removed: "
                        + e.getMessage() + "; make sure Docker answers ('docker info') and run 'waldoconf lab down"
                        + " --dir " + lab().dir() + "' again");
            }
        }

        private static void stop(ProcessHandle process) {
            process.destroy();
            try {
                process.onExit().get(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@code lab status}. */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Shows whether the lab runs, and each switch's address (and container) and whether it"
                    + " answers.",
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done", "2:bad usage",
            "3:no lab running, or a switch does not answer"})
    static final class Status extends LabSubcommand {
        Status(CliContext context) {
            super(context);
        }

        @Override
        protected int run() throws CommandFailure, IOException {
            var running = lab().running();
            if (running.isEmpty()) {
                throw new CommandFailure(ExitCodes.UNREACHABLE, "no lab is running in " + lab().dir()
                        + "; start one with 'waldoconf lab up'");
            }
            out().println("Lab in " + lab().dir() + ": pid " + running.get().pid() + ", "
                    + running.get().spec().describe() + "; " + running.get().message() + ".");
            return printSwitches(running.get());
        }
    }

    /** {@code lab run}: the lab process itself, started in the background by {@code lab up}. */
    @Command(name = "run", hidden = true, description = "Runs the lab in this process until it is stopped.")
    static final class Run extends LabSubcommand {
        @CommandLine.Option(names = "--switches", defaultValue = "4")
        int switches;

        @CommandLine.Option(names = "--containers")
        boolean containers;

        @CommandLine.Mixin
        NetworkOptions network;

        @CommandLine.Mixin
        ProfileOptions profile;

        Run(CliContext context) {
            super(context);
        }

        @Override
        protected int run() throws CommandFailure, IOException {
            LabDirectory lab = lab();
            LabSpec spec = new LabSpec(switches, containers, network.security(), profile.profile());
            LabRunner runner;
            try {
                runner = LabRunner.start(lab, spec, context.waldoconf().apply(network.engineOptions()
                        .withOperatorState(lab.operatorState()).withProjectCa(lab.projectCa())), docker());
            } catch (IOException | ConfigException | RuntimeException e) {
                lab.write(new LabDirectory.Info(ProcessHandle.current().pid(), spec, "failed", e.getMessage()));
                throw new IOException("lab did not start: " + e.getMessage(), e);
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                runner.close();
                stopped.countDown();
            }));
            out().println("lab running: " + spec.describe() + ", inventory " + lab.inventory() + "; "
                    + runner.servicesNote());
            out().flush();
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ExitCodes.OK;
        }
    }

    /** {@code --profile NAME --profile-seed N}: how fast and how reliably the lab's switches answer. */
    static final class ProfileOptions {
        /** The names {@code --profile} accepts, for help and completion. */
        static final class Names implements Iterable<String> {
            @Override
            public java.util.Iterator<String> iterator() {
                return DeviceProfile.NAMED.stream().map(DeviceProfile::name).iterator();
            }
        }

        @CommandLine.Option(names = "--profile", paramLabel = "NAME", defaultValue = "fast",
                completionCandidates = Names.class,
                description = {"How the switches answer SNMP: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
                    "slow-cpu: 20-30 ms per PDU; rate-limited: 50 PDUs/s, the rest dropped; flaky: 10-50 ms and"
                            + " 2 PDUs in 100 lost. Figures and what they model: lab/README.md."})
        String name;

        @CommandLine.Option(names = "--profile-seed", paramLabel = "N", defaultValue = "1",
                description = "Seed of the profile's jitter and losses: the same seed loses the same PDUs"
                        + " (default: ${DEFAULT-VALUE}).")
        long seed;

        /** The profile asked for; an unknown name is a usage error. */
        DeviceProfile profile() throws CommandFailure {
            try {
                return DeviceProfile.named(name).withSeed(seed);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.USAGE, "--profile: " + e.getMessage());
            }
        }
    }
}
