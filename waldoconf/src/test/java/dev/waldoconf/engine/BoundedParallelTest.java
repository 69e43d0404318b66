package dev.waldoconf.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BoundedParallelTest {
    private static List<String> switches(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> "lab-" + i).toList();
    }

    @Test
    void neverRunsMoreThanItsWindowAtOnceAndKeepsTheKeysOrder() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        BoundedParallel runner = new BoundedParallel(4, Duration.ofSeconds(30));

        BoundedParallel.Outcome<String, Integer> outcome = runner.run(switches(40), name -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            Thread.sleep(5);  // overlap the tasks so that the window is what limits them
            running.decrementAndGet();
            return name.length();
        });

        assertThat(most.get()).isBetween(1, 4);
        assertThat(outcome.failures()).isEmpty();
        assertThat(outcome.results().keySet()).containsExactlyElementsOf(switches(40));
    }

    @Test
    void aSwitchThatNeverAnswersIsNamedAndHoldsUpNobodyElse() {
        CountDownLatch never = new CountDownLatch(1);
        // One slot: every other switch must wait behind the silent one until its limit frees the slot.
        BoundedParallel runner = new BoundedParallel(1, Duration.ofMillis(300));

        BoundedParallel.Outcome<String, String> outcome = runner.run(List.of("lab-1", "lab-2", "lab-3"), name -> {
            if (name.equals("lab-1")) {
                never.await();
            }
            return "read " + name;
        });

        assertThat(outcome.results()).containsExactly(java.util.Map.entry("lab-2", "read lab-2"),
                java.util.Map.entry("lab-3", "read lab-3"));
        assertThat(outcome.failures()).containsOnlyKeys("lab-1");
        assertThat(outcome.failures().get("lab-1")).isEqualTo("no answer within 300 ms (the limit for one switch,"
                + " counted from when its own work started)");
    }

    @Test
    void waitingForASlotDoesNotCountAgainstASwitchsLimit() {
        // Twenty switches of 100 ms each through one slot take two seconds in all, twice the 1 s
        // limit of each; none may time out, because each one's clock starts with its own work.
        BoundedParallel runner = new BoundedParallel(1, Duration.ofSeconds(1));

        BoundedParallel.Outcome<String, String> outcome = runner.run(switches(20), name -> {
            Thread.sleep(100);
            return name;
        });

        assertThat(outcome.failures()).isEmpty();
        assertThat(outcome.results()).hasSize(20);
    }

    @Test
    void aFailingTaskGivesItsMessageAndTheOthersGoOn() {
        BoundedParallel runner = new BoundedParallel(8, Duration.ofSeconds(30));

        BoundedParallel.Outcome<String, String> outcome = runner.run(switches(3), name -> {
            if (name.equals("lab-2")) {
                throw new IllegalStateException("lab-2: community refused");
            }
            return name;
        });

        assertThat(outcome.results()).containsOnlyKeys("lab-1", "lab-3");
        assertThat(outcome.failures()).containsExactly(java.util.Map.entry("lab-2", "lab-2: community refused"));
    }

    @Test
    void refusesAKeyGivenTwiceAndAnEmptyWindow() {
        BoundedParallel runner = new BoundedParallel(2, Duration.ofSeconds(1));
        assertThatThrownBy(() -> runner.run(List.of("lab-1", "lab-1"), name -> name))
                .hasMessage("key lab-1 is given twice");
        assertThatThrownBy(() -> new BoundedParallel(0, Duration.ofSeconds(1)))
                .hasMessage("at least one task must run at a time, got 0");
    }

    @Test
    void allKeepsItsWindowAndReturnsEveryValueInKeyOrder() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        java.util.Map<String, Integer> values = BoundedParallel.all(4, switches(40), name -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(5);  // overlap the tasks so that the window is what limits them
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            running.decrementAndGet();
            return name.length();
        });

        assertThat(most.get()).isBetween(1, 4);
        assertThat(values.keySet()).containsExactlyElementsOf(switches(40));
        assertThat(values.get("lab-10")).isEqualTo(6);
    }

    /** An Error (such as Waldo's backout signal) reaches the caller unchanged, ahead of an earlier key's exception. */
    @Test
    void allThrowsAnErrorBeforeAnyExceptionAndKeepsTheOthersAsSuppressed() {
        CountDownLatch bothFailing = new CountDownLatch(2);
        AssertionError signal = new AssertionError("a signal the caller must see");
        assertThatThrownBy(() -> BoundedParallel.all(4, switches(3), name -> {
            if (name.equals("lab-3")) {
                return name;
            }
            bothFailing.countDown();
            awaitUnchecked(bothFailing); // both fail, so the choice between them is what is tested
            if (name.equals("lab-1")) {
                throw new IllegalStateException("lab-1: refused");
            }
            throw signal;
        })).isSameAs(signal).satisfies(thrown -> assertThat(thrown.getSuppressed())
                .singleElement().satisfies(other -> assertThat(other).hasMessage("lab-1: refused")));
    }

    @Test
    void allStartsNoTaskAfterOneFailed() {
        AtomicInteger started = new AtomicInteger();
        assertThatThrownBy(() -> BoundedParallel.all(1, switches(5), name -> {
            started.incrementAndGet();
            throw new IllegalStateException(name + ": unreachable");
        })).hasMessage("lab-1: unreachable");
        assertThat(started.get()).isEqualTo(1);
        assertThatThrownBy(() -> BoundedParallel.all(2, List.of("lab-1", "lab-1"), name -> name))
                .hasMessageContaining("given twice");
    }

    private static void awaitUnchecked(CountDownLatch latch) {
        try {
            if (!latch.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("gave up waiting for the other task");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
