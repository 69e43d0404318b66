package dev.waldo.runtime.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

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
 *
 * <p>After the run, {@link #check()} verifies that the committed history is
 * serializable: every counter's committed increments read 0, 1, ..., n-1 in
 * some order and the counter ends at n; transfers conserve the total; every
 * root ended exactly once; no attempt was both installed and discarded; no
 * lock or attempt is left anywhere.
 */
final class Simulation {
    static final int COUNTERS = 2;
    static final int ACCOUNTS = 3;
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
        boolean networkFailed;
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

    /** A call being served: one op on the serving host. */
    private record Served(TxnId txn, long callId, Op op) {
    }

    private final Random random;
    private final int hostCount;
    private final int transactions;
    private final HostCore[] cores;
    private final Map<Long, ArrayDeque<Envelope>> links = new TreeMap<>();
    private final List<Map<String, Long>> committed = new ArrayList<>();
    private final Map<TxnId, Map<Integer, Map<String, Long>>> working = new HashMap<>();
    private final Map<TxnId, List<String>> reads = new HashMap<>();
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
    private long steps;

    Simulation(long seed, int hostCount, int transactions, double lossRate, double cutRate) {
        this.random = new Random(seed);
        this.hostCount = hostCount;
        this.transactions = transactions;
        this.lossRate = lossRate;
        this.cutRate = cutRate;
        this.cores = new HostCore[hostCount + 1];
        committed.add(Map.of());
        for (int h = 1; h <= hostCount; h++) {
            cores[h] = new HostCore(h, 3);
            Map<String, Long> values = new LinkedHashMap<>();
            for (int i = 0; i < COUNTERS; i++) {
                values.put("counter" + i, 0L);
            }
            for (int i = 0; i < ACCOUNTS; i++) {
                values.put("account" + i, INITIAL_BALANCE);
            }
            committed.add(values);
        }
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
            }
            if (random.nextDouble() < cutRate) {
                cutRandomLink();
            } else if (!cutLinks.isEmpty() && random.nextDouble() < cutRate * 5) {
                heal(cutLinks.iterator().next());
            }
            if (!unfinished.isEmpty() && random.nextDouble() < 0.2) {
                Map.Entry<Integer, TxnId> done = unfinished.remove(random.nextInt(unfinished.size()));
                cores[done.getKey()].finished(done.getValue());
                pump(done.getKey());
                continue;
            }
            if (roots.size() < transactions && choice < 0.3) {
                startRoot();
            } else if (!links.isEmpty() && choice < 0.97) {
                deliverOne();
            } else {
                int h = 1 + random.nextInt(hostCount);
                cores[h].tick();
                pump(h);
            }
        }
        return true;
    }

    long steps() {
        return steps;
    }

    private boolean finished() {
        if (!allEnded() || !links.isEmpty() || !cutLinks.isEmpty() || !unfinished.isEmpty()) {
            return false;
        }
        for (int h = 1; h <= hostCount; h++) {
            if (cores[h].undeliveredDecisions() > 0) {
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
            if (root.result == null) {
                return false;
            }
        }
        return true;
    }

    // ---- workload --------------------------------------------------------------------------

    private void startRoot() {
        int host = 1 + random.nextInt(hostCount);
        long object = 1 + random.nextInt(OBJECTS_PER_HOST);
        List<Op> ops = new ArrayList<>();
        if (random.nextBoolean()) {
            int increments = 1 + random.nextInt(2);
            for (int i = 0; i < increments; i++) {
                ops.add(new Op(1 + random.nextInt(hostCount), "counter" + random.nextInt(COUNTERS), 1));
            }
        } else {
            long amount = 1 + random.nextInt(50);
            ops.add(new Op(1 + random.nextInt(hostCount), "account" + random.nextInt(ACCOUNTS), -amount));
            ops.add(new Op(1 + random.nextInt(hostCount), "account" + random.nextInt(ACCOUNTS), amount));
        }
        boolean aborts = random.nextInt(30) == 0;
        boolean refused = !aborts && random.nextInt(30) == 0;
        Root root = new Root(roots.size(), host, object, List.copyOf(ops), aborts, refused);
        roots.add(root);
        root.attempt = cores[host].begin(object);
        rootsByAttempt.put(root.attempt, root);
        advance(root);
        pump(host);
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
                long callId = core.call(root.attempt, op.host, op);
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

    private void unwind(Root root) {
        root.wait = Wait.END;
        cores[root.host].finishRoot(root.attempt, HostCore.Ending.WOUNDED);
    }

    private static LockId lockOf(Op op) {
        return LockId.whole(1, op.variable);
    }

    /** Applies the op to the attempt's working copy; returns what a counter increment read, or null. */
    private String apply(TxnId txn, Op op) {
        Map<String, Long> values = working.computeIfAbsent(txn, t -> new HashMap<>())
                .computeIfAbsent(op.host, h -> new HashMap<>());
        long value = values.getOrDefault(op.variable, committed.get(op.host).get(op.variable));
        values.put(op.variable, value + op.delta);
        if (TRACE) {
            System.out.println("apply " + txn + " on " + op.host + " " + op.variable + " read " + value + " + " + op.delta);
        }
        return op.variable.startsWith("counter") ? op.host + ":" + op.variable + "=" + value : null;
    }

    /** Counts a read only once the root saw it: a call whose reply was lost did not happen for the root. */
    private void noteRead(TxnId txn, String read) {
        if (read != null) {
            reads.computeIfAbsent(txn, t -> new ArrayList<>()).add(read);
        }
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
        if (cutLinks.contains(linkKey(envelope.from(), envelope.to()))) {
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
        // Messages in flight on a cut link are lost; both ends learn the link is down after them.
        links.remove((long) a * 1000 + b);
        links.remove((long) b * 1000 + a);
        cores[a].linkDown(b);
        pump(a);
        cores[b].linkDown(a);
        pump(b);
    }

    private void heal(long link) {
        cutLinks.remove(link);
        if (TRACE) {
            System.out.println("heal " + link);
        }
        int a = (int) (link / 1000);
        int b = (int) (link % 1000);
        cores[a].linkUp(b);
        pump(a);
        cores[b].linkUp(a);
        pump(b);
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
            case Message.Answer a -> true;
            default -> false;
        };
        return commitPhase && random.nextDouble() < lossRate;
    }

    /**
     * Sends and applies what host {@code h}'s core produced until it produces
     * nothing more, the way the real host layer does: installs and discards
     * are applied at once; the bodies that decisions wake run afterwards, one
     * at a time, each followed by applying what it produced. A body must never
     * run while decisions it could observe are still unapplied.
     */
    private void pump(int h) {
        ArrayDeque<Decision> woken = new ArrayDeque<>();
        drainInto(h, woken);
        while (!woken.isEmpty()) {
            apply(h, woken.poll());
            drainInto(h, woken);
        }
    }

    private void drainInto(int h, ArrayDeque<Decision> woken) {
        for (Outbox out = cores[h].drain(); !out.isEmpty(); out = cores[h].drain()) {
            for (Envelope envelope : out.messages()) {
                if (cutLinks.contains(linkKey(envelope.from(), envelope.to()))) {
                    continue;
                }
                links.computeIfAbsent((long) envelope.from() * 1000 + envelope.to(), k -> new ArrayDeque<>())
                        .add(envelope);
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

    // ---- the host layer --------------------------------------------------------------------

    private void apply(int h, Decision decision) {
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
                boolean finishLater = random.nextBoolean();
                if (finishLater) {
                    bound.add(h + "/" + prepare.txn());
                }
                cores[h].vote(prepare.txn(), !refuse, refuse ? "refused by the simulation" : null, finishLater);
            }
            case Decision.Install install -> {
                finishLater(h, install.txn());
                installs.merge(install.txn(), 1, Integer::sum);
                Map<String, Long> values = working.getOrDefault(install.txn(), Map.of()).get(h);
                if (values != null) {
                    committed.get(h).putAll(values);
                }
            }
            case Decision.Discard discard -> {
                finishLater(h, discard.txn());
                discards.computeIfAbsent(discard.txn(), t -> new java.util.HashSet<>()).add(h);
            }
            case Decision.RootDone done -> onRootDone(h, done);
        }
    }

    /** Bindings that took part finish their commit or abort at some later step. */
    private void finishLater(int h, TxnId txn) {
        if (bound.remove(h + "/" + txn)) {
            unfinished.add(Map.entry(h, txn));
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
        Decision.Result expected = root.aborts || root.networkFailed ? Decision.Result.FAILED
                : root.refused ? Decision.Result.REFUSED : Decision.Result.COMMITTED;
        // A refusing host that the root had to go on without cannot refuse.
        boolean refusalSkipped = root.refused && expected == Decision.Result.REFUSED
                && root.result == Decision.Result.COMMITTED && cutLinksSeen;
        if (root.result != expected && !refusalSkipped) {
            violations.add("root " + root.number + " ended " + root.result + ", expected " + expected);
        }
    }

    // ---- checks ----------------------------------------------------------------------------

    /** Returns every violation of serializability, atomicity or cleanliness found. */
    List<String> check() {
        List<String> found = new ArrayList<>(violations);
        Map<String, List<Long>> counterReads = new TreeMap<>();
        long expectedTotal = (long) hostCount * ACCOUNTS * INITIAL_BALANCE;
        for (Root root : roots) {
            boolean committedRoot = root.result == Decision.Result.COMMITTED;
            if (committedRoot) {
                for (String read : reads.getOrDefault(root.attempt, List.of())) {
                    String[] parts = read.split("=");
                    counterReads.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(Long.parseLong(parts[1]));
                }
            }
        }
        for (TxnId attempt : installs.keySet()) {
            Root root = rootsByAttempt.get(attempt);
            // A host whose call failed may discard an attempt that commits without it; a host that took part may not.
            java.util.Set<Integer> discardedOnParticipant = new java.util.HashSet<>(discards.getOrDefault(attempt, java.util.Set.of()));
            discardedOnParticipant.retainAll(joined.getOrDefault(attempt, java.util.Set.of()));
            if (root != null && discards.getOrDefault(attempt, java.util.Set.of()).contains(root.host)) {
                discardedOnParticipant.add(root.host);
            }
            if (!discardedOnParticipant.isEmpty()) {
                found.add("attempt " + attempt + " was installed, but discarded on participants " + discardedOnParticipant);
            }
            if (root == null || root.result != Decision.Result.COMMITTED || !root.attempt.equals(attempt)) {
                found.add("attempt " + attempt + " was installed but its root did not commit it");
            }
        }
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
                found.add("host " + h + " still has " + cores[h].liveAttempts() + " attempts and "
                        + cores[h].busyVariables() + " locked variables");
            }
        }
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

    /** The committed transfers whose two sides were not both installed, to explain a broken total. */
    private List<String> unbalancedTransfers() {
        List<String> found = new ArrayList<>();
        Map<String, Long> expected = new TreeMap<>();
        for (Root root : roots) {
            if (root.result == Decision.Result.COMMITTED) {
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
            if (root.result != Decision.Result.COMMITTED || root.ops.get(0).variable.startsWith("counter")) {
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

    /** A one-line summary for the test log. */
    String summary() {
        Map<Decision.Result, Integer> outcomes = new TreeMap<>();
        for (Root root : roots) {
            outcomes.merge(root.result, 1, Integer::sum);
        }
        long retries = rootsByAttempt.size() - roots.size();
        return roots.size() + " roots on " + hostCount + " hosts: " + outcomes + ", " + retries + " retries, "
                + steps + " steps" + (cutLinksSeen ? ", with cut links" : "");
    }
}
