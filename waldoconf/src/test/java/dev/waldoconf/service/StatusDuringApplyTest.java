package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.StatusReport;
import dev.waldoconf.model.SwitchState;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Status reads the services in read-only transactions with snapshot reads: while an apply is in
 * its prepare on a switch (its SNMP push held here), status neither waits for it (a locking read
 * would wait for the apply's locks until its commit, and report the switch undecided after 20 s)
 * nor disturbs it (the apply prepares once and commits).
 */
class StatusDuringApplyTest {
    private static final int PORTS = 8;

    @TempDir
    Path dir;
    private ServedSwitches served;
    private HeldPushDevice slow;

    @AfterEach
    void stop() throws Exception {
        if (slow != null) {
            slow.release();
        }
        if (served != null) {
            served.close();
        }
    }

    @Test
    void statusDuringASlowPrepareNeitherWaitsForTheApplyNorDisturbsIt() throws Exception {
        slow = new HeldPushDevice(new MemoryVlanDevice("sw-1", PORTS, SwitchState.factoryDefault(PORTS)));
        served = ServedSwitches.inMemory(dir, List.of(slow,
                new MemoryVlanDevice("sw-2", PORTS, SwitchState.factoryDefault(PORTS))));
        ResolvedPlan preview = served.preview(served.plan("""
                vlans:
                  - id: 10
                    name: users
                    ports:
                      - switch: sw-1
                        tagged: 7
                """));
        slow.holdPushes();
        CompletableFuture<ApplyResult> apply = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                apply.complete(served.apply(preview, false));
            } catch (Exception | Error e) {
                apply.completeExceptionally(e);
            }
        });
        slow.awaitPushStarted();

        StatusReport status = served.engine.status(served.inventory);

        assertThat(apply).as("the apply is still inside its prepare on sw-1").isNotDone();
        assertThat(status.switches()).as("every switch answered, none held by the apply")
                .allSatisfy(sw -> assertThat(sw.undecided() || !sw.reachable()).as(sw.toString()).isFalse());
        assertThat(status.pendingTrials()).as("the apply has not committed yet").isEmpty();
        slow.release();
        assertThat(apply.get(60, TimeUnit.SECONDS).outcome()).isEqualTo(ApplyResult.Outcome.COMMITTED);
        assertThat(slow.pushes()).as("the apply prepared sw-1 once: it was never backed out and retried").isEqualTo(1);
        assertThat(served.read("sw-1").vlans()).containsKey(10);
    }
}
