package dev.waldoconf.product;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.NetConfig;
import dev.waldoconf.lab.JavaProcess;
import dev.waldoconf.lab.SwitchMain;
import dev.waldoconf.lab.container.ListeningAddresses;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.service.ChangeRunner;
import dev.waldoconf.service.OperatorSession;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety with real processes and {@code kill -9}: three switch processes ({@link SwitchMain}
 * with state files), one service process per switch ({@link ServeMain}, as {@code waldoconf
 * serve}), and the operator as its own process ({@link ApplyMain}, as {@code waldoconf apply
 * --trial}). After one process is killed at a point of the apply and started again, every switch
 * must end in its old state (the change never committed), with no trial left pending.
 */
@Timeout(240)
class ProcessCrashSafetyTest {
    private static final int SWITCHES = 3;
    /** The switch that is slowed down, or whose service or process is killed. */
    private static final int VICTIM = 1;
    private static final int TRIAL_SECONDS = 6;
    /**
     * How long the switches get to settle once every process is back: far past the trial's
     * deadline, so a switch still changed by then is not going to revert by itself.
     */
    private static final Duration SETTLE_PATIENCE = Duration.ofSeconds(40);

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
        JavaProcess process = start("service-" + sw.name(), ServeMain.class, sw.name(),
                Integer.toString(sw.snmp().getPort()), dir.resolve("service-" + sw.name()).toString());
        serviceProcesses.set(index, process);
        return Integer.parseInt(process.awaitLine("serving \\S+ at (\\d+)").group(1));
    }

    private JavaProcess startOperator() throws Exception {
        return startOperator(TRIAL_SECONDS);
    }

    private JavaProcess startOperator(int trialSeconds) throws Exception {
        List<String> args = new ArrayList<>(List.of(dir.resolve("operator").toString(), Integer.toString(trialSeconds)));
        for (int i = 0; i < SWITCHES; i++) {
            args.add(switches.get(i).name() + "=" + servicePorts.get(i));
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

    /** Every switch back to its old state, and every service free of the change (nothing pending or locked). */
    private void assertEverySwitchEndsOld() throws Exception {
        fleet.await("every switch back to its old state", before::equals, SETTLE_PATIENCE);
        Map<String, InetSocketAddress> services = new LinkedHashMap<>();
        for (int i = 0; i < SWITCHES; i++) {
            services.put(switches.get(i).name(), new InetSocketAddress("127.0.0.1", servicePorts.get(i)));
        }
        try (OperatorSession status = OperatorSession.connect(services,
                NetConfig.defaults("status", dir.resolve("status")), Clock.systemUTC())) {
            assertThat(status.runner().pendingTrials(status.targets())).noneMatch(ChangeRunner.PendingTrial::pending);
        }
    }

    /**
     * The operator dies after every switch took the change but before the transaction is decided
     * (the last switch prepares slowly), well before the trial's deadline. The change was never
     * committed, let alone confirmed, so at the deadline every switch must be old again.
     */
    @Test
    void operatorKilledBeforeTheDecisionLeavesEverySwitchOld() throws Exception {
        operatorKilledWhileTheLastSwitchPrepares(20);
    }

    /**
     * As above, but the last switch's prepare outlasts the trial: the deadline passes while the
     * operator still waits for its vote, and the operator dies after that.
     */
    @Test
    void operatorKilledAfterTheDeadlinePassedUndecidedLeavesEverySwitchOld() throws Exception {
        operatorKilledWhileTheLastSwitchPrepares(TRIAL_SECONDS);
    }

    private void operatorKilledWhileTheLastSwitchPrepares(int trialSeconds) throws Exception {
        fleet.control(SWITCHES - 1, "delay 700");  // the last switch prepares slowly: the others wait prepared
        JavaProcess operator = startOperator(trialSeconds);
        operator.awaitLine("applying");
        awaitPrepareReached(0);
        awaitPrepareReached(SWITCHES - 1);

        operator.kill();
        fleet.control(SWITCHES - 1, "clear");

        assertEverySwitchEndsOld();
    }

    /**
     * The operator dies while the last switch is still to vote, and that switch then votes no (it
     * refuses VLAN 30). Nobody is left to tell the prepared switches to back out.
     */
    @Test
    void operatorKilledBeforeARefusingVoteLeavesEverySwitchOld() throws Exception {
        fleet.control(SWITCHES - 1, "delay 700");
        fleet.control(SWITCHES - 1, "refuse 30 commitFailed");
        JavaProcess operator = startOperator();
        operator.awaitLine("applying");
        awaitPrepareReached(0);

        operator.kill();

        assertEverySwitchEndsOld();
    }

    @Test
    void serviceKilledMidPrepareLeavesEverySwitchOldOnceRestarted() throws Exception {
        fleet.control(VICTIM, "delay 400");
        JavaProcess operator = startOperator();
        awaitPrepareReached(VICTIM);

        serviceProcesses.get(VICTIM).kill();
        fleet.control(VICTIM, "clear");
        assertThat(operator.awaitExit(Fleet.PATIENCE)).as("the apply fails; its output: %s", operator.output())
                .isNotZero();
        servicePorts.set(VICTIM, startService(VICTIM));

        assertEverySwitchEndsOld();
    }

    @Test
    void switchProcessKilledMidApplyLeavesEverySwitchOldOnceRestarted() throws Exception {
        fleet.control(VICTIM, "exit-after 1");  // the switch dies right after the first SET PDU of the apply
        JavaProcess operator = startOperator();

        assertThat(switchProcesses.get(VICTIM).awaitExit(Fleet.PATIENCE)).isEqualTo(SwitchMain.EXIT_FAULT);
        assertThat(operator.awaitExit(Fleet.PATIENCE)).as("the apply fails; its output: %s", operator.output())
                .isNotZero();
        Fleet.Switch victim = switches.get(VICTIM);
        startSwitch(VICTIM, victim.snmp().getPort(), victim.control().getPort());

        assertEverySwitchEndsOld();
    }
}
