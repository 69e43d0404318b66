package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The trial timers of many services (a site agent's switches) share one scheduling thread instead
 * of a thread each, and still each revert their own trial at its deadline, even while another
 * timer's work is stuck.
 */
@Timeout(120)
class TrialTimerSharingTest {
    private static final int SERVICES = 200;

    /** Trials whose one pending change reverts by counting down, or blocks when told to. */
    private static final class CountingTrials implements TrialTimer.Trials {
        private final String change;
        private final CountDownLatch reverted;
        private final CountDownLatch release;
        private volatile boolean pending = true;

        CountingTrials(String change, CountDownLatch reverted, CountDownLatch release) {
            this.change = change;
            this.reverted = reverted;
            this.release = release;
        }

        @Override
        public Set<String> pending() {
            return pending ? Set.of(change) : Set.of();
        }

        @Override
        public Map<String, Boolean> undecided() {
            return Map.of();
        }

        @Override
        public boolean revert(String trial) {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            pending = false;
            reverted.countDown();
            return true;
        }
    }

    private static TrialRecord<String> expired(String change) {
        return trialRecord(change, 1);
    }

    private static TrialRecord<String> trialRecord(String change, long deadline) {
        return new TrialRecord<>("t-" + change, "after", List.of(new TrialRecord.Trial<>(change, deadline,
                List.of("sw"), "before")));
    }

    @Test
    void manyTimersRevertTheirOwnTrialsOnOneSharedThread() throws Exception {
        InMemoryNetwork network = new InMemoryNetwork();
        CountDownLatch reverted = new CountDownLatch(SERVICES);
        CountDownLatch stuckForever = new CountDownLatch(1);
        CountDownLatch free = new CountDownLatch(0);
        List<TrialTimer> timers = new ArrayList<>();
        List<Host> hosts = new ArrayList<>();
        try {
            // One service whose revert never ends: the others must not wait behind it.
            Host stuckHost = Host.inMemory(network, "stuck");
            hosts.add(stuckHost);
            TrialTimer stuck = new TrialTimer("stuck", stuckHost, Clock.systemUTC(),
                    new CountingTrials("c-stuck", new CountDownLatch(1), stuckForever));
            timers.add(stuck);
            stuck.checkAtDeadline(expired("c-stuck"));
            for (int i = 0; i < SERVICES; i++) {
                Host host = Host.inMemory(network, "sw-" + i);
                hosts.add(host);
                TrialTimer timer = new TrialTimer("sw-" + i, host, Clock.systemUTC(),
                        new CountingTrials("c-" + i, reverted, free));
                timers.add(timer);
                timer.checkAtDeadline(expired("c-" + i));
            }
            assertThat(reverted.await(60, TimeUnit.SECONDS)).as("every service's expired trial reverted").isTrue();
            assertThat(platformThreadsNamed("trial-")).as("platform threads the timers hold").hasSize(1);
        } finally {
            stuckForever.countDown();
            timers.forEach(TrialTimer::close);
            hosts.forEach(Host::close);
        }
    }

    @Test
    void aClosedTimerLeavesNothingScheduled() {
        InMemoryNetwork network = new InMemoryNetwork();
        int before = TrialTimer.scheduledTasks();
        try (Host host = Host.inMemory(network, "sw")) {
            TrialTimer timer = new TrialTimer("sw", host, Clock.systemUTC(),
                    new CountingTrials("c", new CountDownLatch(1), new CountDownLatch(0)));
            long inAnHour = System.currentTimeMillis() / 1000 + 3600;
            timer.checkAtDeadline(trialRecord("c", inAnHour));
            timer.everyRecheck(() -> { });
            assertThat(TrialTimer.scheduledTasks()).isEqualTo(before + 2);
            timer.close();
            assertThat(TrialTimer.scheduledTasks()).isEqualTo(before);
        }
    }

    /**
     * A VLAN service holds one trial per change: each of a record's pending trials is reverted at
     * its own deadline, the expired one now, the other not before its deadline.
     */
    @Test
    void eachPendingTrialOfARecordRevertsAtItsOwnDeadline() throws Exception {
        InMemoryNetwork network = new InMemoryNetwork();
        Set<String> pending = ConcurrentHashMap.newKeySet();
        pending.addAll(Set.of("c-expired", "c-later"));
        List<String> reverted = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch first = new CountDownLatch(1);
        try (Host host = Host.inMemory(network, "sw")) {
            TrialTimer timer = new TrialTimer("sw", host, Clock.systemUTC(), new TrialTimer.Trials() {
                @Override
                public Set<String> pending() {
                    return Set.copyOf(pending);
                }

                @Override
                public Map<String, Boolean> undecided() {
                    return Map.of();
                }

                @Override
                public boolean revert(String change) {
                    reverted.add(change);
                    pending.remove(change);
                    first.countDown();
                    return true;
                }
            });
            long inAnHour = System.currentTimeMillis() / 1000 + 3600;
            timer.checkAtDeadline(new TrialRecord<>("t", "after", List.of(
                    new TrialRecord.Trial<>("c-expired", 1, List.of(), "before"),
                    new TrialRecord.Trial<>("c-later", inAnHour, List.of(), "before"))));
            assertThat(first.await(30, TimeUnit.SECONDS)).as("the expired trial reverted").isTrue();
            assertThat(reverted).containsExactly("c-expired");
            assertThat(pending).containsExactly("c-later");
            timer.close();
        }
    }

    private static Set<String> platformThreadsNamed(String prefix) {
        Set<String> names = ConcurrentHashMap.newKeySet();
        Thread.getAllStackTraces().keySet().stream().filter(thread -> !thread.isVirtual())
                .map(Thread::getName).filter(name -> name.startsWith(prefix)).forEach(names::add);
        return names;
    }
}
