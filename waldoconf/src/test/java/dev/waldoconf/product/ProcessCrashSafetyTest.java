package dev.waldoconf.product;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.DelayingProxy;
import dev.waldoconf.lab.JavaProcess;
import dev.waldoconf.lab.SwitchMain;
import dev.waldoconf.lab.container.ListeningAddresses;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.service.SnapshotLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety with real processes and {@code kill -9}: three switch processes ({@link SwitchMain}
 * with state files), one service process per switch ({@link ServeMain}, as {@code waldoconf
 * serve}), and the operator as its own process ({@link ApplyMain}, as {@code waldoconf apply
 * --trial}). One process is killed at a point of the apply and started again; then the switches
 * are read over SNMP and must be all-old or all-new.
 *
 * <p><b>Why these tests prove atomicity, not just eventual reversion.</b> The trial is
 * {@value #LONG_TRIAL_SECONDS} s long and each test reads the switches within
 * {@link #SETTLE_PATIENCE} of the recovery, so no trial deadline acts before the read: if two-phase
 * commit had committed the change on some switches and backed it out on others, those switches would
 * still differ when read, and {@link #awaitAtomicOutcome} would fail with their states. (A 6 s trial
 * read after 40 s, as these tests once did, passes either way: the deadline reverts every switch.)
 * Where the right answer is known, it is asserted: all-old when the change could not have committed,
 * all-new when the kill came after the commit decision. Only
 * {@link #operatorKilledAfterTheDeadlinePassedUndecidedLeavesEverySwitchOld} uses a short trial, since
 * the deadline passing during the undecided transaction is what it is about.
 */
@Timeout(240)
class ProcessCrashSafetyTest {
    private static final int SWITCHES = 3;
    /** The switch that is slowed down, or whose service or process is killed. */
    private static final int VICTIM = 1;
    /** A trial that outlives every test: its deadline can never be what makes the switches agree. */
    private static final int LONG_TRIAL_SECONDS = 600;
    private static final int SHORT_TRIAL_SECONDS = 6;
    /**
     * How long the switches get to agree once the killed process is back: far below the long trial,
     * yet enough for cooperative termination and a restarted service's undo (retried every 5 s).
     */
    private static final Duration SETTLE_PATIENCE = Duration.ofSeconds(45);
    /** How long the proxy to the last switch's service holds back the operator's messages. */
    private static final long PROXY_DELAY_MS = 1500;

    /** What the switches must hold after the recovery. */
    private enum Expected { ALL_OLD, ALL_NEW, ALL_OLD_OR_ALL_NEW }

    @TempDir
    Path dir;

    private final List<JavaProcess> processes = new ArrayList<>();
    private final List<JavaProcess> switchProcesses = new ArrayList<>();
    private final List<JavaProcess> serviceProcesses = new ArrayList<>();
    private final List<Fleet.Switch> switches = new ArrayList<>();
    private final List<Integer> servicePorts = new ArrayList<>();
    private Fleet fleet;
    private List<SwitchState> before;
    private int starts;

    @BeforeEach
    void startSwitchesAndServices() throws Exception {
        for (int i = 0; i < SWITCHES; i++) {
            switchProcesses.add(null);
            switches.add(startSwitch(i, 0, 0));
        }
        for (int i = 0; i < SWITCHES; i++) {
            serviceProcesses.add(null);
            servicePorts.add(startService(i));
        }
        fleet = new Fleet(switches, dir);
        before = fleet.readAll();
    }

    @AfterEach
    void killEveryProcess() throws InterruptedException {
        for (JavaProcess process : processes) {
            process.kill();
        }
    }

    private Fleet.Switch startSwitch(int index, int snmpPort, int controlPort) throws Exception {
        String name = "px-" + (index + 1);
        JavaProcess process = start("switch-" + name, SwitchMain.class, "--name", name,
                "--port", Integer.toString(snmpPort), "--control-port", Integer.toString(controlPort),
                "--state-file", dir.resolve(name + ".state").toString());
        process.awaitLine("lab switch " + name + " listening");
        switchProcesses.set(index, process);
        ListeningAddresses addresses = ListeningAddresses.find(process.output());
        return new Fleet.Switch(name, addresses.snmp(), addresses.control());
    }

    private int startService(int index) throws Exception {
        Fleet.Switch sw = switches.get(index);
        List<String> args = new ArrayList<>(List.of(sw.name(), Integer.toString(sw.snmp().getPort()),
                serviceDir(index).toString()));
        for (int other = 0; other < servicePorts.size(); other++) {
            if (other != index) {
                // whom a restarted service asks: NAME=PORT
                args.add(switches.get(other).name() + "=" + servicePorts.get(other));
            }
        }
        JavaProcess process = start("service-" + sw.name(), ServeMain.class, args.toArray(String[]::new));
        serviceProcesses.set(index, process);
        return Integer.parseInt(process.awaitLine("serving \\S+ at (\\d+)").group(1));
    }

    private Path serviceDir(int index) {
        return dir.resolve("service-" + switches.get(index).name());
    }

    private JavaProcess startOperator(int trialSeconds) throws Exception {
        return startOperator(trialSeconds, servicePorts.stream().map(Object::toString).toList());
    }

    /** The operator's apply, reaching switch {@code i}'s service at {@code addresses.get(i)} (PORT on 127.0.0.1, or HOST:PORT). */
    private JavaProcess startOperator(int trialSeconds, List<String> addresses) throws Exception {
        List<String> args = new ArrayList<>(List.of(dir.resolve("operator").toString(), Integer.toString(trialSeconds)));
        for (int i = 0; i < SWITCHES; i++) {
            args.add(switches.get(i).name() + "=" + addresses.get(i));
        }
        return start("operator", ApplyMain.class, args.toArray(String[]::new));
    }

    /** Starts a process with a log of its own (a restarted process gets a new one). */
    private JavaProcess start(String label, Class<?> main, String... args) throws Exception {
        JavaProcess process = JavaProcess.start(label + "-" + (++starts), dir.resolve("logs"), main, args);
        processes.add(process);
        return process;
    }

    /** Waits (bounded) until switch {@code index} took the first SETs of a prepare (its VLAN 20 row exists). */
    private void awaitPrepareReached(int index) throws Exception {
        long giveUpAt = System.nanoTime() + Fleet.PATIENCE.toNanos();
        while (!fleet.read(index).vlans().containsKey(20)) {
            assertThat(System.nanoTime()).as("switch %d started preparing", index).isLessThan(giveUpAt);
            Thread.sleep(50);
        }
    }

    /**
     * Waits (bounded) until switch {@code index}'s service has committed a staging: its journal's
     * committed record carries a trial. That is the coordinator's commit decision, reached there.
     */
    private void awaitCommittedAt(int index, JavaProcess operator) throws Exception {
        long giveUpAt = System.nanoTime() + Fleet.PATIENCE.toNanos();
        while (!committedAStaging(index)) {
            assertThat(System.nanoTime()).as("service %d committed the staging; the operator's output: %s", index,
                    operator.output()).isLessThan(giveUpAt);
            Thread.sleep(10);
        }
    }

    /** Whether switch {@code index}'s service journaled a committed staging (a committed record with a trial). */
    private boolean committedAStaging(int index) throws IOException {
        Path journal = serviceDir(index).resolve("journal").resolve(DeviceJournal.FILE);
        String current = SnapshotLog.read(journal);
        return current != null && current.lines()
                .anyMatch(line -> line.startsWith("committed.trial ") && !line.equals("committed.trial -"));
    }

    /**
     * Reads every switch over SNMP until they agree and stay so for a second, bounded by
     * {@link #SETTLE_PATIENCE} (far before the long trial's deadline), and checks that they hold
     * what {@code expected} says. Switches that still differ then (some with the change, some
     * without) fail the test: that is a partial commit.
     */
    private void awaitAtomicOutcome(Expected expected) throws Exception {
        List<SwitchState> changed = Fleet.changedAll(before);
        long giveUpAt = System.nanoTime() + SETTLE_PATIENCE.toNanos();
        List<SwitchState> previous = null;
        while (true) {
            List<SwitchState> states = fleet.readAll();
            boolean allOld = states.equals(before);
            boolean allNew = states.equals(changed);
            boolean wanted = switch (expected) {
                case ALL_OLD -> allOld;
                case ALL_NEW -> allNew;
                case ALL_OLD_OR_ALL_NEW -> allOld || allNew;
            };
            if (wanted && states.equals(previous)) {
                return;
            }
            assertThat(System.nanoTime()).as("every switch %s within %s s of the recovery (the trial's deadline is"
                    + " %s s away, so it cannot be what decides); the switches hold: %s", expected,
                    SETTLE_PATIENCE.toSeconds(), LONG_TRIAL_SECONDS, describe(states, changed)).isLessThan(giveUpAt);
            previous = wanted ? states : null;
            Thread.sleep(1000);
        }
    }

    /** Each switch as old, new, or (for anything else) what it holds. */
    private String describe(List<SwitchState> states, List<SwitchState> changed) {
        List<String> each = new ArrayList<>();
        for (int i = 0; i < states.size(); i++) {
            SwitchState state = states.get(i);
            each.add(switches.get(i).name() + " " + (state.equals(before.get(i)) ? "old"
                    : state.equals(changed.get(i)) ? "new" : "neither old nor new: " + state));
        }
        return String.join(", ", each);
    }

    /**
     * The operator dies after every switch took the change but before the transaction is decided
     * (the last switch prepares slowly). Both outcomes keep the promise: the prepared switches may
     * wait in doubt holding the change, or all back out; what must not happen is a mix.
     */
    @Test
    void operatorKilledBeforeTheDecisionLeavesEverySwitchAllOldOrAllNew() throws Exception {
        fleet.control(SWITCHES - 1, "delay 700");  // the last switch prepares slowly: the others wait prepared
        JavaProcess operator = startOperator(LONG_TRIAL_SECONDS);
        operator.awaitLine("applying");
        awaitPrepareReached(0);
        awaitPrepareReached(SWITCHES - 1);

        operator.kill();
        fleet.control(SWITCHES - 1, "clear");

        awaitAtomicOutcome(Expected.ALL_OLD_OR_ALL_NEW);
    }

    /**
     * The last switch's prepare outlasts a short trial: the deadline passes while the operator still
     * waits for its vote, and the operator dies after that. This one is about the deadline: every
     * switch must be old once it passed, with nothing left in doubt.
     */
    @Test
    void operatorKilledAfterTheDeadlinePassedUndecidedLeavesEverySwitchOld() throws Exception {
        fleet.control(SWITCHES - 1, "delay 700");
        JavaProcess operator = startOperator(SHORT_TRIAL_SECONDS);
        operator.awaitLine("applying");
        awaitPrepareReached(0);
        awaitPrepareReached(SWITCHES - 1);
        Thread.sleep(SHORT_TRIAL_SECONDS * 1000L);

        operator.kill();
        fleet.control(SWITCHES - 1, "clear");

        awaitAtomicOutcome(Expected.ALL_OLD);
    }

    /**
     * The operator dies while the first switch is still to vote, and that switch then votes no (it
     * refuses VLAN 30). Nobody is left to tell the prepared switches to back out; they must learn
     * it from the switch that voted no (cooperative termination), long before the trial's deadline.
     * The first switch is the one that refuses: the last stage call carries the prepare, so the
     * last switch votes with its reply, before the others are asked; a refusal there would end
     * the attempt before anyone else prepared. (Switch 0 itself may refuse before its first SET.)
     */
    @Test
    void operatorKilledBeforeARefusingVoteLeavesEverySwitchOld() throws Exception {
        fleet.control(0, "delay 700");
        fleet.control(0, "refuse 30 commitFailed");
        JavaProcess operator = startOperator(LONG_TRIAL_SECONDS);
        operator.awaitLine("applying");
        awaitPrepareReached(1); // asked with switch 0, after the last switch prepared with its reply

        operator.kill();

        awaitAtomicOutcome(Expected.ALL_OLD);
    }

    /**
     * The commit is decided and has reached the first switch's service, while the operator's
     * messages to the last switch's service are held back (a proxy delays them 1.5 s): then that
     * link is cut and the operator dies, so the last service never hears the decision from the
     * operator. It voted yes, so it must learn the commit from its peers: every switch new.
     */
    @Test
    void operatorKilledAfterTheCommitDecisionLeavesEverySwitchNew() throws Exception {
        cutOffTheLastServiceOnceTheCommitIsDecided(JavaProcess::kill);

        awaitAtomicOutcome(Expected.ALL_NEW);
    }

    /**
     * The commit is decided (it reached the first switch's service) while the operator's messages
     * to the last switch's service are held back; that service voted yes, and is killed before it
     * hears the decision. Restarted, it must ask its peers and keep the change: every switch new.
     * (It once backed its staging out at restart without asking anyone, leaving its switch old
     * while the others kept the change: the chaos run's mixed rounds.)
     */
    @Test
    void serviceKilledAfterItsYesVoteWhileTheCommitWasDecidedLeavesEverySwitchNew() throws Exception {
        int last = SWITCHES - 1;
        cutOffTheLastServiceOnceTheCommitIsDecided(operator -> serviceProcesses.get(last).kill());
        servicePorts.set(last, startService(last));

        awaitAtomicOutcome(Expected.ALL_NEW);
    }

    /** What a test kills once the last service is cut off from the operator. */
    private interface Kill {
        void at(JavaProcess operator) throws Exception;
    }

    /**
     * Applies with the operator's messages to the last switch's service held back (a proxy delays
     * them {@value #PROXY_DELAY_MS} ms) until the commit decision reached the first switch's
     * service; then cuts that link, so the held-back commit never arrives, and runs {@code kill}.
     */
    private void cutOffTheLastServiceOnceTheCommitIsDecided(Kill kill) throws Exception {
        int last = SWITCHES - 1;
        try (DelayingProxy proxy = DelayingProxy.start(new InetSocketAddress("127.0.0.1", servicePorts.get(last)))) {
            List<String> addresses = new ArrayList<>(servicePorts.stream().map(Object::toString).toList());
            addresses.set(last, "127.0.0.2:" + proxy.address().getPort());
            JavaProcess operator = startOperator(LONG_TRIAL_SECONDS, addresses);
            operator.awaitLine("applying");  // connected: from here on, its messages to the last service lag
            proxy.delay(PROXY_DELAY_MS);
            awaitCommittedAt(0, operator);

            proxy.cut();  // first, as it takes no time: the held-back commit can no longer get through
            kill.at(operator);
            assertThat(committedAStaging(last)).as("the last service had not heard the decision when its link"
                    + " was cut (else this test would not test what it says)").isFalse();
        }
    }

    /**
     * A service dies right after the apply committed (the operator reported it), and comes back: it
     * must resume the committed change, not undo it, so every switch stays new until the trial's
     * deadline.
     */
    @Test
    void serviceKilledAfterTheCommitLeavesEverySwitchNew() throws Exception {
        JavaProcess operator = startOperator(LONG_TRIAL_SECONDS);
        assertThat(operator.awaitExit(Fleet.PATIENCE)).as("the apply commits; its output: %s", operator.output())
                .isZero();

        serviceProcesses.get(VICTIM).kill();
        servicePorts.set(VICTIM, startService(VICTIM));

        awaitAtomicOutcome(Expected.ALL_NEW);
    }

    @Test
    void serviceKilledMidPrepareLeavesEverySwitchOldOnceRestarted() throws Exception {
        fleet.control(VICTIM, "delay 400");
        JavaProcess operator = startOperator(LONG_TRIAL_SECONDS);
        awaitPrepareReached(VICTIM);

        serviceProcesses.get(VICTIM).kill();
        fleet.control(VICTIM, "clear");
        assertThat(operator.awaitExit(Fleet.PATIENCE)).as("the apply fails; its output: %s", operator.output())
                .isNotZero();
        servicePorts.set(VICTIM, startService(VICTIM));

        awaitAtomicOutcome(Expected.ALL_OLD);
    }

    @Test
    void switchProcessKilledMidApplyLeavesEverySwitchOldOnceRestarted() throws Exception {
        fleet.control(VICTIM, "exit-after 1");  // the switch dies right after the first SET PDU of the apply
        JavaProcess operator = startOperator(LONG_TRIAL_SECONDS);

        assertThat(switchProcesses.get(VICTIM).awaitExit(Fleet.PATIENCE)).isEqualTo(SwitchMain.EXIT_FAULT);
        assertThat(operator.awaitExit(Fleet.PATIENCE)).as("the apply fails; its output: %s", operator.output())
                .isNotZero();
        Fleet.Switch victim = switches.get(VICTIM);
        startSwitch(VICTIM, victim.snmp().getPort(), victim.control().getPort());

        awaitAtomicOutcome(Expected.ALL_OLD);
    }
}
