package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.config.Plan;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.model.SwitchState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two applies on the same switches, the first held inside its transaction (between its reads and
 * its stages, so it holds whatever it locked) while the second runs: plans on disjoint VLANs,
 * each moving its own access port off VLAN 1, lock only what they depend on (their VLANs and
 * ports) and add to the counters they share, so the second commits while the first is held, and
 * neither is wounded or retried; the same plans locking each switch's whole table run one after
 * the other; and plans on disjoint VLANs that move the same access port still conflict, so the
 * port ends untagged in one VLAN only.
 */
@Timeout(180)
class DisjointVlansTest {
    private static final int PORTS = 8;
    /** How long the first apply waits, held, for the second to commit: far beyond a keyed apply's time here. */
    private static final Duration HOLD = Duration.ofSeconds(5);

    @TempDir
    Path dir;
    private ServedSwitches served;

    @BeforeEach
    void start() throws Exception {
        served = ServedSwitches.inMemory(dir, List.of(
                new MemoryVlanDevice("sw-1", PORTS, SwitchState.factoryDefault(PORTS)),
                new MemoryVlanDevice("sw-2", PORTS, SwitchState.factoryDefault(PORTS))));
    }

    @AfterEach
    void stop() throws Exception {
        served.close();
    }

    @Test
    void appliesOnDisjointVlansOfTheSameSwitchesBothCommitWithoutWaitingOrRetrying() throws Exception {
        Run run = runHeld(true, accessVlan(20, "voice", 5), accessVlan(30, "cameras", 6));

        assertThat(run.secondDuringFirst).as("the second apply committed while the first was held").isTrue();
        assertThat(run.first.attempts()).as("the first apply's attempts (a wound retries)").isEqualTo(1);
        assertThat(run.second.attempts()).as("the second apply's attempts").isEqualTo(1);
        for (String name : List.of("sw-1", "sw-2")) {
            SwitchState now = served.read(name);
            assertThat(now.vlans()).as(name).containsKeys(20, 30);
            assertThat(now.vlans().get(1).untagged()).as(name + ": both access ports left VLAN 1")
                    .doesNotContain(5, 6);
            assertThat(now.pvids()).as(name).containsEntry(5, 20).containsEntry(6, 30);
        }
    }

    /** The comparison that shows the held first apply is what the second would wait for, if it locked more. */
    @Test
    void theSamePlansLockingWholeTablesRunOneAfterTheOther() throws Exception {
        Run run = runHeld(false, accessVlan(20, "voice", 5), accessVlan(30, "cameras", 6));

        assertThat(run.secondDuringFirst).as("the second apply waited for the first to end").isFalse();
        assertThat(served.read("sw-1").vlans()).containsKeys(20, 30);
    }

    /**
     * Disjoint VLANs, one access port: each plan depends on the VLANs that port carries (it leaves
     * them all), which the other changes. Run side by side, each would leave the port in the
     * other's VLAN as well; serialized, the second takes it out of the first's.
     */
    @Test
    void plansOnDisjointVlansThatMoveTheSameAccessPortStillConflict() throws Exception {
        Run run = runHeld(true, accessVlan(20, "voice", 5), accessVlan(30, "cameras", 5));

        assertThat(run.secondDuringFirst).as("the second apply waited for the first to end").isFalse();
        for (String name : List.of("sw-1", "sw-2")) {
            SwitchState now = served.read(name);
            assertThat(now.vlans().get(30).untagged()).as(name).contains(5);
            assertThat(now.vlans().get(20).egress()).as(name + ": the second apply took port 5 out of VLAN 20")
                    .doesNotContain(5);
            assertThat(now.pvids()).as(name).containsEntry(5, 30);
        }
    }

    /** A plan making VLAN {@code id} exist on both switches, tagged on port 8 and untagged on {@code port}. */
    private Plan accessVlan(int id, String name, int port) throws Exception {
        return served.plan("""
                vlans:
                  - id: %d
                    name: %s
                    ports:
                      - switch: sw-1
                        tagged: 8
                        untagged: %d
                      - switch: sw-2
                        tagged: 8
                        untagged: %d
                """.formatted(id, name, port, port));
    }

    /** How two applies went: their resolutions, and whether the second committed while the first was held. */
    private record Run(CountedPlan first, CountedPlan second, boolean secondDuringFirst) {
    }

    /**
     * Applies {@code first}, holds its first attempt in its resolution (inside its transaction,
     * after its reads) until {@code second}, applied meanwhile through another operator session,
     * has returned, or {@link #HOLD} passed; then lets it go and waits for both.
     *
     * @param keyed whether the applies lock what their plans depend on (else each switch's whole table)
     */
    private Run runHeld(boolean keyed, Plan first, Plan second) throws Exception {
        CountDownLatch resolving = new CountDownLatch(1);
        CountDownLatch secondDone = new CountDownLatch(1);
        AtomicBoolean sawSecondCommit = new AtomicBoolean();
        CountedPlan held = new CountedPlan(first, served.inventory, keyed, attempt -> {
            if (attempt == 1) {
                resolving.countDown();
                sawSecondCommit.set(awaitQuietly(secondDone));
            }
        });
        CountedPlan other = new CountedPlan(second, served.inventory, keyed, attempt -> { });
        CompletableFuture<ChangeRunner.Applied> firstApply = applyInBackground(held);
        assertThat(resolving.await(60, TimeUnit.SECONDS)).as("the first apply reached its resolution").isTrue();
        CompletableFuture<ChangeRunner.Applied> secondApply = applyInBackground(other);
        secondApply.whenComplete((applied, failure) -> secondDone.countDown());
        firstApply.get(60, TimeUnit.SECONDS);
        secondApply.get(60, TimeUnit.SECONDS);
        return new Run(held, other, sawSecondCommit.get());
    }

    /** Waits for {@code latch} at most {@link #HOLD}; whether it opened. */
    private static boolean awaitQuietly(CountDownLatch latch) {
        try {
            return latch.await(HOLD.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while held", e);
        }
    }

    private CompletableFuture<ChangeRunner.Applied> applyInBackground(ChangeRunner.Resolution resolution) {
        CompletableFuture<ChangeRunner.Applied> applied = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (WaldoConfEngine.Connected session = served.engine.connect(served.inventory.switches(),
                    ProgressListener.NONE)) {
                applied.complete(applyAsAnOperator(session, resolution));
            } catch (Exception | Error e) {
                applied.completeExceptionally(e);
            }
        });
        return applied;
    }

    /**
     * Applies without a trial, as {@code waldoconf apply}; refused because the other apply's change
     * is on a switch as a trial until it confirms itself, it tries again, as an operator would.
     */
    private static ChangeRunner.Applied applyAsAnOperator(WaldoConfEngine.Connected session,
            ChangeRunner.Resolution resolution) throws InterruptedException {
        for (int tries = 1; ; tries++) {
            try {
                return session.runner().apply(session.runner().newChangeId(), session.targets(), resolution,
                        Optional.empty());
            } catch (ChangeRunner.ChangeRefusedException e) {
                if (tries == 5) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }
}
