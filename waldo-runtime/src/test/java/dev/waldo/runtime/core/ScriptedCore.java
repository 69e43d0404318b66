package dev.waldo.runtime.core;

import dev.waldo.runtime.storage.InMemoryStorage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a scenario script against {@link HostCore}s and returns the trace of
 * what they sent and decided, one line per event, with hosts and attempts by
 * name. Commands, one per line ({@code #} starts a comment):
 * <pre>
 * begin a T1            host a begins root T1 (on object 1)
 * snapshot a T1         T1, just begun or retried on a, is read-only and reads a snapshot
 * lock a T1 x [read|append]  T1 asks host a for variable x (exclusively, to read it, or to append to it)
 * call a T1 b           T1, running on a, calls host b (the call is served by "serve")
 * last a T1 b           the same, marked as the root body's last call: it carries the prepare
 * serve b T1 x [read|append]  host b's served call of T1 locks x (if it can), then returns
 * return b T1           the served call of T1 on b returns (after a later grant)
 * abandon b T1          the served call of T1 on b unwinds after a wound
 * done a T1             T1's root body on a returns; commit starts
 * unwind a T1           T1's root body on a unwinds after a wound
 * retry a T1            T1's next attempt begins (named T1')
 * vote b T1 yes|no      host b votes on T1, no bindings taking part (its install or discard is finished at once)
 * vote b T1 yes|no bound  host b's bindings took part and vote; their commit or abort runs until "finish"
 * finish b T1           host b's bindings finished T1's commit or abort
 * readonly b T1         host b prepared T1, which changed nothing there (HostCore.voteReadOnly)
 * deliver a b [n|all]   deliver the next n (default 1) messages from a to b
 * drop a b              lose the next message from a to b
 * tick a [n]            host a ticks n times
 * cut a b / heal a b    the link between a and b goes down (losing what is on it) / up
 * restart c             host c is killed and starts again with an empty core and log (what was on its links is lost)
 * restarted a c         host a's transport reports that c restarted (HostCore.peerRestarted)
 * crash c               host c is killed and starts again from its log (what was on its links is lost)
 * crash c durable       the same, for a host layer whose values survive the restart: attempts in doubt keep their
 *                       variables locked, and the clock starts where it was at the host's last install
 * log c                 the records host c has made durable so far
 * owed a                how many decisions host a still owes to hosts it can reach
 * timed a               whether host a's core has anything a tick could do (HostCore.needsTicks)
 * locks b               host b's lock table, attempts by name
 * writers b x           the attempts a committed() read of x on b waits for (voted yes, undecided there)
 * recover c T1 b ...    restarted host c takes up T1, journaled as voted yes, asking peers b ...
 * replicate all         every host settles distributed outcomes with the decision register, also after restarts
 * fast all              every host has roots whose data live on one other host only commit there (fast commit)
 * realtime all [n]      every host stamps with the script's real time (a second per line), also after restarts, and
 *                       holds a commit back until n lines (default 0) passed its stamp (the clocks' uncertainty)
 * settle a              the register answers host a's oldest ask: the first outcome proposed for the attempt
 * </pre>
 */
final class ScriptedCore {
    /**
     * The start the commit and crash scripts share: attempt T1 rooted on a, with calls served on b
     * and c (each holding a lock), asked to prepare on all three.
     */
    static final String PREPARED_ON_A_B_C = """
            begin a T1
            call a T1 b
            deliver a b
            serve b T1 x
            deliver b a
            call a T1 c
            deliver a c
            serve c T1 y
            deliver c a
            done a T1
            deliver a b
            deliver a c
            """;

    private final Map<String, HostCore> cores = new LinkedHashMap<>();
    private final Map<String, InMemoryStorage> storages = new HashMap<>();
    /** Per host, its clock when it last applied an install: kept with values that survive a restart ("crash c durable"). */
    private final Map<String, Long> clockAtInstall = new HashMap<>();
    private int runs;
    private final Map<Integer, String> hostNames = new HashMap<>();
    private final Map<String, TxnId> attempts = new HashMap<>();
    private final Map<TxnId, String> attemptNames = new HashMap<>();
    private final Map<String, ArrayDeque<Envelope>> links = new HashMap<>();
    private final Map<String, Long> served = new HashMap<>();
    /** "host/attempt" whose bindings took part: their install or discard waits for "finish". */
    private final Set<String> bound = new HashSet<>();
    private final Set<String> cut = new HashSet<>();
    private final List<String> trace = new ArrayList<>();
    /** The decision register ("replicate all"): per attempt, the first outcome proposed. */
    private final Map<TxnId, Long> register = new HashMap<>();
    /** Per host, its asks of the register not answered yet, oldest first. */
    private final Map<String, ArrayDeque<Decision.Register>> asks = new HashMap<>();
    private boolean replicated;
    /** Every host has a root whose data live on one other host only commit there ("fast all"). */
    private boolean fastCommit;
    /** The clocks' uncertainty in nanoseconds with "realtime all", or -1 without. */
    private long uncertainty = -1;
    /** The script's line number, and the last real time read: see {@link #realTimeNow}. */
    private long lines;
    private long lastRealTime;

    ScriptedCore(String... hosts) {
        for (String name : hosts) {
            int number = cores.size() + 1;
            cores.put(name, new HostCore(number, 2));
            storages.put(name, new InMemoryStorage());
            storages.get(name).load();
            hostNames.put(number, name);
        }
    }

    /** Runs the script and returns the trace. */
    String run(String script) {
        for (String line : script.strip().split("\n")) {
            String command = line.replaceAll("#.*", "").strip();
            lines++;
            if (!command.isEmpty()) {
                trace.add("> " + command);
                execute(command.split("\\s+"));
            }
        }
        return String.join("\n", trace);
    }

    private void execute(String[] words) {
        if (words[0].equals("replicate")) {
            replicated = true;
            cores.values().forEach(HostCore::useReplicatedDecisions);
            return;
        }
        if (words[0].equals("realtime")) {
            uncertainty = words.length > 2 ? Long.parseLong(words[2]) * 1_000_000_000L : 0;
            cores.values().forEach(this::configured);
            return;
        }
        if (words[0].equals("fast")) {
            fastCommit = true;
            cores.values().forEach(core -> core.useFastCommit(true));
            return;
        }
        String host = words[1];
        HostCore core = cores.get(host);
        switch (words[0]) {
            case "begin" -> name(core.begin(1), words[2]);
            case "retry" -> name(core.retry(attempts.get(words[2])), words[2] + "'");
            case "snapshot" -> core.readSnapshot(attempts.get(words[2]));
            case "lock" -> note(core.lock(attempts.get(words[2]), lockOf(words)) ? "granted" : "waiting");
            case "call" -> core.call(attempts.get(words[2]), number(words[3]), words[2]);
            case "last" -> {
                if (core.call(attempts.get(words[2]), number(words[3]), words[2], true) == HostCore.CALLED_AFTER_LAST) {
                    note("refused: a call after the last call");
                }
            }
            case "serve" -> {
                boolean granted = core.lock(attempts.get(words[2]), lockOf(words));
                note(granted ? "granted" : "waiting");
                if (granted) {
                    returnServed(host, words[2]);
                }
            }
            case "return" -> returnServed(host, words[2]);
            case "abandon" -> {
                Long callId = served.remove(host + "/" + words[2]);
                core.finishCall(attempts.get(words[2]), callId, null, true);
            }
            case "done" -> core.finishRoot(attempts.get(words[2]), HostCore.Ending.DONE);
            case "unwind" -> core.finishRoot(attempts.get(words[2]), HostCore.Ending.WOUNDED);
            case "vote" -> {
                boolean withBindings = words.length > 4 && words[4].equals("bound");
                if (withBindings) {
                    bound.add(host + "/" + words[2]);
                }
                core.vote(attempts.get(words[2]), words[3].equals("yes"), words[3].equals("yes") ? null : "no",
                        withBindings);
            }
            case "finish" -> core.finished(attempts.get(words[2]));
            case "readonly" -> note(core.voteReadOnly(attempts.get(words[2])) ? "voted read-only" : "voted yes");
            case "restarted" -> core.peerRestarted(number(words[2]));
            case "deliver" -> deliver(host, words[2], words.length > 3 ? words[3] : "1");
            case "drop" -> {
                Envelope lost = links.get(host + ">" + words[2]).poll();
                trace.add("  lost " + describe(lost.message()));
            }
            case "tick" -> {
                for (int i = 0; i < (words.length > 2 ? Integer.parseInt(words[2]) : 1); i++) {
                    core.tick();
                }
            }
            case "cut" -> {
                cut.add(host + ">" + words[2]);
                cut.add(words[2] + ">" + host);
                loseQueued(host + ">" + words[2]);
                loseQueued(words[2] + ">" + host);
                core.linkDown(number(words[2]));
                collect();
                cores.get(words[2]).linkDown(number(host));
            }
            case "heal" -> {
                cut.remove(host + ">" + words[2]);
                cut.remove(words[2] + ">" + host);
                core.linkUp(number(words[2]));
                collect();
                cores.get(words[2]).linkUp(number(host));
            }
            case "locks" -> core.describeLocks().lines().forEach(line -> note(named(line)));
            case "owed" -> note("decisions owed by " + host + ": " + core.decisionsOwed());
            case "timed" -> note(host + (core.needsTicks() ? " needs ticks" : " needs no ticks"));
            case "settle" -> settle(host);
            case "restart" -> restart(host);
            case "crash" -> crash(host, words.length > 2 && words[2].equals("durable"));
            case "writers" -> note("undecided writers of " + words[2] + ": " + core.undecidedWriters(LockId.whole(1, words[2]))
                    .stream().map(attemptNames::get).toList());
            case "log" -> {
                for (StorageRecord record : storages.get(host).load()) {
                    note("logged " + describe(record));
                }
            }
            case "recover" -> {
                Set<Integer> peers = new HashSet<>();
                for (int i = 3; i < words.length; i++) {
                    peers.add(number(words[i]));
                }
                note(core.recover(attempts.get(words[2]), peers) ? "recovering" : "already known");
            }
            default -> throw new IllegalArgumentException("unknown command " + String.join(" ", words));
        }
        collect();
    }

    /** The lock of "lock" and "serve": the variable named third, in the mode a fourth word says, else exclusive. */
    private static LockId lockOf(String[] words) {
        String mode = words.length > 4 ? words[4] : "write";
        return LockId.whole(1, words[3], switch (mode) {
            case "read" -> LockMode.READ;
            case "append" -> LockMode.APPEND;
            case "write" -> LockMode.WRITE;
            default -> throw new IllegalArgumentException("unknown lock mode " + mode + " in " + String.join(" ", words));
        });
    }

    private void settle(String host) {
        Decision.Register ask = asks.get(host).poll();
        Long first = register.putIfAbsent(ask.txn(), ask.commitStamp());
        long settled = first == null ? ask.commitStamp() : first;
        boolean committed = settled != 0;
        note("the register settled " + attemptNames.get(ask.txn()) + " as " + (committed ? "committed" : "backed out"));
        cores.get(host).registered(ask.txn(), settled);
    }

    private void restart(String host) {
        int number = number(host);
        for (String other : cores.keySet()) {
            loseQueued(host + ">" + other);
            loseQueued(other + ">" + host);
        }
        cores.put(host, configured(new HostCore(number, 2)));
        storages.put(host, new InMemoryStorage());
        storages.get(host).load();
    }

    private void crash(String host, boolean durable) {
        InMemoryStorage storage = storages.get(host);
        restart(host);
        HostCore core = configured(new HostCore(number(host), 2, true, ++runs * 1000L));
        cores.put(host, core);
        storages.put(host, storage);
        if (durable) {
            core.advanceClock(clockAtInstall.getOrDefault(host, 0L));
        }
        core.restore(storage.load(), storage.hasEarlierRuns(), durable);
    }

    private HostCore configured(HostCore core) {
        if (replicated) {
            core.useReplicatedDecisions();
        }
        core.useFastCommit(fastCommit);
        if (uncertainty >= 0) {
            core.useRealTimeStamps(this::realTimeNow, uncertainty);
        }
        return core;
    }

    /** Real time in nanoseconds: a second per script line, and a microsecond more at every read. */
    private long realTimeNow() {
        lastRealTime = Math.max(lastRealTime + 1_000, lines * 1_000_000_000L);
        return lastRealTime;
    }

    private String describe(StorageRecord record) {
        String attempt = attemptNames.get(record.txn());
        return switch (record) {
            case StorageRecord.Prepared prepared -> "prepared " + attempt + ", coordinator "
                    + hostNames.get(prepared.coordinator()) + ", peers "
                    + new java.util.TreeSet<>(prepared.peers()).stream().map(hostNames::get).toList();
            case StorageRecord.Committed committed -> "commit " + attempt;
            case StorageRecord.Ended ended -> "end " + attempt + (ended.committed() ? " committed" : " backed out");
            case StorageRecord.Forgotten forgotten -> "forgot " + attempt;
        };
    }

    private void loseQueued(String link) {
        ArrayDeque<Envelope> queue = links.remove(link);
        if (queue != null) {
            for (Envelope lost : queue) {
                trace.add("  lost " + describe(lost.message()));
            }
        }
    }

    private void returnServed(String host, String attempt) {
        Long callId = served.remove(host + "/" + attempt);
        cores.get(host).finishCall(attempts.get(attempt), callId, "ok", false);
    }

    private void deliver(String from, String to, String count) {
        ArrayDeque<Envelope> queue = links.getOrDefault(from + ">" + to, new ArrayDeque<>());
        int n = count.equals("all") ? queue.size() : Integer.parseInt(count);
        for (int i = 0; i < n; i++) {
            Envelope next = queue.poll();
            if (next == null) {
                throw new IllegalStateException("nothing to deliver from " + from + " to " + to + "; trace so far:\n"
                        + String.join("\n", trace));
            }
            cores.get(to).step(next);
            collect();
        }
    }

    /**
     * Drains every core, queueing messages on their links and tracing
     * everything, until none produces more. Installs and discards count as
     * applied at once, and finished (reported to the core with
     * {@code finished}) unless bindings took part ("vote ... bound"); the
     * records the cores ask to persist are not traced.
     */
    private void collect() {
        for (Map.Entry<String, HostCore> entry : cores.entrySet()) {
            for (Outbox out = entry.getValue().drain(); !out.isEmpty(); out = entry.getValue().drain()) {
                storages.get(entry.getKey()).append(out.persist()); // persist before you send
                for (TxnId applied : trace(entry.getKey(), out)) {
                    if (!bound.contains(entry.getKey() + "/" + attemptNames.get(applied))) {
                        entry.getValue().finished(applied);
                    }
                }
            }
        }
    }

    private List<TxnId> trace(String host, Outbox out) {
        List<TxnId> applied = new ArrayList<>();
        for (Decision decision : out.decisions()) {
            trace.add("  " + host + ": " + describe(decision));
            if (decision instanceof Decision.Register ask) {
                asks.computeIfAbsent(host, h -> new ArrayDeque<>()).add(ask);
            }
            if (decision instanceof Decision.RunCall run) {
                served.put(host + "/" + attemptNames.get(run.txn()), run.callId());
            }
            if (decision instanceof Decision.Install || decision instanceof Decision.Discard) {
                applied.add(decision.txn());
            }
            if (decision instanceof Decision.Install) {
                clockAtInstall.put(host, cores.get(host).clock());
            }
        }
        for (Envelope envelope : out.messages()) {
            String link = host + ">" + hostNames.get(envelope.to());
            if (cut.contains(link)) {
                continue;
            }
            trace.add("  " + host + " -> " + hostNames.get(envelope.to()) + ": " + describe(envelope.message()));
            links.computeIfAbsent(link, k -> new ArrayDeque<>()).add(envelope);
        }
        return applied;
    }

    private String describe(Decision decision) {
        String attempt = attemptNames.get(decision.txn());
        return switch (decision) {
            case Decision.Granted granted -> "granted " + attempt + " " + granted.lock().variable();
            case Decision.Wounded wounded -> "wounded " + attempt;
            case Decision.RunCall run -> "run call of " + attempt;
            case Decision.Replied replied -> "reply to " + attempt + (replied.wounded() ? " (wounded)" : "");
            case Decision.CallFailed failed -> "call of " + attempt + " failed: " + hostNames.get(failed.host()) + " unreachable";
            case Decision.PrepareLocal prepare -> "prepare " + attempt;
            case Decision.Install install -> "install " + attempt;
            case Decision.Discard discard -> "discard " + attempt + (discard.prepared() ? " (prepared)" : "");
            case Decision.Register ask -> "ask the register to settle " + attempt + " as "
                    + (ask.commit() ? "committed" : "backed out");
            case Decision.RootDone done -> "root " + attempt + " " + done.result();
        };
    }

    private String describe(Message message) {
        String attempt = attemptNames.get(message.txn());
        return switch (message) {
            case Message.Call call -> "Call " + attempt + (call.priority().primary() ? " (primary)" : "")
                    + (call.snapshot() ? " (snapshot)" : "") + (call.prepareWith() == null ? "" : " + Prepare");
            case Message.Reply reply -> "Reply " + attempt + (reply.wounded() ? " (wounded)" : "")
                    + (reply.vote() == null ? "" : " + Vote " + reply.vote().verdict() + (reply.vote().bound() ? " (bound)" : ""));
            case Message.Wound wound -> "Wound " + attempt;
            case Message.Promote promote -> "Promote " + attempt;
            case Message.Prepare prepare -> "Prepare " + attempt;
            case Message.Vote vote -> "Vote " + attempt + " " + vote.verdict() + (vote.bound() ? " (bound)" : "");
            case Message.Commit commit -> "Commit " + attempt;
            case Message.Backout backout -> "Backout " + attempt;
            case Message.Ack ack -> "Ack " + attempt;
            case Message.Query query -> "Query " + attempt;
            case Message.Answer answer -> "Answer " + attempt + " " + answer.outcome();
            case Message.Delegate delegate -> "Delegate " + attempt;
        };
    }

    private void name(TxnId attempt, String name) {
        attempts.put(name, attempt);
        attemptNames.put(attempt, name);
    }

    /** {@code text} with each attempt id replaced by its script name. */
    private String named(String text) {
        for (Map.Entry<TxnId, String> attempt : attemptNames.entrySet()) {
            text = text.replace(attempt.getKey().toString(), attempt.getValue());
        }
        return text;
    }

    private void note(String what) {
        trace.add("  " + what);
    }

    private int number(String host) {
        return cores.get(host).host();
    }
}
