package dev.waldoconf.cli;

import dev.waldoconf.cli.ChaosLab.Role;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.JavaProcess;
import dev.waldoconf.model.SwitchState;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Randomized rounds of changes against a {@link ChaosLab}, each hit by one fault, counting the
 * states that break the product's promise: some switches with a round's change and others without
 * (a <em>mixed</em> state), or a command that said it succeeded while the switches say otherwise.
 *
 * <p>Each round applies a plan that creates the round's VLAN (and deletes the previous round's) in
 * one of three ways: a plain apply, a trial that is confirmed, or a trial left to expire. At a
 * random moment of the apply, the confirm or the expiry, it kills ({@code kill -9}) the operator
 * command, one service or one switch agent, or freezes it ({@code SIGSTOP}, then {@code SIGCONT}
 * after up to 5 s: its traffic stops, its connections stay). Half of the rounds also slow one
 * switch's SETs, so that kills land inside a prepare more often. After the fault it restarts what
 * was killed and waits (bounded) until the switches agree and stay so; what they hold then is the
 * round's outcome. Trial deadlines cannot mask a partial commit: a confirmed or plain change's trial
 * outlives the wait, and an expiring round is read only after its deadline, where the answer must be
 * all-old.
 *
 * <p>The seed fixes every choice (mode, fault, victim, moment, slowed switch); the timing of real
 * processes does not repeat exactly, so a seed reproduces the scenario, not the interleaving.
 */
final class ChaosRun {
    /** How the round's change is made. */
    enum Mode { PLAIN, TRIAL_CONFIRMED, TRIAL_EXPIRED }

    /** Which part of the round the fault hits. */
    enum Phase { APPLY, CONFIRM, EXPIRY }

    /** What the fault does to its victim. */
    enum Fault { KILL, FREEZE }

    /** How a round ended, read from the switches. */
    enum Outcome { OLD, NEW, MIXED }

    /**
     * What a run is asked to do.
     *
     * @param seed drives every random choice
     * @param rounds how many rounds at most
     * @param budget no new round starts after this much time
     * @param switches how many switches (with a service each)
     */
    record Settings(long seed, int rounds, Duration budget, int switches) {
        /** A run from the system properties {@code chaos.seed}, {@code chaos.rounds}, {@code chaos.minutes}, {@code chaos.switches}. */
        static Settings fromProperties(long defaultSeed, int defaultRounds, int defaultMinutes) {
            long seed = Long.getLong("chaos.seed", defaultSeed);
            return new Settings(seed, Integer.getInteger("chaos.rounds", defaultRounds),
                    Duration.ofMinutes(Integer.getInteger("chaos.minutes", defaultMinutes)),
                    Integer.getInteger("chaos.switches", 3));
        }
    }

    /** Trial of a confirmed round: long past the round's own bounded waits, so no deadline acts before the read. */
    private static final Duration CONFIRMED_TRIAL = Duration.ofSeconds(300);
    /** Trial of an expiring round: short, so the round is quick. */
    private static final Duration SHORT_TRIAL = Duration.ofSeconds(8);
    /** How long one operator command may take (a frozen service can hold it until its heartbeats time out). */
    private static final Duration COMMAND_PATIENCE = Duration.ofSeconds(120);
    /**
     * How long the switches get to agree after the fault is over; a transaction in doubt holds its
     * switches unchanged meanwhile (all prepared or all not), so a still-mixed state after this long
     * is a broken promise, not a slow resolution.
     */
    private static final Duration SETTLE_PATIENCE = Duration.ofSeconds(60);
    private static final int FIRST_VLAN = 100;
    /** The exit status {@link #exitOf} gives a command it had to kill. */
    private static final int HUNG = -1;
    private static final Pattern CHANGE_ID = Pattern.compile("Applied change (\\S+) as a trial");
    private static final Pattern PENDING = Pattern.compile("Trial (\\S+) reverts at");

    private final Settings settings;
    private final ChaosLab lab;
    private final PrintStream out;
    private final Random random;
    private final ChaosFigures figures = new ChaosFigures();

    ChaosRun(Settings settings, ChaosLab lab, PrintStream out) {
        this.settings = settings;
        this.lab = lab;
        this.out = out;
        this.random = new Random(settings.seed());
    }

    /** Runs the rounds (bounded in count and time) and returns the figures. */
    ChaosFigures run() throws Exception {
        out.println("chaos: seed " + settings.seed() + ", up to " + settings.rounds() + " rounds in "
                + settings.budget().toMinutes() + " min, " + lab.size() + " switches; reproduce with -Dchaos.seed="
                + settings.seed());
        long startedAt = System.nanoTime();
        long stopAt = startedAt + settings.budget().toNanos();
        for (int round = 0; round < settings.rounds() && System.nanoTime() < stopAt; round++) {
            runRound(round);
        }
        figures.elapsed = Duration.ofNanos(System.nanoTime() - startedAt);
        out.println(figures.summary(settings.seed()));
        return figures;
    }

    /** The round's random choices, drawn in a fixed order so that a seed repeats them. */
    private record Scenario(int round, Mode mode, Phase phase, Role role, int victim, Fault fault,
                            boolean fromPrepare, int moment, int freezeMs, int slowSwitch) {
        String describe() {
            return "round " + round + ": " + mode + ", " + fault + " " + role
                    + (role == Role.OPERATOR ? "" : " " + (victim + 1)) + " at " + phase
                    + (fromPrepare ? " (prepare)" : "") + "+" + moment + " ms"
                    + (fault == Fault.FREEZE ? " for " + freezeMs + " ms" : "")
                    + (slowSwitch < 0 ? "" : ", switch " + (slowSwitch + 1) + " slowed");
        }
    }

    private Scenario draw(int round) {
        Mode mode = Mode.values()[random.nextInt(Mode.values().length)];
        Phase phase = switch (mode) {
            case PLAIN -> Phase.APPLY;
            case TRIAL_CONFIRMED -> random.nextBoolean() ? Phase.APPLY : Phase.CONFIRM;
            case TRIAL_EXPIRED -> random.nextBoolean() ? Phase.APPLY : Phase.EXPIRY;
        };
        Role drawn = Role.values()[random.nextInt(Role.values().length)];
        // No operator command runs at a trial's deadline: the services decide it alone, so one of them is hit.
        Role role = phase == Phase.EXPIRY && drawn == Role.OPERATOR ? Role.SERVICE : drawn;
        int victim = random.nextInt(lab.size());
        Fault fault = random.nextInt(4) == 0 ? Fault.FREEZE : Fault.KILL;
        // Half the faults are timed from the first "preparing" the apply prints, so they land inside
        // the transaction more often than a moment counted from the command's start (a JVM start) would.
        boolean fromPrepare = phase == Phase.APPLY && random.nextBoolean();
        int moment = random.nextInt(fromPrepare ? 1500 : 4000);
        int freezeMs = 500 + random.nextInt(4500);
        int slowSwitch = random.nextBoolean() ? random.nextInt(lab.size()) : -1;
        return new Scenario(round, mode, phase, role, victim, fault, fromPrepare, moment, freezeMs, slowSwitch);
    }

    private void runRound(int round) throws Exception {
        Scenario scenario = draw(round);
        int vlan = FIRST_VLAN + round % 3000;
        Path plan = writePlan(round, vlan);
        if (scenario.slowSwitch() >= 0) {
            lab.control(scenario.slowSwitch(), "delay 250");
        }
        Injection injection = new Injection(scenario);
        Claims claims = changeUnderFault(scenario, plan, injection);
        Optional<Outcome> promised = claims.promised();
        injection.recover();
        clearSlowSwitch(scenario);
        Settled settled = settle(vlan, promised);
        figures.record(scenario, injection, settled.outcome(), promised);
        if (claims.saidNothingChanged() && settled.outcome() != Outcome.OLD) {
            figures.misleading.add("round " + round);
        }
        String verdict = settled.outcome() == Outcome.MIXED ? "MIXED: " + withAndWithout(settled.states(), vlan)
                : promised.isPresent() && promised.get() != settled.outcome()
                        ? "WRONG: the commands promised " + promised.get() + ", the switches hold " + settled.outcome()
                        : settled.outcome().toString();
        out.println("chaos: " + scenario.describe() + (injection.landed ? "" : " (victim had already finished)")
                + " -> " + verdict);
        cleanUp(vlan);
    }

    /** Which switches hold the round's VLAN and which do not, e.g. {@code cx-1 without VLAN 160, cx-2 with it}. */
    private String withAndWithout(List<SwitchState> states, int vlan) {
        List<String> each = new ArrayList<>();
        for (int i = 0; i < states.size(); i++) {
            each.add(lab.name(i) + (states.get(i).vlans().containsKey(vlan) ? " with" : " without") + " VLAN " + vlan);
        }
        return String.join(", ", each);
    }

    /**
     * What the round's commands told the operator.
     *
     * @param promised the outcome they promised, if any (a command that exited 0, or a trial whose
     *                 deadline passed unconfirmed)
     * @param saidNothingChanged a failed apply said no switch was changed
     */
    private record Claims(Optional<Outcome> promised, boolean saidNothingChanged) {
    }

    /** Runs the round's commands with the fault injected at its moment. */
    private Claims changeUnderFault(Scenario scenario, Path plan, Injection injection) throws Exception {
        List<String> apply = new ArrayList<>(List.of("apply", plan.toString(), "--yes"));
        if (scenario.mode() != Mode.PLAIN) {
            Duration trial = scenario.mode() == Mode.TRIAL_CONFIRMED ? CONFIRMED_TRIAL : SHORT_TRIAL;
            apply.addAll(List.of("--trial", trial.toSeconds() + "s"));
        }
        JavaProcess applying = lab.operator("apply-r" + scenario.round(), apply.toArray(String[]::new));
        if (scenario.phase() == Phase.APPLY) {
            injection.scheduleDuring(applying);
        }
        int applied = exitOf(applying);
        long appliedAt = System.nanoTime();
        if (applied != 0) {
            return new Claims(Optional.empty(), applying.output().contains("no switch was changed"));
        }
        return new Claims(switch (scenario.mode()) {
            case PLAIN -> Optional.of(Outcome.NEW);
            case TRIAL_CONFIRMED -> confirm(scenario, applying, injection);
            case TRIAL_EXPIRED -> expire(scenario, appliedAt, injection);
        }, false);
    }

    private Optional<Outcome> confirm(Scenario scenario, JavaProcess applying, Injection injection) throws Exception {
        Matcher id = CHANGE_ID.matcher(applying.output());
        if (!id.find()) {
            throw new IllegalStateException("apply succeeded without naming its trial; its output:\n"
                    + applying.output());
        }
        JavaProcess confirming = lab.operator("confirm-r" + scenario.round(), "confirm", id.group(1));
        if (scenario.phase() == Phase.CONFIRM) {
            injection.scheduleDuring(confirming);
        }
        return exitOf(confirming) == 0 ? Optional.of(Outcome.NEW) : Optional.empty();
    }

    /** Waits past the trial's deadline; a fault of the EXPIRY phase lands within 2 s either side of it. */
    private Optional<Outcome> expire(Scenario scenario, long appliedAt, Injection injection) throws Exception {
        long deadlineAt = appliedAt + SHORT_TRIAL.toNanos();
        if (scenario.phase() == Phase.EXPIRY) {
            long untilFault = (deadlineAt - System.nanoTime()) / 1_000_000 - 2000;
            Thread.sleep(Math.max(0, untilFault));
            injection.scheduleDuring(null);
        }
        Thread.sleep(Math.max(0, (deadlineAt - System.nanoTime()) / 1_000_000 + 1000));
        return Optional.of(Outcome.OLD);
    }

    /**
     * The command's exit status; a command still running after {@link #COMMAND_PATIENCE} (held by a
     * transaction in doubt, say) is killed, counted, and taken as failed, so one hang does not end the run.
     */
    private int exitOf(JavaProcess command) throws InterruptedException {
        OptionalInt exit = command.exitWithin(COMMAND_PATIENCE);
        if (exit.isPresent()) {
            return exit.getAsInt();
        }
        command.kill();
        figures.hung.add(command.label());
        out.println("chaos: " + command.label() + " still ran after " + COMMAND_PATIENCE.toSeconds() + " s; killed");
        return HUNG;
    }

    private void clearSlowSwitch(Scenario scenario) throws IOException {
        if (scenario.slowSwitch() >= 0) {
            lab.control(scenario.slowSwitch(), "clear");
        }
    }

    /** What the switches hold once settled, and the round's outcome by its VLAN. */
    private record Settled(Outcome outcome, List<SwitchState> states) {
    }

    /**
     * Reads the switches until they agree and stay so for a second (and hold the promised outcome,
     * when the commands promised one: a revert at a deadline or after a restart takes a few
     * seconds); after {@link #SETTLE_PATIENCE}, what they hold is the outcome, MIXED if they differ.
     */
    private Settled settle(int vlan, Optional<Outcome> promised) throws DeviceException, InterruptedException {
        long giveUpAt = System.nanoTime() + SETTLE_PATIENCE.toNanos();
        List<SwitchState> previous = null;
        while (true) {
            List<SwitchState> states = lab.readAll();
            boolean agree = states.stream().distinct().count() == 1;
            Outcome outcome = !agree ? Outcome.MIXED
                    : states.get(0).vlans().containsKey(vlan) ? Outcome.NEW : Outcome.OLD;
            boolean kept = promised.map(outcome::equals).orElse(true);
            if ((agree && kept && states.equals(previous)) || System.nanoTime() > giveUpAt) {
                return new Settled(outcome, states);
            }
            previous = agree ? states : null;
            Thread.sleep(1000);
        }
    }

    /**
     * Leaves no trial pending for the next round: rolls back what {@code status} lists (bounded
     * retries, as a transaction still in doubt holds its switches for a while).
     */
    private void cleanUp(int vlan) throws Exception {
        for (int attempt = 0; attempt < 5; attempt++) {
            JavaProcess status = lab.operator("status", "status");
            int exit = exitOf(status);
            Matcher pending = PENDING.matcher(status.output());
            if (exit == 0 && !pending.find()) {
                return;
            }
            if (exit == 0) {
                exitOf(lab.operator("rollback", "rollback", pending.group(1)));
                figures.rollbacks++;
            }
            Thread.sleep(2000);
        }
        out.println("chaos: after VLAN " + vlan + " a trial is still pending or a switch unreachable; the next round"
                + " may be refused");
    }

    private Path writePlan(int round, int vlan) throws IOException {
        StringBuilder yaml = new StringBuilder("vlans:\n")
                .append("  - id: ").append(vlan).append('\n')
                .append("    name: chaos-").append(round).append('\n')
                .append("    ports:\n")
                .append("      - group: all\n")
                .append("        tagged: ").append(1 + round % 20).append('\n');
        if (round > 0) {
            yaml.append("  - id: ").append(vlan == FIRST_VLAN ? FIRST_VLAN + 2999 : vlan - 1).append('\n')
                    .append("    absent: true\n");
        }
        Path plan = lab.dir().resolve("plans").resolve("round-" + round + ".yaml");
        Files.createDirectories(plan.getParent());
        Files.writeString(plan, yaml.toString());
        return plan;
    }

    /** One round's fault: when it lands, and what to restart or thaw afterwards. */
    private final class Injection {
        private final Scenario scenario;
        private Thread thread;
        private volatile boolean landed;
        private volatile boolean killed;
        private volatile Exception failure;

        Injection(Scenario scenario) {
            this.scenario = scenario;
        }

        /**
         * Hits the victim {@code scenario.moment} ms from now (or from the first "preparing" line of
         * {@code operator}, the command running now, if it prints one).
         */
        void scheduleDuring(JavaProcess operator) {
            JavaProcess victim = scenario.role() == Role.OPERATOR ? operator
                    : lab.process(scenario.role(), scenario.victim());
            thread = new Thread(() -> hit(operator, victim), "chaos-fault");
            thread.setDaemon(true);
            thread.start();
        }

        private void hit(JavaProcess operator, JavaProcess victim) {
            try {
                if (scenario.fromPrepare()) {
                    awaitPreparing(operator);
                }
                Thread.sleep(scenario.moment());
                if (victim == null || !victim.isAlive()) {
                    return;
                }
                landed = true;
                if (scenario.fault() == Fault.KILL) {
                    victim.kill();
                    killed = true;
                } else {
                    victim.signal("STOP");
                    Thread.sleep(scenario.freezeMs());
                    victim.signal("CONT");
                }
            } catch (IOException | InterruptedException e) {
                failure = e;
            }
        }

        /** Waits (bounded by the command's own patience) until {@code operator} printed "preparing" or ended. */
        private void awaitPreparing(JavaProcess operator) throws IOException, InterruptedException {
            long giveUpAt = System.nanoTime() + COMMAND_PATIENCE.toNanos();
            while (operator.isAlive() && !operator.output().contains("preparing") && System.nanoTime() < giveUpAt) {
                Thread.sleep(20);
            }
        }

        /** Waits for the fault to be over, then restarts a killed service or switch agent. */
        void recover() throws Exception {
            if (thread != null) {
                thread.join(Duration.ofSeconds(60));
            }
            if (failure != null) {
                throw failure;
            }
            if (killed && scenario.role() != Role.OPERATOR) {
                lab.restart(scenario.role(), scenario.victim());
            }
        }
    }

    /** The run's figures: rounds, faults by victim and phase, outcomes, broken promises, time. */
    static final class ChaosFigures {
        int rounds;
        int mixed;
        int wrong;
        int rollbacks;
        int missed;
        final List<String> hung = new ArrayList<>();
        /** Rounds whose failed apply said "no switch was changed" while the switches hold the change. */
        final List<String> misleading = new ArrayList<>();
        Duration elapsed = Duration.ZERO;
        final Map<String, Integer> faults = new TreeMap<>();
        final Map<Outcome, Integer> outcomes = new TreeMap<>();
        final List<String> violations = new ArrayList<>();

        void record(Scenario scenario, Injection injection, Outcome outcome, Optional<Outcome> promised) {
            rounds++;
            if (injection.landed) {
                faults.merge(scenario.fault() + " " + scenario.role() + " at " + scenario.phase()
                        + (scenario.fromPrepare() ? " (from prepare)" : ""), 1, Integer::sum);
            } else {
                missed++;
            }
            outcomes.merge(outcome, 1, Integer::sum);
            if (outcome == Outcome.MIXED) {
                mixed++;
                violations.add(scenario.describe() + ": mixed");
            } else if (promised.isPresent() && promised.get() != outcome) {
                wrong++;
                violations.add(scenario.describe() + ": promised " + promised.get() + ", found " + outcome);
            }
        }

        String summary(long seed) {
            return "chaos: seed " + seed + ": " + rounds + " rounds in " + elapsed.toSeconds() + " s; mixed states: "
                    + mixed + "; outcomes other than the commands promised: " + wrong + "; outcomes " + outcomes
                    + "; faults by kind, victim and moment " + faults + " (+" + missed + " that found the victim already done); rollbacks of"
                    + " trials left pending: " + rollbacks + "; commands killed after hanging: " + hung.size()
                    + (hung.isEmpty() ? "" : " " + hung) + "; failed applies that said no switch was changed while"
                    + " the switches hold the change: " + misleading.size() + (misleading.isEmpty() ? "" : " " + misleading);
        }
    }
}
