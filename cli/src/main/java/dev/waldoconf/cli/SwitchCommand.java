package dev.waldoconf.cli;

import dev.waldo.net.Security;
import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.ConfigProblem;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.Plan;
import dev.waldoconf.config.PlanLoader;
import dev.waldoconf.config.PlanResolver;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.engine.ChangeEngine;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.model.SwitchState;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What the commands that act on switches share: the inventory (given, or the local lab's),
 * output through the command's own writers, and one place that turns failures into messages
 * and exit codes.
 */
abstract class SwitchCommand implements Callable<Integer> {
    protected final CliContext context;

    @Spec
    protected CommandSpec spec;

    @Mixin
    protected InventoryOptions inventoryOptions;

    @Mixin
    protected OutputOptions outputOptions;

    @Mixin
    protected NetworkOptions network;

    SwitchCommand(CliContext context) {
        this.context = context;
    }

    /** The command's work; failures are thrown and reported by {@link #call()}. */
    protected abstract int run() throws CommandFailure, ConfigException, IOException;

    @Override
    public final Integer call() {
        try {
            return run();
        } catch (CommandFailure failure) {
            err().println("error: " + failure.getMessage());
            return failure.exitCode();
        } catch (ConfigException invalid) {
            for (ConfigProblem problem : invalid.problems()) {
                err().println(problem);
            }
            int count = invalid.problems().size();
            err().println(count + " problem" + (count == 1 ? "" : "s") + "; nothing was changed. Fix "
                    + (count == 1 ? "it" : "them") + " and run the command again.");
            return ExitCodes.USAGE;
        } catch (IOException e) {
            err().println("error: " + e.getMessage());
            return ExitCodes.UNAVAILABLE;
        } finally {
            out().flush();
            err().flush();
        }
    }

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * The inventory given with {@code --inventory}, or else the local lab's. With
     * {@code startLab}, a lab is started when none is running.
     */
    protected Inventory inventory(boolean startLab) throws ConfigException, CommandFailure, IOException {
        if (inventoryOptions.inventory != null) {
            return InventoryLoader.load(inventoryOptions.inventory);
        }
        LabDirectory lab = new LabDirectory(inventoryOptions.labDir);
        if (lab.running().isEmpty()) {
            if (!startLab) {
                throw new CommandFailure(ExitCodes.USAGE, "no --inventory given and no lab running in "
                        + lab.dir() + "; pass --inventory INV, or start a lab with 'waldoconf lab up'");
            }
            err().println("No --inventory given and no lab running: starting a lab of " + inventoryOptions.labSwitches
                    + " simulated switches in " + lab.dir() + " (stop it with 'waldoconf lab down').");
            err().flush();
            lab.ensureRunning(context.labs(), new LabSpec(inventoryOptions.labSwitches, false, network.security()));
        }
        return InventoryLoader.load(lab.inventory());
    }

    /**
     * Reads the inventory and the plan, every switch's current state, and resolves the plan.
     */
    protected ResolvedPlan resolve(Path planFile) throws ConfigException, CommandFailure, IOException {
        Inventory inventory = inventory(true);
        Plan plan = PlanLoader.load(planFile, inventory);
        Map<String, SwitchState> current = CurrentState.read(inventory, context.devices());
        return PlanResolver.resolve(plan, inventory, current);
    }

    /** Prints the plan's header and its per-switch steps. */
    protected void printPlan(ResolvedPlan plan) {
        out().println("Plan " + plan.plan().file() + " for inventory " + show(plan.inventory().file()) + ":");
        new PlanPrinter(outputOptions.ansi()).print(plan, out());
    }

    /**
     * The change engine with authentication as {@code --tofu} or {@code --insecure} say (the project
     * CA by default), or a failure saying it is not in this build, or that the local lab (when its
     * inventory is used) runs its services another way. With the local lab, the operator's TLS state
     * (its certificate from the lab's CA) and the CA live in the lab's directory.
     */
    protected ChangeEngine engine() throws CommandFailure, IOException {
        checkLabAgreesOnTls();
        EngineOptions options = engineOptions();
        if (inventoryOptions.inventory == null) {
            LabDirectory lab = new LabDirectory(inventoryOptions.labDir);
            options = options.withOperatorState(lab.operatorState()).withProjectCa(lab.projectCa());
        }
        return context.engines().apply(options).orElseThrow(() -> new CommandFailure(
                ExitCodes.UNAVAILABLE, "this waldoconf has no change engine (dev.waldoconf.service) built in yet,"
                        + " so it cannot '" + spec.name() + "'; 'waldoconf plan' works without it"));
    }

    /** The engine options this command asks for; serve adds where its project CA is. */
    protected EngineOptions engineOptions() {
        return network.engineOptions();
    }

    /**
     * Both ends must agree on how they authenticate: when the local lab's inventory is used, say so
     * before connecting rather than after a failed handshake.
     */
    protected void checkLabAgreesOnTls() throws CommandFailure, IOException {
        if (inventoryOptions.inventory != null) {
            return;
        }
        LabDirectory lab = new LabDirectory(inventoryOptions.labDir);
        var running = lab.running();
        if (running.isEmpty() || running.get().spec().security() == network.security()) {
            return;
        }
        Security labs = running.get().spec().security();
        String ours = NetworkOptions.option(network.security());
        String change = labs == Security.MUTUAL ? "drop " + ours : "pass " + NetworkOptions.option(labs)
                + (ours.isEmpty() ? " too" : " instead of " + ours);
        throw new CommandFailure(ExitCodes.USAGE, "the lab in " + lab.dir() + " runs its services " + describe(labs)
                + "; " + change + ", or restart the lab ('waldoconf lab down', then 'waldoconf lab up"
                + (ours.isEmpty() ? "" : " " + ours) + "')");
    }

    private static String describe(Security security) {
        return switch (security) {
            case INSECURE -> "with TLS off (lab up --insecure)";
            case SELF_SIGNED -> "trusting on first use (lab up --tofu)";
            case MUTUAL -> "with certificates from its project CA";
        };
    }

    /** Turns an engine failure into a command failure with the matching exit code. */
    protected CommandFailure failure(EngineException e) {
        int code = switch (e.kind()) {
            case UNREACHABLE -> ExitCodes.UNREACHABLE;
            case CONFLICT -> ExitCodes.CONFLICT;
            case REFUSED -> ExitCodes.CHANGE_FAILED;
            case UNAVAILABLE -> ExitCodes.UNAVAILABLE;
        };
        return new CommandFailure(code, e.getMessage() + (e.kind() == EngineException.Kind.UNREACHABLE
                ? network.mismatchHint(e.getMessage()) : ""));
    }

    /** Path for messages: relative paths stay as typed. */
    protected static String show(Path path) {
        return path.toString();
    }
}
