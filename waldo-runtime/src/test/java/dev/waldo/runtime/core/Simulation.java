package dev.waldo.runtime.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import dev.waldo.runtime.storage.InMemoryStorage;

/**
 * Many {@link HostCore}s in one thread, driven by one seeded {@link Random}:
 * which transaction starts where, which link delivers next (links stay FIFO,
 * as the transport contract promises, but interleave at random), when hosts
 * tick, which commit-phase messages are lost (the coordinators' re-sends
 * must make up for them), and which links are cut and healed. A tiny host
 * layer plays the transaction bodies: counter increments (which catch a
 * NetworkException and go on without that host) and transfers between
 * accounts (which let it back the whole transaction out) on random hosts;
 * bindings that took part finish their commit or abort at a random later step.
 * With {@link Crashes}, hosts crash between steps or in the middle of a write
 * to their {@link InMemoryStorage} (tearing it), and restart from it; a
 * host's committed values are its durable state (a device), which knows the
 * attempts it applied (and its core's clock at the last install, which a
 * restart gives back). With {@link #withSnapshotReads}, a quarter of the roots
 * are read-only and read a snapshot ({@link HostCore#readSnapshot}): counters,
 * or every account of every host. With {@link #withLists}, a third of the
 * roots append their number to lists on two hosts in the shared APPEND mode,
 * installed onto each host's durable lists in the order the core's installs
 * come (see {@link AppendOrder}).
 *
 * <p>After the run, {@link #check()} verifies that the committed history is
 * serializable: every counter's committed increments read 0, 1, ..., n-1 in
 * some order and the counter ends at n; transfers conserve the total; every
 * root ended exactly once (or was lost with its host); no attempt was both
 * installed and discarded; every host that voted yes on a committed attempt
 * installed it; no durable outcome was contradicted; no lock, attempt or
 * attempt in doubt is left anywhere; each list holds every committed root that
 * appended to it once and nothing else, each read of a list saw it as it ended
 * up to the reader's own number, the order the lists of all hosts put the
 * roots in has no cycle, real time taken in (a root that returned before
 * another began comes first).
 * While it runs, it checks that no attempt reads a variable on a host while
 * the bindings of another attempt that wrote it there are still committing or
 * undoing (the device is still changing).
 */
final class Simulation {
    static final int COUNTERS = 2;
    static final int ACCOUNTS = 3;
    /** Counters updated through Claret's commuting ADD mode (only with {@link #withTallies}). */
    static final int TALLIES = 2;
    /** Lists appended to in the shared APPEND mode, per host (only with {@link #withLists}). */
    static final int LISTS = 2;
    static final long INITIAL_BALANCE = 1_000;
    private static final int OBJECTS_PER_HOST = 3;
    private static final boolean TRACE = Boolean.getBoolean("sim.trace");

    private record Op(int host, String variable, long delta) {
    }

    private enum Wait { NONE, LOCK, REPLY, END }

    /** A root transaction's body: its ops run in order, locally or through calls. */
    private final class Root {
        final int number;
        final int host;
        final long object;
        final List<Op> ops;
        final boolean aborts;
        final boolean refused;
        /** Read-only, reading a snapshot: its ops read (delta 0) and it writes nothing. */
        boolean readOnly;
        /** The step it began at and, once its caller heard it committed, the step it returned at. */
        long beganAt;
        long returnedAt = -1;
        boolean networkFailed;
        /** Its host crashed while it ran: its caller is gone, and it never ends. */
        boolean lost;
        TxnId attempt;
        int next;
        Wait wait = Wait.NONE;
        long waitingCall;
        Decision.Result result;

        Root(int number, int host, long object, List<Op> ops, boolean aborts, boolean refused) {
            this.number = number;
            this.host = host;
            this.object = object;
            this.ops = ops;
            this.aborts = aborts;
            this.refused = refused;
        }
    }

    /** Host {@code host}, in its run {@code run}, asked the register to settle {@code txn}. */
    private record Ask(int host, int run, TxnId txn, long commitStamp) {
    }

    /** A call being served: one op on the serving host. */
    private record Served(TxnId txn, long callId, Op op) {
    }

    private final Random random;
    private final int hostCount;
    private final int transactions;
    private final HostCore[] cores;
    private final Map<Long, ArrayDeque<Envelope>> links = new TreeMap<>();
    /**
     * Unhurried messages (a commit or an ack nothing waits for, {@link Envelope#unhurried()}) a
     * sender holds back, per link, as a transport piggybacks them: they join the link, in order,
     * just before the next message sent on it, or on their own at a random later step (the
     * piggyback delay passed). A cut or a crash loses them with the frame that would have carried them.
     */
    private final Map<Long, ArrayDeque<Envelope>> held = new TreeMap<>();
    private boolean fastCommit;
    private int delegations;
    /** Attempts whose root's host delegated the decision (fast commit). */
    private final java.util.Set<TxnId> delegatedAttempts = new java.util.HashSet<>();
    private final List<Map<String, Long>> committed = new ArrayList<>();
    /**
     * Per host, its lists (durable state, like {@link #committed}): each install appends the
     * attempt's numbers in the order the core's {@link Decision.Install}s arrive.
     */
    private final List<Map<String, List<Long>>> committedLists = new ArrayList<>();
    private final Map<TxnId, Map<Integer, Map<String, Long>>> working = new HashMap<>();
    private final Map<TxnId, List<String>> reads = new HashMap<>();
    /** What read-only roots' attempts read, "host:variable=value", as their roots saw it. */
    private final Map<TxnId, List<String>> snapshotReads = new HashMap<>();
    /** What read-then-append roots' attempts read of a list, "host:listN=a,b,c", as their roots saw it. */
    private final Map<TxnId, List<String>> listReads = new HashMap<>();
    private final Map<TxnId, Root> rootsByAttempt = new HashMap<>();
    private final Map<String, Served> servedWaitingForLock = new HashMap<>();
    private final List<Root> roots = new ArrayList<>();
    private final Map<TxnId, Integer> installs = new HashMap<>();
    /** Per attempt, the hosts that discarded it. */
    private final Map<TxnId, java.util.Set<Integer>> discards = new HashMap<>();
    /** Per attempt, the hosts the root knows took part: its own and those whose calls returned. */
    private final Map<TxnId, java.util.Set<Integer>> joined = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final java.util.Set<Long> cutLinks = new java.util.TreeSet<>();
    /** Attempts whose bindings (played by the simulation) finish later: "host/attempt". */
    private final java.util.Set<String> bound = new java.util.HashSet<>();
    /** Bound attempts installed or discarded whose bindings have not finished yet. */
    private final List<Map.Entry<Integer, TxnId>> unfinished = new ArrayList<>();
    private boolean cutLinksSeen;
    private final double lossRate;
    private final double cutRate;
    private final Crashes crashes;
    private final Fault fault;
    private final InMemoryStorage[] storages;
    private final java.util.Set<Integer> crashed = new java.util.TreeSet<>();
    /** Per host, how many times it started: attempt serials of run r start above r * 10^9. */
    private final int[] runs;
    /**
     * Per host and peer, the peer's run the host last connected to: a link that comes up to a newer
     * run reports the restart first, as the transport does (it compares the peer's incarnation).
     */
    private final int[][] runSeen;
    /** Per host, the attempts its durable state (the simulated device) has applied: installs are idempotent. */
    private final List<java.util.Set<TxnId>> applied = new ArrayList<>();
    /**
     * Per host, its core's clock when its durable state last applied an install, kept with that
     * state and given back at a restart ({@link HostCore#advanceClock}).
     */
    private final long[] clockAtInstall;
    /** Per attempt, the first outcome made durable anywhere (a logged commit, or a participant's logged end). */
    private final Map<TxnId, Boolean> durableOutcome = new HashMap<>();
    /** Per attempt, the hosts that voted yes on it. */
    private final Map<TxnId, java.util.Set<Integer>> votedYes = new HashMap<>();
    /** Per attempt, the hosts that voted read-only ({@link HostCore#voteReadOnly}): they install nothing. */
    private final Map<TxnId, java.util.Set<Integer>> votedReadOnly = new HashMap<>();
    /**
     * The decision register ({@link #withReplicatedDecisions}): per attempt, the first outcome
     * proposed. It is replicated, so no host's crash loses it.
     */
    /** The register's first proposal per attempt: the commit's stamp, or 0 for a backout. */
    private final Map<TxnId, Long> register = new HashMap<>();
    /** Asks of the register on their way: answered at a random later step, or lost. */
    private final List<Ask> asks = new ArrayList<>();
    private boolean replicatedDecisions;
    /** How many asks of the register were answered, and how many of those answers were "backed out". */
    private int registerAnswers;
    private int registerBackouts;
    private int crashCount;
    private boolean tallies;
    private boolean lists;
    private boolean readOnlyRoots;
    private Concurrency concurrency = Concurrency.LOCKS;
    /** Optimistic hosts' {@link HostCore#useOptimisticConcurrencyLockingAfter}, or -1 for the host default. */
    private int lockAfterRefusals = -1;
    /** Attempts that ran pessimistically on optimistic hosts, in host runs that crashed since. */
    private long pessimisticInCrashedRuns;
    private int tornWrites;
    private boolean crashing;
    private long steps;
    /** The last real time read ({@link #realTimeNow}). */
    private long lastRealTime;

    /** How often hosts crash: between steps, and in the middle of a write to their storage. */
    record Crashes(double betweenSteps, double duringWrite, double restart) {
        static final Crashes NONE = new Crashes(0, 0, 0);
    }

    /** A deliberately broken host layer or storage, which the simulation must catch. */
    enum Fault {
        /** Correct: persist, then apply, then send. */
        NONE,
        /** The storage loses every participant's prepared record, so a restart forgets its yes vote. */
        FORGET_PREPARED,
        /** The host layer sends a drain's messages before it persists its records. */
        SEND_BEFORE_PERSIST,
        /** The host layer reports bindings finished as soon as it applies an install or discard. */
        FINISH_BEFORE_BINDINGS,
        /**
         * committed() reads do not wait for attempts that voted yes and are undecided on their host,
         * so a read right after a commit returned (at the decision) misses its writes.
         */
        READS_DO_NOT_WAIT,
        /**
         * A tally's read takes the ADD mode instead of READ, so it shares the tally with
         * concurrent adders (abstract locks whose reads are compatible with adds): two
         * read-then-add transactions read the same value.
         */
        READS_SHARE_WITH_ADDS,
        /**
         * A tally's add is installed as the value it made from the committed value it saw (no
         * delta), so of two concurrent adders the first to install is lost.
         */
        ADDS_INSTALL_VALUES,
        /**
         * A participant prepared with the root's last call releases its locks as its reply
         * carries the yes vote, before the decision: others read and overwrite what it is
         * about to install.
         */
        RELEASE_LOCKS_AT_EARLY_VOTE,
        /**
         * The decision register keeps the latest proposal instead of the first, so a coordinator
         * asking to commit overrides a participant that already backed out on the register's word.
         */
        REGISTER_KEEPS_LATEST,
        /**
         * With fast commit on, a delegate commits without logging the commit first: after a
         * restart it answers the delegation sent again as backed out, and the root retries what
         * had committed there.
         */
        SKIP_DELEGATED_COMMIT_LOG,
        /**
         * Snapshot reads ignore writers that voted yes and are undecided (neither waited for nor
         * checked at validation): a read misses a write committed before it began.
         */
        SNAPSHOT_IGNORES_PREPARED,
        /** Snapshot reads are never validated: reads on different hosts may see different moments. */
        SNAPSHOT_WITHOUT_VALIDATION,
        /**
         * Every core installs a committed attempt as its commit arrives, not in the order of the
         * commits' stamps ({@link HostCore#breakByInstallingAppendsAsTheyArrive}): two hosts may
         * append two roots' numbers to their lists in opposite orders.
         */
        APPENDS_INSTALLED_AS_THEY_ARRIVE,
        /**
         * Shared appends ordered by Lamport stamps alone, with no real time in them and no commit
         * wait ({@link HostCore#useRealTimeStamps} left off), as before they kept real time: the
         * lists stay serializable, but an appender begun after another returned may be ordered
         * before one that the first was ordered after.
         */
        STAMPS_WITHOUT_REAL_TIME
    }

    Simulation(long seed, int hostCount, int transactions, double lossRate, double cutRate) {
        this(seed, hostCount, transactions, lossRate, cutRate, Crashes.NONE, Fault.NONE);
    }

    Simulation(long seed, int hostCount, int transactions, double lossRate, double cutRate, Crashes crashes,
               Fault fault) {
        this.random = new Random(seed);
        this.hostCount = hostCount;
        this.transactions = transactions;
        this.lossRate = lossRate;
        this.cutRate = cutRate;
        this.crashes = crashes;
        this.fault = fault;
        this.cores = new HostCore[hostCount + 1];
        this.storages = new InMemoryStorage[hostCount + 1];
        this.runs = new int[hostCount + 1];
        this.runSeen = new int[hostCount + 1][hostCount + 1];
        this.clockAtInstall = new long[hostCount + 1];
        committed.add(Map.of());
        committedLists.add(Map.of());
        applied.add(java.util.Set.of());
        for (int h = 1; h <= hostCount; h++) {
            storages[h] = new InMemoryStorage();
            storages[h].load();
            cores[h] = withFault(new HostCore(h, 3));
            applied.add(new java.util.HashSet<>());
            Map<String, Long> values = new LinkedHashMap<>();
            for (int i = 0; i < COUNTERS; i++) {
                values.put("counter" + i, 0L);
            }
            for (int i = 0; i < ACCOUNTS; i++) {
                values.put("account" + i, INITIAL_BALANCE);
            }
            for (int i = 0; i < TALLIES; i++) {
                values.put("tally" + i, 0L);
            }
            committed.add(values);
            Map<String, List<Long>> hostLists = new LinkedHashMap<>();
            for (int i = 0; i < LISTS; i++) {
                hostLists.put("list" + i, new ArrayList<>());
            }
            committedLists.add(hostLists);
        }
    }

    /**
     * Adds tally transactions to the workload (a third of the roots): 1 or 2 adds to tallies in
     * the ADD mode, each possibly preceded by a READ of the tally, on random hosts. Abstract locks
     * let adders share a tally; the check wants the reads of a tally distinct (each reader adds
     * after it reads) and every tally equal to its committed adds.
     */
    Simulation withTallies() {
        tallies = true;
        return this;
    }

    /**
     * Adds list transactions to the workload (a third of the roots that are not tally roots): each
     * appends its root number to a list on each of two different random hosts (one in five on one
     * host only) in the APPEND mode, which appenders share; one in four reads the first of its
     * lists before it appends to it (READ, then an upgrade to APPEND). The check wants each
     * committed root's number exactly once in each list it appended to and no other number in
     * any list; each read to be the list as it ended, up to the reader's own number; and no cycle
     * in the order the lists of all hosts put the roots in, with real time (a root that returned
     * before another began comes first). Every host stamps with the simulation's real time.
     */
    Simulation withLists() {
        lists = true;
        for (int h = 1; h <= hostCount; h++) {
            useRealTime(cores[h]);
        }
        return this;
    }

    /**
     * Gives a core the simulation's real time ({@link HostCore#useRealTimeStamps}), which shared
     * appends need to keep real-time order across lists.
     */
    private void useRealTime(HostCore core) {
        if (fault != Fault.STAMPS_WITHOUT_REAL_TIME) {
            core.useRealTimeStamps(this::realTimeNow, 0);
        }
    }

    /**
     * The simulation's real time in nanoseconds: a second per step, and a microsecond more at every
     * read within a step, so that it never stands still and a later step always reads later.
     */
    private long realTimeNow() {
        lastRealTime = Math.max(lastRealTime + 1_000, steps * 1_000_000_000L);
        return lastRealTime;
    }

    /**
     * Turns Walter's fast commit on for every host ({@link HostCore#useFastCommit}): a root that
     * holds nothing on its host and took part on one other host only has that host decide alone.
     */
    Simulation withFastCommit() {
        fastCommit = true;
        for (int h = 1; h <= hostCount; h++) {
            cores[h].useFastCommit(true);
        }
        return this;
    }

    /** How many parts voted read-only ({@link HostCore#voteReadOnly}). */
    long readOnlyVotes() {
        return votedReadOnly.values().stream().mapToLong(java.util.Set::size).sum();
    }

    /** How many delegations (fast commits asked of one host) were sent, re-sends included. */
    int delegations() {
        return delegations;
    }

    /**
     * Adds read-only roots that read a snapshot to the workload (a quarter of the roots): each reads
     * one or two counters on random hosts, or every account of every host. A committed one must
     * have read a counter no lower than the increments whose roots returned before it began and
     * no higher than those begun before it returned (real-time order), and every account
     * adding up to the constant total (one consistent moment across hosts).
     */
    Simulation withSnapshotReads() {
        readOnlyRoots = true;
        return this;
    }

    /** Which hosts validate optimistically ({@link HostCore#useOptimisticConcurrency}) instead of locking. */
    enum Concurrency {
        /** Every host locks (wound-wait with primaries), the default. */
        LOCKS,
        /** Every host validates optimistically. */
        OPTIMISTIC,
        /** Odd-numbered hosts validate optimistically, the others lock: transactions span both kinds. */
        MIXED
    }

    /** Makes the hosts {@code concurrency} names validate optimistically, now and after every restart. */
    Simulation withConcurrency(Concurrency concurrency) {
        return withConcurrency(concurrency, -1);
    }

    /**
     * Like {@link #withConcurrency(Concurrency)}, with optimistic hosts that run a root
     * pessimistically once they refused it {@code lockAfterRefusals} times (0: never; -1: the
     * host default).
     */
    Simulation withConcurrency(Concurrency concurrency, int lockAfterRefusals) {
        this.concurrency = concurrency;
        this.lockAfterRefusals = lockAfterRefusals;
        for (int h = 1; h <= hostCount; h++) {
            cores[h] = withFault(cores[h]);
        }
        return this;
    }

    /**
     * Makes every host settle distributed outcomes with the decision register
     * ({@link HostCore#useReplicatedDecisions}), now and after every restart. The register
     * answers each ask at a random later step, or loses it (one in ten): the asker asks again.
     */
    Simulation withReplicatedDecisions() {
        this.replicatedDecisions = true;
        for (int h = 1; h <= hostCount; h++) {
            cores[h] = withFault(cores[h]);
        }
        return this;
    }

    /** Runs until every transaction ended and every message was delivered; false if it gave up. */
    boolean run(long maxSteps) {
        while (!finished()) {
            if (++steps > maxSteps) {
                return false;
            }
            double choice = random.nextDouble();
            if (allEnded()) {
                healAll();
                restartAll();
            }
            if (random.nextDouble() < crashes.betweenSteps()) {
                crashRandomHost();
            } else if (!crashed.isEmpty() && random.nextDouble() < crashes.restart()) {
                restart(crashed.iterator().next());
            }
            if (random.nextDouble() < cutRate) {
                cutRandomLink();
            } else if (!cutLinks.isEmpty() && random.nextDouble() < cutRate * 5) {
                heal(cutLinks.iterator().next());
            }
            if (!asks.isEmpty() && random.nextDouble() < 0.1) {
                answer(asks.remove(random.nextInt(asks.size())));
                continue;
            }
            if (!unfinished.isEmpty() && random.nextDouble() < 0.2) {
                Map.Entry<Integer, TxnId> done = unfinished.remove(random.nextInt(unfinished.size()));
                cores[done.getKey()].finished(done.getValue());
                pump(done.getKey());
                continue;
            }
            if (!held.isEmpty() && random.nextDouble() < 0.05) {
                flushHeld(List.copyOf(held.keySet()).get(random.nextInt(held.size())));
                continue;
            }
            if (roots.size() < transactions && choice < 0.3) {
                startRoot();
            } else if (!links.isEmpty() && choice < 0.97) {
                deliverOne();
            } else {
                int h = 1 + random.nextInt(hostCount);
                if (!crashed.contains(h)) {
                    tick(h);
                }
            }
        }
        return true;
    }

    long steps() {
        return steps;
    }

    /** How many asks of the decision register were answered ({@link #withReplicatedDecisions}). */
    int registerAnswers() {
        return registerAnswers;
    }

    /** How many of those answers settled an attempt as backed out. */
    int registerBackouts() {
        return registerBackouts;
    }

    /** How many times a host crashed in this run. */
    int crashes() {
        return crashCount;
    }

    /** How many of those crashes tore the record being written. */
    int tornWrites() {
        return tornWrites;
    }

    private boolean finished() {
        if (!allEnded() || !links.isEmpty() || !held.isEmpty() || !cutLinks.isEmpty() || !unfinished.isEmpty() || !crashed.isEmpty()
                || !asks.isEmpty()) {
            return false;
        }
        for (int h = 1; h <= hostCount; h++) {
            // Attempts in doubt must be resolved by their peers, now all reachable.
            if (cores[h].undeliveredDecisions() > 0 || cores[h].liveAttempts() > 0) {
                return false;
            }
        }
        return true;
    }

    private boolean allEnded() {
        if (roots.size() < transactions) {
            return false;
        }
        for (Root root : roots) {
            if (root.result == null && !root.lost) {
                return false;
            }
        }
        return true;
    }

    // ---- workload --------------------------------------------------------------------------

    private void startRoot() {
        int host = 1 + random.nextInt(hostCount);
        if (crashed.contains(host)) {
            return;
        }
        long object = 1 + random.nextInt(OBJECTS_PER_HOST);
        List<Op> ops = new ArrayList<>();
        boolean readOnly = readOnlyRoots && random.nextInt(4) == 0;
        if (readOnly) {
            ops.addAll(snapshotReadOps());
        } else if (tallies && random.nextInt(3) == 0) {
            int adds = 1 + random.nextInt(2);
            for (int i = 0; i < adds; i++) {
                int on = 1 + random.nextInt(hostCount);
                String tally = "tally" + random.nextInt(TALLIES);
                if (random.nextBoolean()) {
                    ops.add(new Op(on, tally, 0)); // read it first
                }
                ops.add(new Op(on, tally, 1));
            }
        } else if (lists && random.nextInt(3) == 0) {
            ops.addAll(listOps());
        } else if (random.nextBoolean()) {
            int increments = 1 + random.nextInt(2);
            for (int i = 0; i < increments; i++) {
                ops.add(new Op(1 + random.nextInt(hostCount), "counter" + random.nextInt(COUNTERS), 1));
            }
        } else {
            long amount = 1 + random.nextInt(50);
            if (random.nextInt(3) == 0) {
                // Reads an account first, under a READ lock: alone on its host, that part votes read-only.
                ops.add(new Op(1 + random.nextInt(hostCount), "account" + random.nextInt(ACCOUNTS), 0));
            }
            ops.add(new Op(1 + random.nextInt(hostCount), "account" + random.nextInt(ACCOUNTS), -amount));
            ops.add(new Op(1 + random.nextInt(hostCount), "account" + random.nextInt(ACCOUNTS), amount));
        }
        boolean aborts = !readOnly && random.nextInt(30) == 0;
        boolean refused = !readOnly && !aborts && random.nextInt(30) == 0;
        Root root = new Root(roots.size(), host, object, List.copyOf(ops), aborts, refused);
        root.readOnly = readOnly;
        root.beganAt = steps;
        roots.add(root);
        root.attempt = cores[host].begin(object);
        if (readOnly) {
            cores[host].readSnapshot(root.attempt);
        }
        rootsByAttempt.put(root.attempt, root);
        advance(root);
        pump(host);
    }

    /** A read-only root's reads: one or two counters on random hosts, or every account of every host. */
    private List<Op> snapshotReadOps() {
        List<Op> ops = new ArrayList<>();
        if (random.nextBoolean()) {
            for (int h = 1; h <= hostCount; h++) {
                for (int i = 0; i < ACCOUNTS; i++) {
                    ops.add(new Op(h, "account" + i, 0));
                }
            }
        } else {
            for (int i = 1 + random.nextInt(2); i > 0; i--) {
                ops.add(new Op(1 + random.nextInt(hostCount), "counter" + random.nextInt(COUNTERS), 0));
            }
        }
        return ops;
    }

    /**
     * A list root's ops: an append to a random list on each of two different random hosts, one
     * root in four reading the first of the two lists before it appends to it. One root in five
     * appends on one host only (a fast commit delegates it there when it is rooted elsewhere).
     */
    private List<Op> listOps() {
        int first = 1 + random.nextInt(hostCount);
        int second = 1 + random.nextInt(hostCount - 1);
        if (second >= first) {
            second++;
        }
        boolean reads = random.nextInt(4) == 0;
        int[] hosts = random.nextInt(5) == 0 ? new int[] {first} : new int[] {first, second};
        List<Op> ops = new ArrayList<>();
        for (int on : hosts) {
            String list = "list" + random.nextInt(LISTS);
            if (reads && on == first) {
                ops.add(new Op(on, list, 0));
            }
            ops.add(new Op(on, list, 1));
        }
        return ops;
    }

    /** Runs the root's body on from where it stopped, until it must wait. */
    private void advance(Root root) {
        HostCore core = cores[root.host];
        while (root.next < root.ops.size()) {
            Op op = root.ops.get(root.next);
            if (op.host == root.host) {
                if (!core.lock(root.attempt, lockOf(op))) {
                    root.wait = Wait.LOCK;
                    return;
                }
                noteRead(root.attempt, apply(root.attempt, op));
                root.next++;
            } else {
                long callId = core.call(root.attempt, op.host, op, markedLast(root));
                if (callId < 0) {
                    unwind(root);
                    return;
                }
                root.wait = Wait.REPLY;
                root.waitingCall = callId;
                return;
            }
        }
        root.wait = Wait.END;
        core.finishRoot(root.attempt, root.aborts ? HostCore.Ending.FAILED : HostCore.Ending.DONE);
    }

    /** Sets up a new core as the run wants it: broken on purpose, and optimistic where asked. */
    private HostCore withFault(HostCore core) {
        if (fault == Fault.RELEASE_LOCKS_AT_EARLY_VOTE) {
            core.breakByReleasingLocksAtEarlyVote();
        }
        if (fault == Fault.SKIP_DELEGATED_COMMIT_LOG) {
            core.breakBySkippingDelegatedCommitLog();
        }
        if (fault == Fault.APPENDS_INSTALLED_AS_THEY_ARRIVE) {
            core.breakByInstallingAppendsAsTheyArrive();
        }
        core.useFastCommit(fastCommit);
        if (fault == Fault.SNAPSHOT_IGNORES_PREPARED) {
            core.breakSnapshotReads(SnapshotReads.Fault.IGNORES_PREPARED);
        }
        if (fault == Fault.SNAPSHOT_WITHOUT_VALIDATION) {
            core.breakSnapshotReads(SnapshotReads.Fault.NO_VALIDATION);
        }
        boolean optimistic = concurrency == Concurrency.OPTIMISTIC
                || concurrency == Concurrency.MIXED && core.host() % 2 == 1;
        if (optimistic && !core.optimisticConcurrency()) {
            if (lockAfterRefusals < 0) {
                core.useOptimisticConcurrency();
            } else {
                core.useOptimisticConcurrencyLockingAfter(lockAfterRefusals);
            }
        }
        if (replicatedDecisions) {
            core.useReplicatedDecisions();
        }
        if (lists) {
            useRealTime(core);
        }
        return core;
    }

    /**
     * Whether the body marks its next call as its last, as the compiler does: when no later op
     * is on another host (later ops on the root's own host are its local data, which it may
     * still touch). One root in eight marks it wrongly, before a later call, which the core
     * must turn into a retry without the prepare.
     */
    private boolean markedLast(Root root) {
        for (int i = root.next + 1; i < root.ops.size(); i++) {
            if (root.ops.get(i).host != root.host) {
                return root.number % 8 == 7;
            }
        }
        return true;
    }

    private void unwind(Root root) {
        root.wait = Wait.END;
        cores[root.host].finishRoot(root.attempt, HostCore.Ending.WOUNDED);
    }

    private LockId lockOf(Op op) {
        if (isListAppend(op)) {
            return LockId.whole(1, op.variable, LockMode.APPEND);
        }
        if (op.delta == 0 && !op.variable.startsWith("tally")) {
            return LockId.whole(1, op.variable, LockMode.READ); // a read-only root's read
        }
        if (!op.variable.startsWith("tally")) {
            return LockId.whole(1, op.variable);
        }
        boolean read = op.delta == 0 && fault != Fault.READS_SHARE_WITH_ADDS;
        return LockId.whole(1, op.variable, read ? LockMode.READ : LockMode.ADD);
    }

    /**
     * Applies the op to the attempt's working copy; returns what a counter increment read, or null.
     * A read-only root's read leaves no working copy (it installs nothing) and returns what it read.
     */
    private String apply(TxnId txn, Op op) {
        if (op.variable.startsWith("list")) {
            return applyList(txn, op);
        }
        if (op.delta == 0 && !op.variable.startsWith("tally")) {
            Root root = rootsByAttempt.get(txn);
            if (root != null && !root.readOnly) {
                // A transfer's read of an account under its READ lock: what it read is not checked
                // (the transfers' total is), its lock and, alone on a host, its read-only vote are.
                checkBindingsFinished(txn, op);
                return null;
            }
            // A snapshot read reads the host's committed value, never a device, so it may read
            // while another attempt's bindings still finish there.
            return op.host + ":" + op.variable + "=" + committed.get(op.host).get(op.variable);
        }
        if (!isTallyAdd(op) || fault == Fault.ADDS_INSTALL_VALUES) {
            checkBindingsFinished(txn, op); // a tally's add does not read it: it shares the tally with other adders
        }
        Map<String, Long> values = working.computeIfAbsent(txn, t -> new HashMap<>())
                .computeIfAbsent(op.host, h -> new HashMap<>());
        if (op.variable.startsWith("tally") && fault != Fault.ADDS_INSTALL_VALUES) {
            return applyTally(values, op);
        }
        long value = values.getOrDefault(op.variable, committed.get(op.host).get(op.variable));
        values.put(op.variable, value + op.delta);
        if (TRACE) {
            System.out.println("apply " + txn + " on " + op.host + " " + op.variable + " read " + value + " + " + op.delta);
        }
        return op.variable.startsWith("counter") ? op.host + ":" + op.variable + "=" + value : null;
    }

    private static boolean isTallyAdd(Op op) {
        return op.variable.startsWith("tally") && op.delta != 0;
    }

    private static boolean isListAppend(Op op) {
        return op.variable.startsWith("list") && op.delta != 0;
    }

    /**
     * A list op: an append notes the root's number in the attempt's working copy, to append at
     * install (it reads nothing, so it shares the list with other appenders); a read returns the
     * committed list (a root reads a list only before it appends to it).
     */
    private String applyList(TxnId txn, Op op) {
        if (op.delta == 0) {
            checkBindingsFinished(txn, op);
            List<Long> list = committedLists.get(op.host).get(op.variable);
            return op.host + ":" + op.variable + "=" + String.join(",", list.stream().map(String::valueOf).toList());
        }
        working.computeIfAbsent(txn, t -> new HashMap<>()).computeIfAbsent(op.host, h -> new HashMap<>())
                .put(op.variable, (long) rootsByAttempt.get(txn).number);
        if (TRACE) {
            System.out.println("apply " + txn + " on " + op.host + " " + op.variable + " append " + rootsByAttempt.get(txn).number);
        }
        return null;
    }

    /**
     * A tally op on the attempt's working copy, which holds its delta: a read returns the committed
     * value with the attempt's own delta (what it would see), an add adds to the delta.
     */
    private String applyTally(Map<String, Long> deltas, Op op) {
        long own = deltas.getOrDefault(op.variable, 0L);
        if (op.delta == 0) {
            return op.host + ":" + op.variable + "=" + (committed.get(op.host).get(op.variable) + own);
        }
        deltas.put(op.variable, own + op.delta);
        return null;
    }

    /**
     * An attempt reads a variable only once the bindings of every attempt that
     * wrote it on that host finished their commit or abort there: until then
     * the device may still hold a change that is being undone.
     */
    private void checkBindingsFinished(TxnId txn, Op op) {
        for (Map.Entry<Integer, TxnId> pending : unfinished) {
            TxnId writer = pending.getValue();
            if (pending.getKey() == op.host && !writer.equals(txn)
                    && working.getOrDefault(writer, Map.of()).getOrDefault(op.host, Map.of()).containsKey(op.variable)) {
                violations.add("attempt " + txn + " read " + op.host + ":" + op.variable + " while the bindings of "
                        + writer + ", which wrote it there, had not finished");
            }
        }
    }

    /** Counts a read only once the root saw it: a call whose reply was lost did not happen for the root. */
    private void noteRead(TxnId txn, String read) {
        if (read == null) {
            return;
        }
        Root root = rootsByAttempt.get(txn);
        Map<TxnId, List<String>> into = root != null && root.readOnly ? snapshotReads
                : read.contains(":list") ? listReads : reads;
        into.computeIfAbsent(txn, t -> new ArrayList<>()).add(read);
    }

    /**
     * A tally's working value is a delta (ADD), added at install; a list's is the number appended
     * (APPEND), appended at install; every other value replaces the committed one.
     */
    private void install(int h, Map<String, Long> values) {
        values.forEach((variable, value) -> {
            if (variable.startsWith("list")) {
                committedLists.get(h).get(variable).add(value);
                return;
            }
            boolean delta = variable.startsWith("tally") && fault != Fault.ADDS_INSTALL_VALUES;
            committed.get(h).merge(variable, value, delta ? Long::sum : (old, replaced) -> replaced);
        });
    }

    // ---- network ---------------------------------------------------------------------------

    private void deliverOne() {
        List<Long> busy = new ArrayList<>(links.keySet());
        long link = busy.get(random.nextInt(busy.size()));
        ArrayDeque<Envelope> queue = links.get(link);
        Envelope envelope = queue.poll();
        if (queue.isEmpty()) {
            links.remove(link);
        }
        if (lost(envelope)) {
            return;
        }
        if (!reachable(envelope.from(), envelope.to()) && envelope.from() != envelope.to()) {
            return;
        }
        if (TRACE) {
            System.out.println("deliver " + envelope);
        }
        cores[envelope.to()].step(envelope);
        pump(envelope.to());
    }

    private static long linkKey(int a, int b) {
        return (long) Math.min(a, b) * 1000 + Math.max(a, b);
    }

    private void cutRandomLink() {
        if (hostCount < 2) {
            return;
        }
        int a = 1 + random.nextInt(hostCount);
        int b = 1 + random.nextInt(hostCount);
        if (a == b || !cutLinks.add(linkKey(a, b))) {
            return;
        }
        cutLinksSeen = true;
        if (TRACE) {
            System.out.println("cut " + a + "-" + b);
        }
        // Messages in flight on a cut link are lost, and those held to piggyback; both ends learn the link is down after them.
        links.remove((long) a * 1000 + b);
        links.remove((long) b * 1000 + a);
        held.remove((long) a * 1000 + b);
        held.remove((long) b * 1000 + a);
        linkDown(a, b);
        linkDown(b, a);
    }

    /** Host {@code at} learns that {@code lost} is unreachable (unless it is down itself, or knew already). */
    private void linkDown(int at, int lost) {
        if (!crashed.contains(at) && !crashed.contains(lost)) {
            cores[at].linkDown(lost);
            pump(at);
        }
    }

    private boolean reachable(int a, int b) {
        return !crashed.contains(a) && !crashed.contains(b) && !cutLinks.contains(linkKey(a, b));
    }

    private void heal(long link) {
        cutLinks.remove(link);
        if (TRACE) {
            System.out.println("heal " + link);
        }
        int a = (int) (link / 1000);
        int b = (int) (link % 1000);
        if (reachable(a, b)) {
            linkUp(a, b);
        }
        if (reachable(a, b)) {
            linkUp(b, a);
        }
    }

    /** Host {@code h}'s link to {@code peer} comes up; if the peer restarted since, {@code h} hears that first. */
    private void linkUp(int h, int peer) {
        if (runSeen[h][peer] != runs[peer]) {
            runSeen[h][peer] = runs[peer];
            cores[h].peerRestarted(peer);
            pump(h);
        }
        cores[h].linkUp(peer);
        pump(h);
    }

    private void healAll() {
        for (long link : List.copyOf(cutLinks)) {
            heal(link);
        }
    }

    /** Only commit-phase messages are lost: the protocol recovers them by re-sending on ticks. */
    private boolean lost(Envelope envelope) {
        boolean commitPhase = switch (envelope.message()) {
            case Message.Prepare p -> true;
            case Message.Vote v -> true;
            case Message.Commit c -> true;
            case Message.Backout b -> true;
            case Message.Ack a -> true;
            case Message.Query q -> true;
            case Message.Delegate d -> true;
            case Message.Answer a -> true;
            default -> false;
        };
        return commitPhase && random.nextDouble() < lossRate;
    }

    /**
     * Persists, sends and applies what host {@code h}'s core produced until it
     * produces nothing more, the way the real host layer does: the records of
     * a drain are made durable first (a crash may strike in that write, and
     * tear it), then installs and discards are applied at once, then the
     * messages go out; the bodies that decisions wake run afterwards, one at
     * a time, each followed by the same. A body must never run while
     * decisions it could observe are still unapplied.
     */
    /**
     * Ticks host {@code h}. A host that said it needs no ticks ({@link HostCore#needsTicks}) skips
     * them in the runtime, so its tick must produce nothing: that is checked here.
     */
    private void tick(int h) {
        boolean needed = cores[h].needsTicks();
        cores[h].tick();
        if (!needed) {
            Outbox out = cores[h].drain();
            if (!out.isEmpty()) {
                violations.add("host " + h + " said it needs no ticks, yet its tick produced " + out.decisions()
                        + " and " + out.messages());
            }
            return;
        }
        pump(h);
    }

    private void pump(int h) {
        ArrayDeque<Decision> woken = new ArrayDeque<>();
        drainInto(h, woken);
        while (!woken.isEmpty() && !crashed.contains(h)) {
            apply(h, woken.poll());
            drainInto(h, woken);
        }
    }

    private void drainInto(int h, ArrayDeque<Decision> woken) {
        for (Outbox out = cores[h].drain(); !out.isEmpty() && !crashed.contains(h); out = cores[h].drain()) {
            if (fault == Fault.SEND_BEFORE_PERSIST) {
                send(out.messages());
            }
            if (!persist(h, out.persist())) {
                return; // the host died in the write: nothing after it happened
            }
            if (fault != Fault.SEND_BEFORE_PERSIST) {
                send(out.messages());
            }
            for (Decision decision : out.decisions()) {
                if (decision instanceof Decision.Install || decision instanceof Decision.Discard) {
                    apply(h, decision);
                } else {
                    woken.add(decision);
                }
            }
        }
    }

    private void send(List<Envelope> envelopes) {
        for (Envelope envelope : envelopes) {
            if (reachable(envelope.from(), envelope.to()) || envelope.from() == envelope.to()) {
                long link = (long) envelope.from() * 1000 + envelope.to();
                if (envelope.message() instanceof Message.Delegate delegate) {
                    delegations++;
                    delegatedAttempts.add(delegate.txn());
                }
                if (envelope.unhurried()) {
                    held.computeIfAbsent(link, k -> new ArrayDeque<>()).add(envelope);
                    continue;
                }
                flushHeld(link); // the held ones travel first, in the same frame's flush
                links.computeIfAbsent(link, k -> new ArrayDeque<>()).add(envelope);
            }
        }
    }

    /** The messages held on {@code link} join it, in order (the piggyback delay passed, or a message follows). */
    private void flushHeld(long link) {
        ArrayDeque<Envelope> waiting = held.remove(link);
        if (waiting != null) {
            links.computeIfAbsent(link, k -> new ArrayDeque<>()).addAll(waiting);
        }
    }

    /**
     * Makes {@code records} durable on host {@code h}; false if the host
     * crashed in the write (sometimes tearing its last record), which the
     * simulation arranges now and then.
     */
    private boolean persist(int h, List<StorageRecord> records) {
        List<StorageRecord> kept = new ArrayList<>();
        for (StorageRecord record : records) {
            boolean forgotten = fault == Fault.FORGET_PREPARED && record instanceof StorageRecord.Prepared p
                    && p.coordinator() != h;
            if (!forgotten) {
                kept.add(record);
            }
        }
        if (kept.isEmpty()) {
            return true;
        }
        int whole = kept.size();
        if (!crashing && random.nextDouble() < crashes.duringWrite()) {
            whole = random.nextInt(kept.size() + 1);
            storages[h].crashDuringNextAppend(whole, random.nextInt(24));
        }
        try {
            storages[h].append(kept);
        } catch (InMemoryStorage.SimulatedCrash crash) {
            if (whole < kept.size()) {
                tornWrites++;
            }
            noteDurable(h, kept.subList(0, whole));
            crash(h);
            return false;
        }
        noteDurable(h, kept);
        return true;
    }

    /** The register settles an ask (unless it is lost) and answers the asker, if it still runs. */
    private void answer(Ask ask) {
        if (random.nextInt(10) == 0) {
            return; // lost on the way: the asker asks again on a tick
        }
        long settled = settle(ask);
        registerAnswers++;
        registerBackouts += settled != 0 ? 0 : 1;
        if (!crashed.contains(ask.host()) && runs[ask.host()] == ask.run()) {
            cores[ask.host()].registered(ask.txn(), settled);
            pump(ask.host());
        }
    }

    /** The register keeps the first outcome proposed for the attempt, which is durable from then on. */
    private long settle(Ask ask) {
        Long first = fault == Fault.REGISTER_KEEPS_LATEST ? register.put(ask.txn(), ask.commitStamp())
                : register.putIfAbsent(ask.txn(), ask.commitStamp());
        long settled = first == null || fault == Fault.REGISTER_KEEPS_LATEST ? ask.commitStamp() : first;
        boolean outcome = settled != 0;
        Boolean durable = durableOutcome.putIfAbsent(ask.txn(), outcome);
        if (durable != null && durable != outcome) {
            violations.add("the register settled " + ask.txn() + " as " + (outcome ? "committed" : "backed out")
                    + ", whose other outcome was durable");
        }
        return settled;
    }

    /** Checks that no outcome made durable contradicts one made durable before. */
    private void noteDurable(int h, List<StorageRecord> records) {
        for (StorageRecord record : records) {
            Boolean outcome = switch (record) {
                case StorageRecord.Committed c -> true;
                case StorageRecord.Ended e -> e.committed();
                default -> null;
            };
            if (outcome == null) {
                continue;
            }
            Boolean first = durableOutcome.putIfAbsent(record.txn(), outcome);
            if (first != null && !first.equals(outcome)) {
                violations.add("the outcome of " + record.txn() + " was durable as " + (first ? "committed" : "backed out")
                        + ", then host " + h + " logged " + record);
            }
        }
    }

    // ---- crashes ---------------------------------------------------------------------------

    private void crashRandomHost() {
        int h = 1 + random.nextInt(hostCount);
        if (!crashed.contains(h)) {
            crash(h);
        }
    }

    /**
     * Host {@code h} dies: its core, the attempts' working copies there, its
     * running bodies and served calls are gone; its storage and its durable
     * state (the applied counters and accounts) stay. Its peers see the link
     * drop.
     */
    private void crash(int h) {
        crashed.add(h);
        crashCount++;
        if (TRACE) {
            System.out.println("crash " + h);
        }
        boolean nested = crashing;
        crashing = true;
        for (int other = 1; other <= hostCount; other++) {
            links.remove((long) other * 1000 + h);
            held.remove((long) h * 1000 + other); // never left: the host died holding them
            ArrayDeque<Envelope> outgoing = links.remove((long) h * 1000 + other);
            if (outgoing != null && other != h) {
                deliverPrefix(outgoing, random.nextInt(outgoing.size() + 1));
            }
        }
        bound.removeIf(key -> key.startsWith(h + "/"));
        for (Ask ask : List.copyOf(asks)) {
            if (ask.host() == h) {
                asks.remove(ask);
                if (random.nextBoolean()) {
                    settle(ask); // it reached the register before the host died, and its answer is lost
                }
            }
        }
        unfinished.removeIf(entry -> entry.getKey() == h);
        servedWaitingForLock.keySet().removeIf(key -> key.endsWith("@" + h));
        for (Map<Integer, Map<String, Long>> copies : working.values()) {
            copies.remove(h);
        }
        for (Root root : roots) {
            if (root.host == h && root.result == null) {
                root.lost = true;
            }
        }
        for (int other = 1; other <= hostCount; other++) {
            if (other != h && !cutLinks.contains(linkKey(h, other)) && !crashed.contains(other)) {
                cores[other].linkDown(h);
                pump(other);
            }
        }
        crashing = nested;
    }

    /**
     * What a crashed host sent before it died may still arrive, in order,
     * before its peers see the link drop (the transport's contract); the rest
     * is lost.
     */
    private void deliverPrefix(ArrayDeque<Envelope> outgoing, int count) {
        for (int i = 0; i < count; i++) {
            Envelope envelope = outgoing.poll();
            if (crashed.contains(envelope.to()) || cutLinks.contains(linkKey(envelope.from(), envelope.to()))) {
                return;
            }
            cores[envelope.to()].step(envelope);
            pump(envelope.to());
        }
    }

    /**
     * Host {@code h} starts again under the same number, with a new core that
     * restores what its storage kept, and the working copies of the attempts
     * it logged as prepared (their payload); its durable state gives the core
     * the clock of its last install. Its peers learn it restarted.
     */
    private void restart(int h) {
        crashed.remove(h);
        runs[h]++;
        for (int other = 1; other <= hostCount; other++) {
            runSeen[h][other] = runs[other]; // a new run knows no earlier run of its peers
        }
        if (TRACE) {
            System.out.println("restart " + h);
        }
        pessimisticInCrashedRuns += cores[h].pessimisticAttempts();
        cores[h] = withFault(new HostCore(h, 3, true, runs[h] * 1_000_000_000L));
        cores[h].advanceClock(clockAtInstall[h]); // its values survived: its votes must stay above what they hold
        List<StorageRecord> records = storages[h].load();
        for (StorageRecord record : records) {
            if (record instanceof StorageRecord.Prepared prepared) {
                working.computeIfAbsent(prepared.txn(), t -> new HashMap<>()).put(h, decode(prepared.payload()));
            }
        }
        for (int other = 1; other <= hostCount; other++) {
            if (other != h && !reachable(h, other)) {
                cores[h].linkDown(other);
            }
        }
        cores[h].restore(records, storages[h].hasEarlierRuns(), true);
        pump(h);
        for (int other = 1; other <= hostCount; other++) {
            if (other != h && reachable(h, other)) {
                linkUp(other, h);
            }
        }
    }

    private void restartAll() {
        for (int h : List.copyOf(crashed)) {
            if (crashed.contains(h)) {
                restart(h);
            }
        }
    }

    /** What a participant logs with its yes vote: its working copy, to install after a restart. */
    private static byte[] encode(Map<String, Long> values) {
        StringBuilder text = new StringBuilder();
        values.forEach((variable, value) -> text.append(variable).append('=').append(value).append(';'));
        return text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static Map<String, Long> decode(byte[] payload) {
        Map<String, Long> values = new HashMap<>();
        for (String entry : new String(payload, java.nio.charset.StandardCharsets.UTF_8).split(";")) {
            if (!entry.isEmpty()) {
                String[] parts = entry.split("=");
                values.put(parts[0], Long.parseLong(parts[1]));
            }
        }
        return values;
    }

    // ---- the host layer --------------------------------------------------------------------

    private void apply(int h, Decision decision) {
        if (crashed.contains(h)) {
            return; // died while applying the drain: the rest never happened
        }
        if (TRACE) {
            System.out.println("host " + h + ": " + decision);
        }
        switch (decision) {
            case Decision.Granted granted -> onGranted(h, granted);
            case Decision.Wounded wounded -> onWounded(h, wounded.txn());
            case Decision.RunCall run -> onRunCall(h, run);
            case Decision.Replied replied -> onReplied(h, replied);
            case Decision.CallFailed failed -> onCallFailed(failed);
            case Decision.PrepareLocal prepare -> {
                Root root = findRoot(prepare.txn());
                boolean refuse = root != null && root.refused && h == root.ops.get(0).host;
                Map<String, Long> changed = working.getOrDefault(prepare.txn(), Map.of()).getOrDefault(h, Map.of());
                if (!refuse && changed.isEmpty() && (root == null || !root.readOnly)) {
                    // Nothing changed here (reads, or calls only): a part that only read for another
                    // host's root leaves at its vote; the core votes yes as usual for any other.
                    if (cores[h].voteReadOnly(prepare.txn())) {
                        votedReadOnly.computeIfAbsent(prepare.txn(), t -> new java.util.TreeSet<>()).add(h);
                    } else {
                        votedYes.computeIfAbsent(prepare.txn(), t -> new java.util.TreeSet<>()).add(h);
                    }
                    return;
                }
                boolean finishLater = random.nextBoolean();
                if (finishLater) {
                    bound.add(h + "/" + prepare.txn());
                }
                if (!refuse) {
                    votedYes.computeIfAbsent(prepare.txn(), t -> new java.util.TreeSet<>()).add(h);
                }
                Map<String, Long> values = working.getOrDefault(prepare.txn(), Map.of()).getOrDefault(h, Map.of());
                cores[h].vote(prepare.txn(), !refuse, refuse ? "refused by the simulation" : null, finishLater,
                        encode(values));
            }
            case Decision.Install install -> {
                if (Boolean.FALSE.equals(durableOutcome.get(install.txn()))) {
                    violations.add("host " + h + " installed " + install.txn() + ", whose backout was durable");
                }
                clockAtInstall[h] = cores[h].clock();
                // A restart may apply an attempt again (it crashed before logging the end): the
                // durable state knows what it applied, as a device's redo does.
                if (applied.get(h).add(install.txn())) {
                    installs.merge(install.txn(), 1, Integer::sum);
                    Map<String, Long> values = working.getOrDefault(install.txn(), Map.of()).get(h);
                    if (values != null) {
                        install(h, values);
                    }
                }
                finishOrLater(h, install.txn());
            }
            case Decision.Discard discard -> {
                if (discard.prepared() && Boolean.TRUE.equals(durableOutcome.get(discard.txn()))
                        && votedYes.getOrDefault(discard.txn(), java.util.Set.of()).contains(h)) {
                    violations.add("host " + h + " discarded " + discard.txn() + ", whose commit was durable");
                }
                if (applied.get(h).contains(discard.txn())) {
                    violations.add("host " + h + " discarded " + discard.txn() + " after installing it");
                }
                if (!votedReadOnly.getOrDefault(discard.txn(), java.util.Set.of()).contains(h)) {
                    discards.computeIfAbsent(discard.txn(), t -> new java.util.HashSet<>()).add(h);
                } // else the part that voted read-only dropping what it read: nothing of it to install
                finishOrLater(h, discard.txn());
            }
            case Decision.Register ask -> asks.add(new Ask(h, runs[h], ask.txn(), ask.commitStamp()));
            case Decision.RootDone done -> onRootDone(h, done);
        }
    }

    /** Bindings that took part finish their commit or abort at some later step; otherwise it is finished now. */
    private void finishOrLater(int h, TxnId txn) {
        if (bound.remove(h + "/" + txn)) {
            unfinished.add(Map.entry(h, txn));
            if (fault == Fault.FINISH_BEFORE_BINDINGS) {
                cores[h].finished(txn); // too early: the bindings are still at work
            }
        } else {
            cores[h].finished(txn);
        }
    }

    private Root findRoot(TxnId txn) {
        return rootsByAttempt.get(txn);
    }

    private void onGranted(int h, Decision.Granted granted) {
        Root root = findRoot(granted.txn());
        if (root != null && root.host == h && root.attempt.equals(granted.txn()) && root.wait == Wait.LOCK) {
            noteRead(root.attempt, apply(root.attempt, root.ops.get(root.next)));
            root.next++;
            root.wait = Wait.NONE;
            advance(root);
            return;
        }
        Served served = servedWaitingForLock.remove(granted.txn() + "@" + h);
        if (served == null) {
            violations.add("grant nobody waits for: " + granted + " on host " + h);
            return;
        }
        finishServed(h, served);
    }

    private void onWounded(int h, TxnId txn) {
        Root root = findRoot(txn);
        if (root != null && root.host == h && root.attempt.equals(txn)
                && (root.wait == Wait.LOCK || root.wait == Wait.REPLY)) {
            unwind(root);
        }
        Served served = servedWaitingForLock.remove(txn + "@" + h);
        if (served != null) {
            cores[h].finishCall(txn, served.callId, null, true);
        }
    }

    private void onRunCall(int h, Decision.RunCall run) {
        Served served = new Served(run.txn(), run.callId(), (Op) run.request());
        if (cores[h].lock(run.txn(), lockOf(served.op))) {
            finishServed(h, served);
        } else {
            servedWaitingForLock.put(run.txn() + "@" + h, served);
        }
    }

    private void finishServed(int h, Served served) {
        String read = apply(served.txn, served.op);
        cores[h].finishCall(served.txn, served.callId, read == null ? "done" : read, false);
    }

    /** Increments catch the NetworkException and go on; transfers let it back everything out. */
    private void onCallFailed(Decision.CallFailed failed) {
        Root root = findRoot(failed.txn());
        if (root == null || root.wait != Wait.REPLY || root.waitingCall != failed.callId()) {
            return;
        }
        if (root.ops.get(root.next).variable.startsWith("counter")) {
            root.next++;
            root.wait = Wait.NONE;
            advance(root);
            return;
        }
        root.networkFailed = true;
        root.wait = Wait.END;
        cores[root.host].finishRoot(root.attempt, HostCore.Ending.FAILED);
    }

    private void onReplied(int h, Decision.Replied replied) {
        Root root = findRoot(replied.txn());
        if (root == null || root.wait != Wait.REPLY || root.waitingCall != replied.callId()) {
            return;
        }
        if (replied.wounded()) {
            unwind(root);
            return;
        }
        if (!"done".equals(replied.response())) {
            noteRead(root.attempt, (String) replied.response());
        }
        joined.computeIfAbsent(root.attempt, t -> new java.util.HashSet<>()).add(root.ops.get(root.next).host);
        root.next++;
        root.wait = Wait.NONE;
        advance(root);
    }

    private void onRootDone(int h, Decision.RootDone done) {
        Root root = findRoot(done.txn());
        if (root == null || root.host != h) {
            violations.add("root outcome for an unknown attempt " + done);
            return;
        }
        if (done.result() == Decision.Result.RETRY) {
            root.attempt = cores[h].retry(done.txn());
            if (root.readOnly) {
                cores[h].readSnapshot(root.attempt);
            }
            rootsByAttempt.put(root.attempt, root);
            root.networkFailed = false;
            root.next = 0;
            root.wait = Wait.NONE;
            advance(root);
            return;
        }
        if (root.result != null) {
            violations.add("root " + root.number + " ended twice: " + root.result + " and " + done.result());
        }
        root.result = done.result();
        if (root.result == Decision.Result.COMMITTED && !root.readOnly) {
            checkCommittedReadsSee(root);
        }
        if (root.result == Decision.Result.COMMITTED) {
            root.returnedAt = steps;
        }
        Decision.Result expected = root.aborts || root.networkFailed ? Decision.Result.FAILED
                : root.refused ? Decision.Result.REFUSED : Decision.Result.COMMITTED;
        // A refusing host that the root had to go on without cannot refuse.
        boolean refusalSkipped = root.refused && expected == Decision.Result.REFUSED
                && root.result == Decision.Result.COMMITTED && (cutLinksSeen || crashCount > 0);
        if (root.result != expected && !refusalSkipped) {
            violations.add("root " + root.number + " ended " + root.result + ", expected " + expected);
        }
    }

    /**
     * A commit returns at the decision, before participants install it. A
     * committed() read made right after the return must still see its writes:
     * on every host that took part, the attempt is installed, or a read of
     * the variable waits for it ({@link HostCore#undecidedWriters}) — unless
     * the host is down or holds the attempt in doubt (documented: such a read
     * sees the value from before).
     */
    private void checkCommittedReadsSee(Root root) {
        java.util.Set<Integer> tookPart = new java.util.HashSet<>(joined.getOrDefault(root.attempt, java.util.Set.of()));
        tookPart.add(root.host);
        for (Op op : root.ops) {
            int h = op.host;
            if (op.delta == 0 || !tookPart.contains(h) || crashed.contains(h) || applied.get(h).contains(root.attempt)
                    || cores[h].inDoubt().contains(root.attempt)) {
                continue; // a read wrote nothing to see
            }
            boolean waits = fault != Fault.READS_DO_NOT_WAIT
                    && cores[h].undecidedWriters(lockOf(op)).contains(root.attempt);
            if (!waits) {
                violations.add("root " + root.number + " returned committed " + root.attempt + ", but a committed()"
                        + " read of " + h + ":" + op.variable + " would not see its write (not installed there, and"
                        + " the read does not wait for it)");
            }
        }
    }

    // ---- checks ----------------------------------------------------------------------------

    /** Returns every violation of serializability, atomicity or cleanliness found. */
    List<String> check() {
        List<String> found = new ArrayList<>(violations);
        Map<String, List<Long>> counterReads = new TreeMap<>();
        long expectedTotal = (long) hostCount * ACCOUNTS * INITIAL_BALANCE;
        for (Root root : roots) {
            if (committed(root)) {
                for (String read : reads.getOrDefault(root.attempt, List.of())) {
                    String[] parts = read.split("=");
                    counterReads.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(Long.parseLong(parts[1]));
                }
            }
        }
        for (TxnId attempt : installs.keySet()) {
            Root root = rootsByAttempt.get(attempt);
            if (root != null && root.readOnly) {
                continue; // installs nothing: a participant that learned "backed out" from a restarted coordinator changed nothing
            }
            // A host whose call failed may discard an attempt that commits without it; a host that took part may not.
            java.util.Set<Integer> discardedOnParticipant = new java.util.HashSet<>(discards.getOrDefault(attempt, java.util.Set.of()));
            discardedOnParticipant.retainAll(joined.getOrDefault(attempt, java.util.Set.of()));
            if (root != null && discards.getOrDefault(attempt, java.util.Set.of()).contains(root.host)) {
                discardedOnParticipant.add(root.host);
            }
            if (!discardedOnParticipant.isEmpty()) {
                found.add("attempt " + attempt + " was installed, but discarded on participants " + discardedOnParticipant);
            }
            if (root == null || !committed(root) || !root.attempt.equals(attempt)) {
                found.add("attempt " + attempt + " was installed but its root did not commit it");
            }
        }
        found.addAll(atomicity());
        for (int h = 1; h <= hostCount; h++) {
            for (int i = 0; i < COUNTERS; i++) {
                String key = h + ":counter" + i;
                List<Long> values = counterReads.getOrDefault(key, List.of());
                List<Long> sorted = values.stream().sorted().toList();
                for (int n = 0; n < sorted.size(); n++) {
                    if (sorted.get(n) != n) {
                        found.add("committed increments of " + key + " read " + sorted + ", not 0.." + (sorted.size() - 1));
                        break;
                    }
                }
                long value = committed.get(h).get("counter" + i);
                if (value != values.size()) {
                    found.add(key + " is " + value + " after " + values.size() + " committed increments");
                }
            }
            if (cores[h].liveAttempts() != 0 || cores[h].busyVariables() != 0 || cores[h].undeliveredDecisions() != 0) {
                found.add("host " + h + " still has " + cores[h].liveAttempts() + " attempts (in doubt: "
                        + cores[h].inDoubt() + ") and " + cores[h].busyVariables() + " locked variables");
            }
        }
        found.addAll(checkTallies(counterReads));
        found.addAll(checkLists());
        found.addAll(checkSnapshotReads(expectedTotal));
        long total = 0;
        for (int h = 1; h <= hostCount; h++) {
            for (int i = 0; i < ACCOUNTS; i++) {
                total += committed.get(h).get("account" + i);
            }
        }
        if (total != expectedTotal) {
            found.add("transfers changed the total from " + expectedTotal + " to " + total);
            found.addAll(unbalancedTransfers());
        }
        return found;
    }

    /** A root committed if its caller heard so, or, for one whose host crashed, if its attempt was installed there. */
    /**
     * Whether the root's attempt committed: it said so, or its host was lost after the commit
     * was durable there (it applied its own part), or, for an attempt delegated to its one other
     * host (fast commit: the root's host holds nothing and logs nothing), after that host installed it.
     */
    private boolean committed(Root root) {
        return root.result == Decision.Result.COMMITTED
                || root.lost && (applied.get(root.host).contains(root.attempt)
                        || delegatedAttempts.contains(root.attempt) && installs.containsKey(root.attempt));
    }

    /**
     * Every participant of an attempt installs it or none does: an attempt
     * installed anywhere, or whose commit was durable, is installed by every
     * host that voted yes on it, crashes and restarts notwithstanding.
     */
    private List<String> atomicity() {
        List<String> found = new ArrayList<>();
        java.util.Set<TxnId> committedAttempts = new java.util.HashSet<>(installs.keySet());
        durableOutcome.forEach((txn, commit) -> {
            if (commit) {
                committedAttempts.add(txn);
            }
        });
        for (TxnId txn : committedAttempts) {
            Root root = rootsByAttempt.get(txn);
            if (root != null && root.readOnly) {
                continue; // its commit is not logged on purpose: it installs nothing anywhere
            }
            for (int voter : votedYes.getOrDefault(txn, java.util.Set.of())) {
                if (!applied.get(voter).contains(txn)) {
                    found.add("attempt " + txn + " committed, but host " + voter + ", which voted yes, never installed"
                            + " it (durable outcome: " + durableOutcome.get(txn) + ")");
                }
            }
        }
        return found;
    }

    /**
     * Each tally equals the adds of the committed roots, and its committed reads are distinct:
     * every reader adds after it reads, so in any serial order no two read the same value.
     */
    private List<String> checkTallies(Map<String, List<Long>> reads) {
        List<String> found = new ArrayList<>();
        Map<String, Long> adds = new TreeMap<>();
        for (Root root : roots) {
            if (committed(root)) {
                for (Op op : root.ops) {
                    if (op.variable.startsWith("tally") && op.delta != 0) {
                        adds.merge(op.host + ":" + op.variable, op.delta, Long::sum);
                    }
                }
            }
        }
        for (int h = 1; h <= hostCount; h++) {
            for (int i = 0; i < TALLIES; i++) {
                String key = h + ":tally" + i;
                long value = committed.get(h).get("tally" + i);
                if (value != adds.getOrDefault(key, 0L)) {
                    found.add(key + " is " + value + " after " + adds.getOrDefault(key, 0L) + " committed adds");
                }
                List<Long> seen = reads.getOrDefault(key, List.of());
                if (new java.util.HashSet<>(seen).size() != seen.size()) {
                    found.add("committed read-then-add transactions of " + key + " read the same value: "
                            + seen.stream().sorted().toList());
                }
            }
        }
        return found;
    }

    /**
     * Each list holds each committed root that appended to it exactly once and nothing else (no
     * number of a root that did not commit, nor of an earlier attempt of one that did); each
     * committed read of a list saw the list as it ended, up to the reader's own number; and one
     * serial order explains every list and keeps real time (see {@link #listOrderCycle}).
     */
    private List<String> checkLists() {
        List<String> found = new ArrayList<>();
        Map<String, java.util.Set<Integer>> appenders = listAppenders();
        for (int h = 1; h <= hostCount; h++) {
            for (Map.Entry<String, List<Long>> entry : committedLists.get(h).entrySet()) {
                String key = h + ":" + entry.getKey();
                found.addAll(checkListHolds(key, entry.getValue(), appenders.getOrDefault(key, java.util.Set.of())));
            }
        }
        found.addAll(checkListReads());
        String cycle = listOrderCycle();
        if (cycle != null) {
            found.add(cycle);
        }
        return found;
    }

    /** List {@code key} holds each root of {@code expected} exactly once, and no other. */
    private List<String> checkListHolds(String key, List<Long> list, java.util.Set<Integer> expected) {
        List<String> found = new ArrayList<>();
        Map<Long, Integer> times = new TreeMap<>();
        list.forEach(number -> times.merge(number, 1, Integer::sum));
        times.forEach((number, count) -> {
            if (!expected.contains(number.intValue())) {
                Root root = roots.get(number.intValue());
                found.add(key + " holds root " + number + ", which did not commit an append to it (ended "
                        + (root.lost ? "LOST" : root.result) + ", attempt " + root.attempt + "): " + list);
            } else if (count != 1) {
                found.add(key + " holds committed root " + number + " " + count + " times: " + list);
            }
        });
        for (int number : expected) {
            if (!times.containsKey((long) number)) {
                found.add(key + " lacks root " + number + ", which committed an append to it: " + list);
            }
        }
        return found;
    }

    /** Per list ("host:listN"), the committed roots that appended to it. */
    private Map<String, java.util.Set<Integer>> listAppenders() {
        Map<String, java.util.Set<Integer>> appenders = new TreeMap<>();
        for (Root root : roots) {
            if (committed(root)) {
                for (Op op : root.ops) {
                    if (isListAppend(op)) {
                        appenders.computeIfAbsent(op.host + ":" + op.variable, k -> new java.util.TreeSet<>()).add(root.number);
                    }
                }
            }
        }
        return appenders;
    }

    /**
     * A root reads a list only before it appends to it, and its READ lock keeps other appenders
     * out until it ended: what it read is exactly what the list holds before its own number.
     */
    private List<String> checkListReads() {
        List<String> found = new ArrayList<>();
        for (Root root : roots) {
            if (!committed(root)) {
                continue;
            }
            for (String read : listReads.getOrDefault(root.attempt, List.of())) {
                String[] parts = read.split("=", -1);
                String[] where = parts[0].split(":");
                List<Long> list = committedLists.get(Integer.parseInt(where[0])).get(where[1]);
                int own = list.indexOf((long) root.number);
                if (own < 0) {
                    continue; // reported as a committed append the list lacks
                }
                String before = String.join(",", list.subList(0, own).stream().map(String::valueOf).toList());
                if (!before.equals(parts[1])) {
                    found.add("root " + root.number + " (attempt " + root.attempt + ") read " + parts[0] + " as [" + parts[1]
                            + "], but the list holds [" + before + "] before its own number: " + list);
                }
            }
        }
        return found;
    }

    /**
     * A cycle in the order the lists put the roots in, or null: the relation "appears before",
     * taken over every list of every host and joined with real time, must have no cycle, or no
     * serial order that keeps real time explains the lists. Describes the cycle with what gives
     * each edge.
     */
    private String listOrderCycle() {
        Map<Integer, Map<Integer, String>> edges = new TreeMap<>();
        for (int h = 1; h <= hostCount; h++) {
            for (Map.Entry<String, List<Long>> entry : committedLists.get(h).entrySet()) {
                List<Long> list = entry.getValue();
                for (int i = 1; i < list.size(); i++) {
                    int from = list.get(i - 1).intValue();
                    int to = list.get(i).intValue();
                    if (from != to) {
                        edges.computeIfAbsent(from, k -> new TreeMap<>()).putIfAbsent(to, h + ":" + entry.getKey() + " " + list);
                    }
                }
            }
        }
        addRealTimeEdges(edges);
        List<Integer> cycle = findCycle(edges);
        if (cycle == null) {
            return null;
        }
        StringBuilder text = new StringBuilder("the lists order roots " + cycle + " in a cycle (no serial order explains them):");
        for (int i = 0; i < cycle.size(); i++) {
            int from = cycle.get(i);
            int to = cycle.get((i + 1) % cycle.size());
            text.append(" root ").append(from).append(" before root ").append(to).append(" in ")
                    .append(edges.get(from).get(to)).append(';');
        }
        return text.toString();
    }

    /**
     * Adds to the list order's graph an edge from each root of it that returned committed to each
     * that began after: strict serializability wants one serial order that keeps real time too
     * ({@link HostCore#useRealTimeStamps}), also for a root that returned while a list's host
     * held its append in doubt.
     */
    private void addRealTimeEdges(Map<Integer, Map<Integer, String>> edges) {
        java.util.Set<Integer> nodes = new java.util.TreeSet<>(edges.keySet());
        edges.values().forEach(targets -> nodes.addAll(targets.keySet()));
        for (int from : nodes) {
            Root earlier = roots.get(from);
            if (earlier.returnedAt < 0) {
                continue;
            }
            for (int to : nodes) {
                Root later = roots.get(to);
                if (earlier.returnedAt < later.beganAt) {
                    edges.computeIfAbsent(from, k -> new TreeMap<>()).putIfAbsent(to, "real time (returned at step "
                            + earlier.returnedAt + ", the other began at step " + later.beganAt + ")");
                }
            }
        }
    }

    /** The nodes of one cycle of the directed graph {@code edges}, in order, or null if it has none. */
    private static List<Integer> findCycle(Map<Integer, Map<Integer, String>> edges) {
        Map<Integer, Integer> state = new HashMap<>(); // 1: on the current path, 2: done
        List<Integer> path = new ArrayList<>();
        for (int start : edges.keySet()) {
            List<Integer> cycle = findCycleFrom(start, edges, state, path);
            if (cycle != null) {
                return cycle;
            }
        }
        return null;
    }

    private static List<Integer> findCycleFrom(int node, Map<Integer, Map<Integer, String>> edges,
                                               Map<Integer, Integer> state, List<Integer> path) {
        Integer seen = state.get(node);
        if (seen != null) {
            return seen == 1 ? new ArrayList<>(path.subList(path.indexOf(node), path.size())) : null;
        }
        state.put(node, 1);
        path.add(node);
        for (int next : edges.getOrDefault(node, Map.of()).keySet()) {
            List<Integer> cycle = findCycleFrom(next, edges, state, path);
            if (cycle != null) {
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        state.put(node, 2);
        return null;
    }

    /**
     * Every committed read-only root read one moment between its start and its return: each counter
     * no lower than the increments whose roots returned before it began and no higher than those of
     * roots begun before it returned, and, when it read every account, the constant total.
     */
    private List<String> checkSnapshotReads(long expectedTotal) {
        List<String> found = new ArrayList<>();
        for (Root reader : roots) {
            if (!reader.readOnly || reader.result != Decision.Result.COMMITTED) {
                continue;
            }
            long total = 0;
            boolean allAccounts = reader.ops.get(0).variable.startsWith("account");
            for (String read : snapshotReads.getOrDefault(reader.attempt, List.of())) {
                String[] parts = read.split("=");
                long value = Long.parseLong(parts[1]);
                total += value;
                if (parts[0].contains("counter")) {
                    long atLeast = increments(parts[0], root -> root.returnedAt >= 0 && root.returnedAt < reader.beganAt);
                    long atMost = increments(parts[0], root -> root.beganAt < reader.returnedAt);
                    if (value < atLeast || value > atMost) {
                        found.add("read-only root " + reader.number + " (steps " + reader.beganAt + "-" + reader.returnedAt
                                + ") read " + read + ", but " + atLeast + " increments had returned before it began and "
                                + atMost + " had begun before it returned");
                    }
                }
            }
            if (allAccounts && total != expectedTotal) {
                found.add("read-only root " + reader.number + " (attempt " + reader.attempt + ") read every account adding up to " + total + ", not "
                        + expectedTotal + ": " + snapshotReads.get(reader.attempt));
            }
        }
        return found;
    }

    /**
     * The committed increments of {@code counter} ("host:counterN") by the roots {@code which}
     * selects: each one applied left a read of the counter (one that failed on a lost host did not).
     */
    private long increments(String counter, java.util.function.Predicate<Root> which) {
        long count = 0;
        for (Root root : roots) {
            if (root.readOnly || !committed(root) || !which.test(root)) {
                continue;
            }
            for (String read : reads.getOrDefault(root.attempt, List.of())) {
                if (read.startsWith(counter + "=")) {
                    count++;
                }
            }
        }
        return count;
    }

    /** The committed transfers whose two sides were not both installed, to explain a broken total. */
    private List<String> unbalancedTransfers() {
        List<String> found = new ArrayList<>();
        Map<String, Long> expected = new TreeMap<>();
        for (Root root : roots) {
            if (committed(root)) {
                for (Op op : root.ops) {
                    if (op.variable.startsWith("account")) {
                        expected.merge(op.host + ":" + op.variable, op.delta, Long::sum);
                    }
                }
            }
        }
        for (int h = 1; h <= hostCount; h++) {
            for (int i = 0; i < ACCOUNTS; i++) {
                long want = INITIAL_BALANCE + expected.getOrDefault(h + ":account" + i, 0L);
                long have = committed.get(h).get("account" + i);
                if (want != have) {
                    found.add(h + ":account" + i + " is " + have + ", committed transfers make it " + want);
                }
            }
        }
        for (Root root : roots) {
            if (!committed(root) || root.readOnly || !root.ops.get(0).variable.startsWith("account")) {
                continue;
            }
            for (Op op : root.ops) {
                boolean applied = working.getOrDefault(root.attempt, Map.of()).containsKey(op.host);
                java.util.Set<Integer> discardedOn = discards.getOrDefault(root.attempt, java.util.Set.of());
                if (!applied || discardedOn.contains(op.host)) {
                    found.add("root " + root.number + " on host " + root.host + " committed " + root.attempt
                            + " but its op " + op + " was " + (applied ? "discarded" : "never applied")
                            + "; joined " + joined.get(root.attempt));
                }
            }
        }
        return found;
    }

    /** How many attempts ran pessimistically on optimistic hosts (their root was refused there often enough). */
    long pessimisticAttempts() {
        long total = pessimisticInCrashedRuns;
        for (int h = 1; h <= hostCount; h++) {
            total += cores[h].pessimisticAttempts();
        }
        return total;
    }

    /**
     * How many pairs of roots share two or more lists (on any hosts): the pairs whose order two
     * lists could contradict, which is what the cycle check looks for.
     */
    long rootPairsInTwoLists() {
        Map<List<Long>, Integer> shared = new HashMap<>();
        for (int h = 1; h <= hostCount; h++) {
            for (List<Long> list : committedLists.get(h).values()) {
                List<Long> numbers = list.stream().distinct().sorted().toList();
                for (int i = 0; i < numbers.size(); i++) {
                    for (int j = i + 1; j < numbers.size(); j++) {
                        shared.merge(List.of(numbers.get(i), numbers.get(j)), 1, Integer::sum);
                    }
                }
            }
        }
        return shared.values().stream().filter(lists -> lists >= 2).count();
    }

    /** How many read-only roots committed (their callers heard so). */
    long committedReaders() {
        return roots.stream().filter(root -> root.readOnly && root.result == Decision.Result.COMMITTED).count();
    }

    /** How many attempts were retried (wounded, or refused by an optimistic validation). */
    long retries() {
        return rootsByAttempt.size() - roots.size();
    }

    /** A one-line summary for the test log. */
    /** The roots that have not ended, what each waits for, and every live host's locks: why a run did not finish. */
    String unfinished() {
        StringBuilder text = new StringBuilder();
        for (Root root : roots) {
            if (root.result == null && !root.lost) {
                text.append("root ").append(root.number).append(" (attempt ").append(root.attempt).append(" on host ")
                        .append(root.host).append(") waits for ").append(root.wait).append(" at op ").append(root.next)
                        .append(" of ").append(root.ops).append("; ");
            }
        }
        for (int h = 1; h <= hostCount; h++) {
            if (!crashed.contains(h)) {
                text.append("host ").append(h).append(" locks: ").append(cores[h].describeLocks().replace('\n', ' '))
                        .append("; ");
            }
        }
        return text.toString();
    }

    String summary() {
        Map<String, Integer> outcomes = new TreeMap<>();
        for (Root root : roots) {
            outcomes.merge(root.lost ? "LOST" : String.valueOf(root.result), 1, Integer::sum);
        }
        long retries = retries();
        return roots.size() + " roots on " + hostCount + " hosts: " + outcomes + ", " + retries + " retries, "
                + steps + " steps" + (cutLinksSeen ? ", with cut links" : "")
                + (crashCount > 0 ? ", " + crashCount + " crashes (" + tornWrites + " torn writes)" : "")
                + (fastCommit ? ", fast commit: " + delegations + " delegations" : "")
                + (lists ? ", " + rootPairsInTwoLists() + " root pairs in two lists" : "");
    }
}
