package dev.waldoconf.cli;

import dev.waldoconf.config.ConfigException;
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
            "5:the lab could not be started, or --containers (not available yet)"})
final class LabCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "say what to do with the lab: up, down or status");
    }

    /** {@code lab up}. */
    @Command(name = "up", mixinStandardHelpOptions = true,
            description = "Starts N simulated switches in the background and writes DIR/inventory.yaml for them.",
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done", "2:bad usage",
            "3:no lab running (status), or a switch does not answer",
            "5:the lab could not be started, or --containers (not available yet)"})
    static final class Up extends LabSubcommand {
        @CommandLine.Option(names = "--switches", paramLabel = "N", defaultValue = "4",
                description = "How many switches (default: ${DEFAULT-VALUE}).")
        int switches;

        @CommandLine.Option(names = "--containers",
                description = "Run each switch in a container instead of in one background process.")
        boolean containers;

        Up(CliContext context) {
            super(context);
        }

        @Override
        protected int run() throws CommandFailure, IOException {
            if (switches < 1 || switches > 256) {
                throw new CommandFailure(ExitCodes.USAGE, "--switches must be 1..256, got " + switches);
            }
            if (containers) {
                throw new CommandFailure(ExitCodes.UNAVAILABLE, "--containers is not available yet; run the lab"
                        + " without it (one background process; the container image is built by"
                        + " lab/container/build-image.sh for the lab tests)");
            }
            LabDirectory.Started lab = lab().ensureRunning(context.labs(), switches);
            if (!lab.started()) {
                out().println("A lab is already running in " + lab().dir() + " (pid " + lab.info().pid() + ", "
                        + lab.info().switches() + " switches); inventory: " + lab().inventory());
                return ExitCodes.OK;
            }
            out().println("Started a lab of " + switches + " switches in " + lab().dir() + ".");
            return printSwitches();
        }
    }

    /** {@code lab down}. */
    @Command(name = "down", mixinStandardHelpOptions = true, description = "Stops the lab's switches.",
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done", "2:bad usage",
            "3:no lab running (status), or a switch does not answer",
            "5:the lab could not be started, or --containers (not available yet)"})
    static final class Down extends LabSubcommand {
        /** How long the lab gets to shut down before it is killed. */
        static final long STOP_TIMEOUT_MS = 15_000;

        Down(CliContext context) {
            super(context);
        }

        @Override
        protected int run() throws IOException {
            var running = lab().running();
            if (running.isEmpty()) {
                lab().clear();
                out().println("No lab is running in " + lab().dir() + ".");
                return ExitCodes.OK;
            }
            ProcessHandle process = ProcessHandle.of(running.get().pid()).orElseThrow();
            process.destroy();
            try {
                process.onExit().get(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lab().clear();
            out().println("Stopped the lab in " + lab().dir() + " (" + running.get().switches() + " switches, pid "
                    + running.get().pid() + "). Switch state is kept in " + lab().switchState() + ".");
            return ExitCodes.OK;
        }
    }

    /** {@code lab status}. */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Shows whether the lab runs, and each switch's address and whether it answers.",
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done", "2:bad usage",
            "3:no lab running (status), or a switch does not answer",
            "5:the lab could not be started, or --containers (not available yet)"})
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
            out().println("Lab in " + lab().dir() + ": pid " + running.get().pid() + ", " + running.get().switches()
                    + " switches; " + running.get().message() + ".");
            return printSwitches();
        }
    }

    /** {@code lab run}: the lab process itself, started in the background by {@code lab up}. */
    @Command(name = "run", hidden = true, description = "Runs the lab in this process until it is stopped.")
    static final class Run extends LabSubcommand {
        @CommandLine.Option(names = "--switches", defaultValue = "4")
        int switches;

        Run(CliContext context) {
            super(context);
        }

        @Override
        protected int run() throws IOException {
            LabDirectory lab = lab();
            LabRunner runner;
            try {
                runner = LabRunner.start(lab, switches, context.engines().get());
            } catch (IOException | ConfigException | RuntimeException e) {
                lab.write(new LabDirectory.Info(ProcessHandle.current().pid(), switches, "failed", e.getMessage()));
                throw new IOException("lab did not start: " + e.getMessage(), e);
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                runner.close();
                stopped.countDown();
            }));
            out().println("lab running: " + switches + " switches, inventory " + lab.inventory() + "; "
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
}
