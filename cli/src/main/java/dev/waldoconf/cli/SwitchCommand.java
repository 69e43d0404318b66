package dev.waldoconf.cli;

import dev.waldo.net.Security;
import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.engine.ChangeResult;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.ProgressListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What the commands that act on switches share: the inventory (given, or the local lab's),
 * output through the command's own writers, and WaldoConf opened with the command's options.
 * Failures are thrown and reported by {@link Failures}.
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

    /**
     * The command's work. Failures are thrown: {@link Failures} prints them and picks the exit code,
     * in one place for every command.
     */
    protected abstract int run() throws Exception;

    @Override
    public final Integer call() throws Exception {
        try {
            return run();
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
    protected ResolvedPlan resolve(Path planFile) throws ConfigException, CommandFailure, EngineException,
            IOException {
        Inventory inventory = inventory(true);
        // Planning reads the switches, not their services, so it works whatever TLS the lab's services run.
        try (WaldoConf waldoconf = context.waldoconf().apply(options());
                ProgressBoard reading = progress(inventory.switches().size())) {
            return waldoconf.plan(planFile, inventory, reading);
        }
    }

    /** What {@code confirm} and {@code rollback} ask of WaldoConf: one decision on a pending trial. */
    @FunctionalInterface
    interface TrialDecision {
        ChangeResult decide(WaldoConf waldoconf, Inventory inventory, Optional<String> changeId,
                ProgressListener progress) throws EngineException;
    }

    /**
     * Takes {@code decision} on the trial {@code changeId} (or the only pending one) across every
     * switch of it, with progress, and reports the result under {@code doneVerb}.
     */
    protected int decideTrial(String changeId, TrialDecision decision, String doneVerb) throws Exception {
        ChangeResult result;
        try (WaldoConf waldoconf = waldoconf()) {
            Inventory inventory = inventory(false);
            try (ProgressBoard progress = progress(inventory.switches().size())) {
                result = decision.decide(waldoconf, inventory, Optional.ofNullable(changeId), progress);
            }
        }
        return ChangeReports.print(result, doneVerb, out(), err());
    }

    /** Progress of this command on {@code switches} switches; see {@link ChangeReports#progress}. */
    protected ProgressBoard progress(int switches) {
        return ChangeReports.progress(out(), outputOptions, context.terminal(), switches);
    }

    /** Prints the plan's header and its per-switch steps. */
    protected void printPlan(ResolvedPlan plan) {
        out().println("Plan " + plan.plan().file() + " for inventory " + show(plan.inventory().file()) + ":");
        new PlanPrinter(outputOptions.ansi()).print(plan, out());
    }

    /**
     * WaldoConf with authentication as {@code --tofu} or {@code --insecure} say (the project CA by
     * default), or a failure saying that the local lab (when its inventory is used) runs its services
     * another way. With the local lab, the operator's TLS state (its certificate from the lab's CA) and
     * the CA live in the lab's directory. The caller closes it.
     */
    protected WaldoConf waldoconf() throws CommandFailure, IOException {
        checkLabAgreesOnTls();
        return context.waldoconf().apply(options());
    }

    /** {@link #engineOptions()}, with the local lab's operator state and CA when its inventory is used. */
    private EngineOptions options() {
        EngineOptions options = engineOptions();
        if (inventoryOptions.inventory == null) {
            LabDirectory lab = new LabDirectory(inventoryOptions.labDir);
            options = options.withOperatorState(lab.operatorState()).withProjectCa(lab.projectCa());
        }
        return options;
    }

    /** The options this command opens WaldoConf with; serve adds where its project CA is, call its operator dir. */
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

    /** Path for messages: relative paths stay as typed. */
    protected static String show(Path path) {
        return path.toString();
    }
}
