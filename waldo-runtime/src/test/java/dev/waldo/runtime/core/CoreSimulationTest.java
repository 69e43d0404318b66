package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deterministic simulation of the protocol core (see {@link Simulation}).
 * Runs seeds 1..500 by default ({@code -Dsim.seeds=N} for another count,
 * {@code bin/sim-long} for the long run); {@code -Dsim.seed=N} runs just
 * seed N, and every failure names the seed that reproduces it. Every other
 * seed cuts and heals links; every seed divisible by 3 is plain; the others
 * crash and restart hosts with their storage, in the middle of writes too.
 */
class CoreSimulationTest {
    /** Seeds 1..N run by default; {@code -Dsim.seeds=N} runs more (or fewer). */
    private static final int DEFAULT_SEEDS = Integer.getInteger("sim.seeds", 500);
    private static final Simulation.Crashes CRASHES = new Simulation.Crashes(0.0005, 0.01, 0.01);

    @Test
    void committedHistoryIsSerializableAndAtomicUnderReorderingLossCutLinksAndCrashes() {
        List<Long> seeds = seeds(DEFAULT_SEEDS);
        Long chosen = Long.getLong("sim.seed");
        long started = System.nanoTime();
        int crashes = 0;
        int torn = 0;
        long delegations = 0;
        long readOnlyVotes = 0;
        for (long seed : seeds) {
            Simulation simulation = simulation(seed, Simulation.Fault.NONE);
            if (seed / 2 % 2 == 0) {
                simulation.withFastCommit(); // half the seeds, with and without cut links and crashes
            }
            List<String> violations = run(simulation, seed);
            delegations += simulation.delegations();
            readOnlyVotes += simulation.readOnlyVotes();
            assertThat(violations)
                    .as("serializable, atomic and clean (%s); reproduce with: -Dsim.seed=%d", simulation.summary(), seed)
                    .isEmpty();
            crashes += simulation.crashes();
            torn += simulation.tornWrites();
        }
        System.out.printf("simulation: %d seeds, %d crashes (%d tearing a write), %d delegations (fast commit on"
                + " half the seeds), %d read-only votes, 0 violations, %.1f s%n",
                seeds.size(), crashes, torn, delegations, readOnlyVotes, (System.nanoTime() - started) / 1e9);
        if (chosen == null) {
            assertThat(delegations).as("fast commit delegated some attempts").isPositive();
            assertThat(readOnlyVotes).as("parts that only read voted read-only").isPositive();
        }
    }

    /**
     * Claret's abstract locks in the simulation: a third of the roots add to tallies in the ADD
     * mode (adders share a tally), some reading it first; under the same reordering, loss, cut
     * links and crashes, every tally equals its committed adds and no two committed readers of a
     * tally read the same value. {@code -Dsim.tallySeeds=N} runs seeds 1..N (200 by default).
     */
    @Test
    void commutingAddsStaySerializableUnderReorderingLossCutLinksAndCrashes() {
        long started = System.nanoTime();
        List<Long> seeds = seeds(Integer.getInteger("sim.tallySeeds", 200));
        int crashes = 0;
        for (long seed : seeds) {
            Simulation simulation = simulation(seed, Simulation.Fault.NONE).withTallies();
            List<String> violations = run(simulation, seed);
            assertThat(violations)
                    .as("tallies serializable (%s); reproduce with: -Dsim.seed=%d", simulation.summary(), seed)
                    .isEmpty();
            crashes += simulation.crashes();
        }
        System.out.printf("simulation with tallies: %d seeds, %d crashes, 0 violations, %.1f s%n", seeds.size(), crashes,
                (System.nanoTime() - started) / 1e9);
    }

    /**
     * Shared appends in the simulation: a third of the roots append their number to a list on
     * each of two hosts (one in five on one host only) in the APPEND mode, which appenders share,
     * some reading one of the lists first; every fourth seed turns fast commit on. Under the same
     * reordering, loss, cut links and crashes, each list holds exactly the committed roots that
     * appended to it, once each; every read saw the list up to the reader's number; a root that
     * returned before another began comes first in the lists both appended to; and the lists
     * order no roots in a cycle. {@code -Dsim.listSeeds=N} runs seeds 1..N (200 by default).
     */
    @Test
    void sharedAppendsStaySerializableUnderReorderingLossCutLinksAndCrashes() {
        long started = System.nanoTime();
        List<Long> seeds = seeds(Integer.getInteger("sim.listSeeds", 200));
        int crashes = 0;
        long pairs = 0;
        for (long seed : seeds) {
            Simulation simulation = simulation(seed, Simulation.Fault.NONE).withLists();
            if (seed % 4 == 1) {
                simulation.withFastCommit();
            }
            List<String> violations = run(simulation, seed);
            assertThat(violations)
                    .as("shared appends serializable (%s); reproduce with: -Dsim.seed=%d", simulation.summary(), seed)
                    .isEmpty();
            crashes += simulation.crashes();
            pairs += simulation.rootPairsInTwoLists();
        }
        if (Long.getLong("sim.seed") == null) {
            assertThat(pairs).as("pairs of roots that two lists order, in %d seeds", seeds.size()).isPositive();
        }
        System.out.printf("simulation with lists: %d seeds, %d crashes, %d root pairs in two lists, 0 violations, %.1f s%n",
                seeds.size(), crashes, pairs, (System.nanoTime() - started) / 1e9);
    }

    /**
     * Tribune's optimistic concurrency control in the simulation: even seeds run every host
     * optimistic, odd seeds mix optimistic (odd-numbered) and locking hosts in one transaction;
     * every third seed adds the tally workload (reads and commuting adds). Under the same
     * reordering, loss, cut links and crashes the history stays serializable and atomic, and
     * every root ends. {@code -Dsim.occSeeds=N} runs seeds 1..N (100 by default).
     */
    @Test
    void optimisticHostsStaySerializableUnderReorderingLossCutLinksAndCrashes() {
        long started = System.nanoTime();
        List<Long> seeds = seeds(Integer.getInteger("sim.occSeeds", 100));
        int crashes = 0;
        long retries = 0;
        long pessimistic = 0;
        for (long seed : seeds) {
            Simulation.Concurrency concurrency = seed % 2 == 0
                    ? Simulation.Concurrency.OPTIMISTIC : Simulation.Concurrency.MIXED;
            Simulation simulation = simulation(seed, Simulation.Fault.NONE).withConcurrency(concurrency);
            if (seed % 3 == 0) {
                simulation.withTallies();
            }
            List<String> violations = run(simulation, seed);
            assertThat(violations)
                    .as("%s hosts serializable (%s); reproduce with: -Dsim.seed=%d", concurrency, simulation.summary(), seed)
                    .isEmpty();
            crashes += simulation.crashes();
            retries += simulation.retries();
            pessimistic += simulation.pessimisticAttempts();
        }
        System.out.printf("simulation with optimistic hosts: %d seeds, %d crashes, %d retries, %d pessimistic"
                + " attempts (the default fallback), 0 violations, %.1f s%n",
                seeds.size(), crashes, retries, pessimistic, (System.nanoTime() - started) / 1e9);
    }

    /**
     * The same with the pessimistic fallback as eager as it gets: an optimistic host runs a root
     * pessimistically (its validation locks taken as it uses state, wound-wait among such roots)
     * from its first refusal there on. Serializable, atomic, every root ends, and the fallback
     * really ran. {@code -Dsim.occFallbackSeeds=N} runs seeds 1..N (100 by default).
     */
    @Test
    void optimisticHostsThatFallBackToLockingStaySerializable() {
        long started = System.nanoTime();
        List<Long> seeds = seeds(Integer.getInteger("sim.occFallbackSeeds", 100));
        int crashes = 0;
        long retries = 0;
        long pessimistic = 0;
        for (long seed : seeds) {
            Simulation.Concurrency concurrency = seed % 2 == 0
                    ? Simulation.Concurrency.OPTIMISTIC : Simulation.Concurrency.MIXED;
            Simulation simulation = simulation(seed, Simulation.Fault.NONE).withConcurrency(concurrency, 1);
            if (seed % 3 == 0) {
                simulation.withTallies();
            }
            List<String> violations = run(simulation, seed);
            assertThat(violations)
                    .as("%s hosts with the fallback serializable (%s); reproduce with: -Dsim.seed=%d",
                            concurrency, simulation.summary(), seed)
                    .isEmpty();
            crashes += simulation.crashes();
            retries += simulation.retries();
            pessimistic += simulation.pessimisticAttempts();
        }
        assertThat(pessimistic).as("attempts that ran pessimistically in %d seeds", seeds).isPositive();
        System.out.printf("simulation with optimistic hosts falling back to locks after 1 refusal: %d seeds, %d crashes,"
                + " %d retries, %d pessimistic attempts, 0 violations, %.1f s%n",
                seeds.size(), crashes, retries, pessimistic, (System.nanoTime() - started) / 1e9);
    }

    /**
     * Every host settles distributed outcomes with the decision register (Paxos Commit's idea),
     * which answers each ask at a random later step or loses it; participants in doubt ask it to
     * back attempts out while their coordinators are crashed or cut off. Under the same
     * reordering, loss, cut links and crashes the history stays serializable and atomic, no
     * outcome contradicts the register's, and every root ends. {@code -Dsim.registerSeeds=N}
     * runs seeds 1..N (200 by default).
     */
    @Test
    void replicatedDecisionsStaySerializableAndAtomicUnderReorderingLossCutLinksAndCrashes() {
        long started = System.nanoTime();
        List<Long> seeds = seeds(Integer.getInteger("sim.registerSeeds", 200));
        int crashes = 0;
        long answers = 0;
        long backouts = 0;
        for (long seed : seeds) {
            Simulation simulation = simulation(seed, Simulation.Fault.NONE).withReplicatedDecisions();
            if (seed % 3 == 0) {
                simulation.withTallies();
            }
            List<String> violations = run(simulation, seed);
            assertThat(violations)
                    .as("replicated decisions (%s); reproduce with: -Dsim.seed=%d", simulation.summary(), seed)
                    .isEmpty();
            crashes += simulation.crashes();
            answers += simulation.registerAnswers();
            backouts += simulation.registerBackouts();
        }
        if (Long.getLong("sim.seed") == null) {
            assertThat(backouts).as("participants in doubt settled some attempts as backed out").isPositive();
        }
        System.out.printf("simulation with a decision register: %d seeds, %d crashes, %d register answers (%d backed"
                + " out), 0 violations, %.1f s%n", seeds.size(), crashes, answers, backouts, (System.nanoTime() - started) / 1e9);
    }

    /**
     * Walter's snapshot reads in the simulation: a quarter of the roots are read-only and read a
     * snapshot, each of one or two counters or of every account of every host; even seeds also
     * run the tallies, every third seed mixes optimistic and locking hosts, every fourth runs fast commit. Under the same
     * reordering, loss, cut links and crashes, every committed reader saw one moment between its
     * start and its return (counters within the increments returned before it and begun before
     * it returned; every account adding up to the total), and the writers' history stays
     * serializable and atomic. {@code -Dsim.snapshotSeeds=N} runs seeds 1..N (200 by default).
     */
    @Test
    void snapshotReadsStayStrictlySerializableUnderReorderingLossCutLinksAndCrashes() {
        long started = System.nanoTime();
        List<Long> seeds = seeds(Integer.getInteger("sim.snapshotSeeds", 200));
        int crashes = 0;
        long readers = 0;
        long retries = 0;
        for (long seed : seeds) {
            Simulation simulation = simulation(seed, Simulation.Fault.NONE).withSnapshotReads();
            if (seed % 2 == 0) {
                simulation.withTallies();
            }
            if (seed % 3 == 0) {
                simulation.withConcurrency(Simulation.Concurrency.MIXED);
            }
            if (seed % 4 == 1) {
                simulation.withFastCommit(); // a read-only root on one other host is delegated there
            }
            List<String> violations = run(simulation, seed);
            assertThat(violations)
                    .as("snapshot reads strictly serializable (%s); reproduce with: -Dsim.seed=%d", simulation.summary(), seed)
                    .isEmpty();
            crashes += simulation.crashes();
            readers += simulation.committedReaders();
            retries += simulation.retries();
        }
        assertThat(readers).as("read-only roots that committed in %d seeds", seeds.size()).isPositive();
        System.out.printf("simulation with snapshot reads: %d seeds, %d crashes, %d read-only roots committed, %d retries"
                + " in all, 0 violations, %.1f s%n", seeds.size(), crashes, readers, retries, (System.nanoTime() - started) / 1e9);
    }

    /** Snapshot reads that neither wait for nor validate against yes-voters: a read misses a commit that returned before it began. */
    @Test
    void snapshotReadsThatIgnoreWritersWhoVotedYesAreCaught() {
        assertThat(firstViolation(Simulation.Fault.SNAPSHOT_IGNORES_PREPARED)).isNotNull();
    }

    /** Snapshot reads never validated: a reader of every account sees a transfer on one host and not the other. */
    @Test
    void snapshotReadsThatAreNotValidatedAreCaught() {
        assertThat(firstViolation(Simulation.Fault.SNAPSHOT_WITHOUT_VALIDATION)).isNotNull();
    }

    /** A register that keeps the latest proposal: a late commit overrides a participant's settled backout. */
    @Test
    void aRegisterThatDoesNotKeepTheFirstProposalIsCaught() {
        assertThat(firstViolation(Simulation.Fault.REGISTER_KEEPS_LATEST)).isNotNull();
    }

    /** Abstract locks whose reads share a tally with its adders: two read-then-add transactions read one value. */
    @Test
    void readsThatShareWithAddsAreCaught() {
        assertThat(firstViolation(Simulation.Fault.READS_SHARE_WITH_ADDS)).isNotNull();
    }

    /** Adds installed as the value they computed instead of as deltas: concurrent adders lose updates. */
    @Test
    void addsInstalledAsValuesAreCaught() {
        assertThat(firstViolation(Simulation.Fault.ADDS_INSTALL_VALUES)).isNotNull();
    }

    /**
     * Shared appends installed as their commits arrive instead of in the order of their stamps,
     * with appenders' roots returning at the decision: two hosts append two roots' numbers to
     * their lists in opposite orders (a G0 cycle), or a root that returned lands after one begun
     * later.
     */
    @Test
    void appendsInstalledAsTheyArriveAreCaught() {
        assertThat(firstViolation(Simulation.Fault.APPENDS_INSTALLED_AS_THEY_ARRIVE))
                .containsPattern("in a cycle|list\\d holds \\d+ first");
    }

    /**
     * Shared appends stamped by a Lamport clock alone (no real time, no commit wait) keep the lists
     * serializable but not in real-time order: the cycle check, which takes real time in, finds a
     * root ordered before one that returned before it began, through lists on other hosts.
     */
    @Test
    void stampsWithoutRealTimeLoseRealTimeOrder() {
        assertThat(firstViolation(Simulation.Fault.STAMPS_WITHOUT_REAL_TIME, 3000)).contains("real time");
    }

    /** A storage that loses participants' prepared records: a restart forgets a yes vote, and atomicity breaks. */
    @Test
    void aStorageThatForgetsPreparedRecordsIsCaught() {
        assertThat(firstViolation(Simulation.Fault.FORGET_PREPARED)).isNotNull();
    }

    /** A host layer that sends before it persists: a vote or a Commit outlives the record it depends on. */
    @Test
    void sendingBeforePersistingIsCaught() {
        assertThat(firstViolation(Simulation.Fault.SEND_BEFORE_PERSIST)).isNotNull();
    }

    /**
     * A host layer that reports bindings finished while they still commit or undo: the core then
     * lets the next attempt read what the device is still changing.
     */
    @Test
    void reportingBindingsFinishedTooEarlyIsCaught() {
        assertThat(firstViolation(Simulation.Fault.FINISH_BEFORE_BINDINGS)).isNotNull();
    }

    /**
     * A host layer whose committed() reads do not wait for undecided writers: a commit returns at
     * the decision, so a read right after it misses writes a participant has not installed yet.
     */
    @Test
    void committedReadsThatDoNotWaitForUndecidedWritersAreCaught() {
        assertThat(firstViolation(Simulation.Fault.READS_DO_NOT_WAIT)).isNotNull();
    }

    /**
     * A participant prepared with the root's last call that releases its locks as its reply
     * carries the yes vote: others read and overwrite state it is about to install.
     */
    @Test
    void releasingLocksAtTheVoteCarriedByTheLastCallsReplyIsCaught() {
        assertThat(firstViolation(Simulation.Fault.RELEASE_LOCKS_AT_EARLY_VOTE)).isNotNull();
    }

    /**
     * Fast commit whose delegate commits without logging first: a delegation sent again after
     * the delegate restarted is answered "backed out", and the root runs again what had committed.
     */
    @Test
    void aDelegateThatCommitsWithoutLoggingIsCaught() {
        assertThat(firstViolation(Simulation.Fault.SKIP_DELEGATED_COMMIT_LOG)).isNotNull();
    }

    /** The first violation the broken variant causes within 300 crashing seeds, or null. */
    private static String firstViolation(Simulation.Fault fault) {
        return firstViolation(fault, 300);
    }

    /** The first violation the broken variant causes within {@code seeds} crashing seeds, or null. */
    private static String firstViolation(Simulation.Fault fault, int seeds) {
        for (long seed = 1; seed <= seeds; seed++) {
            if (seed % 3 == 0) {
                continue;
            }
            Simulation simulation = simulation(seed, fault);
            if (fault == Simulation.Fault.READS_SHARE_WITH_ADDS || fault == Simulation.Fault.ADDS_INSTALL_VALUES) {
                simulation.withTallies();
            }
            if (fault == Simulation.Fault.APPENDS_INSTALLED_AS_THEY_ARRIVE || fault == Simulation.Fault.STAMPS_WITHOUT_REAL_TIME) {
                simulation.withLists();
            }
            if (fault == Simulation.Fault.REGISTER_KEEPS_LATEST) {
                simulation.withReplicatedDecisions();
            }
            if (fault == Simulation.Fault.SKIP_DELEGATED_COMMIT_LOG) {
                simulation.withFastCommit();
            }
            if (fault == Simulation.Fault.SNAPSHOT_IGNORES_PREPARED || fault == Simulation.Fault.SNAPSHOT_WITHOUT_VALIDATION) {
                simulation.withSnapshotReads();
            }
            List<String> violations = run(simulation, seed);
            if (!violations.isEmpty()) {
                System.out.println(fault + " caught at seed " + seed + ": " + violations.get(0));
                return violations.get(0);
            }
        }
        return null;
    }

    private static Simulation simulation(long seed, Simulation.Fault fault) {
        int hosts = 2 + (int) (seed % 4);
        double cutRate = seed % 2 == 0 ? 0.002 : 0;
        Simulation.Crashes crashes = seed % 3 == 0 ? Simulation.Crashes.NONE : CRASHES;
        return new Simulation(seed, hosts, 200, 0.05, cutRate, crashes, fault);
    }

    /** Seeds 1..{@code count}, or only the one {@code -Dsim.seed=N} names (to reproduce a failure). */
    private static List<Long> seeds(int count) {
        Long chosen = Long.getLong("sim.seed");
        if (chosen != null) {
            return List.of(chosen);
        }
        List<Long> seeds = new ArrayList<>();
        for (long seed = 1; seed <= count; seed++) {
            seeds.add(seed);
        }
        return seeds;
    }

    /** Runs one seed; a run that does not finish counts as a violation. */
    private static List<String> run(Simulation simulation, long seed) {
        try {
            boolean finished = simulation.run(2_000_000);
            List<String> violations = new ArrayList<>(simulation.check());
            if (!finished) {
                violations.add(0, "not every transaction finished within 2,000,000 steps: " + simulation.unfinished());
            }
            if (Boolean.getBoolean("sim.verbose")) {
                System.out.println("seed " + seed + ": " + simulation.summary());
            }
            return violations;
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError("simulation crashed; reproduce with: -Dsim.seed=" + seed, e);
        }
    }
}
