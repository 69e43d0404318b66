package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.config.ConfigException;
import dev.waldoconf.config.Plan;
import dev.waldoconf.config.PlanResolver;
import dev.waldoconf.config.ResolvedPlan;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.engine.ApplyResult;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.model.SwitchState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9's concurrent applies: 8 applies of random plans (each managing a random subset of VLANs)
 * at once over 4 switches, 50 rounds from one seed. Each apply previews and then applies as
 * {@code waldoconf apply --yes} does, through its own operator session. After each round, every
 * switch must hold what replaying the committed applies, one after another in a single order,
 * gives; so a refused apply changed nothing and no committed one lost another's VLANs.
 */
@Timeout(600)
class ConcurrentApplyTest {
    private static final int SWITCHES = 4;
    private static final int APPLIES = 8;
    private static final int ROUNDS = 50;
    private static final int PORTS = 8;
    private static final int RETRIES_ON_CONFLICT = 4;
    /** Far longer than a round takes on a loaded machine (seconds); only a stuck apply reaches it. */
    private static final Duration ROUND_LIMIT = Duration.ofMinutes(3);
    private static final long SEED = Long.getLong("concurrent.seed", 20261124L);

    @TempDir
    Path dir;
    private ServedSwitches served;

    @BeforeEach
    void start() throws Exception {
        List<MemoryVlanDevice> devices = new ArrayList<>();
        for (int i = 1; i <= SWITCHES; i++) {
            devices.add(new MemoryVlanDevice("sw-" + i, PORTS, SwitchState.factoryDefault(PORTS)));
        }
        served = ServedSwitches.inMemory(dir, devices);
    }

    @AfterEach
    void stop() throws Exception {
        if (served != null) {
            served.close();
        }
    }

    /** One apply of a round: its plan, and when it committed (by the order applies returned), if it did. */
    private record Attempt(Plan plan, Optional<Long> committedAt, String outcome) {
    }

    @Test
    void concurrentAppliesEndAsTheCommittedOnesReplayedInOneOrder() throws Exception {
        Random random = new Random(SEED);
        int committed = 0;
        Map<String, Integer> refusals = new java.util.TreeMap<>();
        for (int round = 0; round < ROUNDS; round++) {
            Map<String, SwitchState> start = served.readAll();
            List<Plan> plans = new ArrayList<>();
            Map<Plan, String> texts = new java.util.IdentityHashMap<>();
            for (int i = 0; i < APPLIES; i++) {
                String text = randomPlan(random);
                Plan plan = served.plan(text);
                plans.add(plan);
                texts.put(plan, text);
            }
            List<Attempt> attempts = runConcurrently(plans);
            List<Attempt> done = attempts.stream().filter(a -> a.committedAt().isPresent())
                    .sorted(Comparator.comparing(a -> a.committedAt().orElseThrow())).toList();
            committed += done.size();
            attempts.stream().filter(a -> a.committedAt().isEmpty())
                    .forEach(a -> refusals.merge(kind(a.outcome()), 1, Integer::sum));
            Map<String, SwitchState> end = served.readAll();
            assertThat(someOrderGives(start, done.stream().map(Attempt::plan).toList(), end))
                    .as("round %d (seed %d): the switches hold what the %d committed applies give in some order;"
                            + " outcomes %s%nstart %s%nend %s%ncommitted plans, in the order they returned:%n%s", round,
                            SEED, done.size(), attempts.stream().map(Attempt::outcome).toList(), start, end,
                            done.stream().map(a -> texts.get(a.plan())).toList())
                    .isTrue();
        }
        System.err.printf("ConcurrentApplyTest: %d of %d applies committed over %d rounds (seed %d); the others: %s%n",
                committed, ROUNDS * APPLIES, ROUNDS, SEED, refusals);
        assertThat(committed).as("more than one apply committed per round").isGreaterThan(ROUNDS);
    }

    /** An outcome without its file names and numbers, to count outcomes of one kind together. */
    private static String kind(String outcome) {
        String text = outcome.replaceAll("\\S*\\.yaml:\\d+:\\d+: ", "").replaceAll("\\s+", " ")
                .replaceAll("c[0-9a-z]+-[0-9a-z]+", "C").replaceAll("\\d+", "N");
        return text.substring(0, Math.min(90, text.length()));
    }

    /**
     * Runs the round's applies at once. A round that does not end within {@link #ROUND_LIMIT} fails
     * with every service's lock table, instead of hanging the build: an apply's waits cannot be
     * interrupted, so its threads are daemons, left behind when the test fails.
     */
    private List<Attempt> runConcurrently(List<Plan> plans) throws Exception {
        AtomicLong returned = new AtomicLong();
        List<Future<Attempt>> futures = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(plans.size(), Thread.ofPlatform().daemon().factory());
        try {
            for (Plan plan : plans) {
                futures.add(pool.submit(() -> applyOnce(plan, returned)));
            }
            long deadline = System.nanoTime() + ROUND_LIMIT.toNanos();
            List<Attempt> attempts = new ArrayList<>();
            for (Future<Attempt> future : futures) {
                try {
                    attempts.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
                } catch (TimeoutException stuck) {
                    throw new AssertionError("the round's applies did not end within " + ROUND_LIMIT
                            + "; the services' locks:\n" + served.describeLocks());
                }
            }
            return attempts;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Previews and applies {@code plan} as 'waldoconf apply --yes'; any refusal must have changed
     * nothing. Refused because another apply's change is still being confirmed, it tries again
     * (a few times, as an operator would), so that applies overlap more than once per round.
     */
    private Attempt applyOnce(Plan plan, AtomicLong returned) throws Exception {
        Attempt attempt = null;
        for (int tries = 1; tries <= RETRIES_ON_CONFLICT + 1; tries++) {
            try {
                ResolvedPlan preview = served.preview(plan);
                ApplyResult result = served.apply(preview, false);
                return result.outcome() == ApplyResult.Outcome.COMMITTED
                        ? new Attempt(plan, Optional.of(returned.incrementAndGet()), "committed")
                        : new Attempt(plan, Optional.empty(), result.outcome() + ": " + result.message());
            } catch (EngineException e) {
                attempt = new Attempt(plan, Optional.empty(), "EngineException: " + e.getMessage());
                if (e.kind() != EngineException.Kind.CONFLICT) {
                    return attempt;
                }
                Thread.sleep(10L * tries);
            } catch (ConfigException e) {
                return new Attempt(plan, Optional.empty(), "ConfigException: " + e.getMessage());
            }
        }
        return attempt;
    }

    /**
     * Whether replaying {@code plans} from {@code start}, in some order, gives {@code end}. The
     * order the applies returned in is tried first; it is nearly always the commit order.
     */
    private boolean someOrderGives(Map<String, SwitchState> start, List<Plan> plans, Map<String, SwitchState> end)
            throws ConfigException {
        List<Plan> order = new ArrayList<>(plans);
        if (replay(start, order).equals(end)) {
            return true;
        }
        int[] swaps = new int[order.size()];
        for (int i = 0; i < order.size(); ) {  // Heap's algorithm: every permutation, one swap apart
            if (swaps[i] < i) {
                java.util.Collections.swap(order, i % 2 == 0 ? 0 : swaps[i], i);
                if (replay(start, order).equals(end)) {
                    return true;
                }
                swaps[i]++;
                i = 0;
            } else {
                swaps[i] = 0;
                i++;
            }
        }
        return false;
    }

    private Map<String, SwitchState> replay(Map<String, SwitchState> start, List<Plan> order) throws ConfigException {
        Map<String, SwitchState> states = new LinkedHashMap<>(start);
        for (Plan plan : order) {
            ResolvedPlan resolved;
            try {
                resolved = PlanResolver.resolve(plan, served.inventory, states);
            } catch (ConfigException e) {
                return Map.of();  // this order could not have committed this plan
            }
            resolved.switches().forEach(change -> states.put(change.target().name(), change.desired()));
        }
        return states;
    }

    /**
     * A plan managing 1 to 3 of VLANs 10-15: each tagged on port 7 or 8 of random switches, now and
     * then untagged on its own access port, or deleted.
     */
    private static String randomPlan(Random random) {
        StringBuilder yaml = new StringBuilder("vlans:\n");
        List<Integer> ids = new ArrayList<>(List.of(10, 11, 12, 13, 14, 15));
        java.util.Collections.shuffle(ids, random);
        int managed = 1 + random.nextInt(3);
        for (int id : ids.subList(0, managed)) {
            yaml.append("  - id: ").append(id).append("\n");
            if (random.nextInt(8) == 0) {
                yaml.append("    absent: true\n");
                continue;
            }
            yaml.append("    name: v").append(id).append('-').append(random.nextInt(100)).append("\n");
            StringBuilder ports = new StringBuilder();
            for (int sw = 1; sw <= SWITCHES; sw++) {
                if (random.nextBoolean()) {
                    continue;
                }
                ports.append("      - switch: sw-").append(sw).append("\n");
                ports.append("        tagged: ").append(7 + random.nextInt(2)).append("\n");
                if (random.nextInt(10) == 0) {
                    // Each VLAN has its own access port (10 -> 1 ... 15 -> 6), so a plan never makes a port untagged twice.
                    ports.append("        untagged: ").append(id - 9).append("\n");
                }
            }
            yaml.append(ports.isEmpty() ? "    ports: []\n" : "    ports:\n" + ports);
        }
        // Access ports keep PVID 1, so a later plan that manages their VLAN without them stays valid.
        return yaml.append("pvids:\n  - group: all\n    ports: 1-6\n    vlan: 1\n").toString();
    }
}
