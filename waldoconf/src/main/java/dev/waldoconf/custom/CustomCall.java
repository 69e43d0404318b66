package dev.waldoconf.custom;

import dev.waldo.compiler.check.Symbol;
import dev.waldo.compiler.check.Type;
import dev.waldo.net.NetConfig;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.WaldoObject;
import dev.waldo.runtime.lang.WList;
import dev.waldoconf.service.Identities;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.ProgressListener;
import dev.waldoconf.service.ChangeRunner;
import dev.waldoconf.service.OperatorSession;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code waldoconf call my.wld Kind.function args...} runs on the operator's host: connects to
 * the named switches' custom services, resolves the Service behind each one's desk, creates the
 * coordinator Service {@code Kind} here and calls {@code function(services, args...)} as ONE
 * transaction, so every agent takes the change or none does; with {@link #callAsTrial} the change is a
 * trial that every service reverts at its deadline unless {@link #confirm}ed, and {@link #rollback}
 * reverts it at once, each as one transaction too. Each service reached must be the
 * switch's own ({@link Identities#serviceIdentity}); another one answering is refused before any call.
 */
public final class CustomCall implements AutoCloseable {
    private final CustomProgram program;
    private final OperatorSession session;
    private final List<String> names;
    private final WList<EndpointRef> services;
    /** Each service's {@value CustomProgram#TRIAL}, in the order of {@link #names}. */
    private final List<EndpointRef> trialKeepers;

    private CustomCall(CustomProgram program, OperatorSession session, List<String> names, WList<EndpointRef> services,
            List<EndpointRef> trialKeepers) {
        this.program = program;
        this.session = session;
        this.names = names;
        this.services = services;
        this.trialKeepers = trialKeepers;
    }

    /**
     * A trial pending on some of the services.
     *
     * @param change its change id
     * @param deadline when it reverts
     * @param switches the switches it was staged on
     * @param pendingOn the services (of this call) where it is still pending
     */
    public record PendingTrial(String change, Instant deadline, List<String> switches, List<String> pendingOn) {
    }

    /** What {@link #callAsTrial} did: the function's result, and the trial to confirm. */
    public record Staged(Object result, String change, Instant deadline) {
    }

    /**
     * The custom service of {@code program} ({@code waldoconf serve --service PROGRAM --switch NAME})
     * as an {@link OperatorSession} connects to it: the program's structs and operator desk.
     */
    public static OperatorSession.ServiceKind service(CustomProgram program) {
        program.load();
        return new OperatorSession.ServiceKind(program.structs(), program.factory(CustomProgram.OPERATOR),
                served -> "waldoconf serve --service " + program.argument() + " " + served);
    }

    /**
     * Connects to the services {@code services} (by switch name, in the order the coordinator gets them) through an {@link OperatorSession} with {@code config}, and resolves the
     * served Service of each.
     *
     * @throws NetworkException naming every service that cannot be reached
     */
    public static CustomCall connect(CustomProgram program, Map<String, OperatorSession.Service> services,
            NetConfig config) {
        return attach(program, services, OperatorSession.open(config, service(program), services,
                ProgressListener.NONE).requireAll());
    }

    /**
     * As {@link #connect(CustomProgram, Map, NetConfig)}, as {@code operator} from its coordinator
     * slot (the product's sessions: a killed call's trial is settled by the next session, see
     * {@link OperatorSession#open(OperatorSession.Operator, OperatorSession.ServiceKind, Map,
     * ProgressListener)}).
     *
     * @throws EngineException when the operator has no identity or no coordinator slot is free
     * @throws NetworkException naming every service that cannot be reached
     */
    public static CustomCall connect(CustomProgram program, Map<String, OperatorSession.Service> services,
            OperatorSession.Operator operator) throws EngineException {
        return attach(program, services, OperatorSession.open(operator, service(program), services,
                ProgressListener.NONE).requireAll());
    }

    /** Resolves the served Service of each service {@code session} reached; closes it on failure. */
    private static CustomCall attach(CustomProgram program, Map<String, OperatorSession.Service> switches,
            OperatorSession session) {
        try {
            WList<EndpointRef> desks = new WList<>();
            session.desks().values().forEach(desks::add);
            WaldoObject directory = program.create(CustomProgram.DIRECTORY, session.host());
            @SuppressWarnings("unchecked")
            WList<EndpointRef> services = (WList<EndpointRef>) program.call(directory, "services", desks);
            @SuppressWarnings("unchecked")
            WList<EndpointRef> trials = (WList<EndpointRef>) program.call(directory, "trials", desks);
            return new CustomCall(program, session, List.copyOf(switches.keySet()), services, List.copyOf(trials));
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** The switches whose services take part, in the order the coordinator gets them. */
    public List<String> names() {
        return names;
    }

    /**
     * Creates coordinator Service {@code kind} on the operator's host and calls Public
     * {@code function} with the services first and {@code arguments} after, as one transaction.
     *
     * @return the function's result, or null for a function that returns nothing
     * @throws dev.waldo.runtime.TransactionAbortedException if an agent refused (nothing changed anywhere)
     *     or the program called abort()
     * @throws NetworkException if a service became unreachable (nothing changed anywhere)
     * @throws dev.waldo.runtime.ApplicationException if the program failed at run time (nothing changed)
     */
    public Object call(String kind, String function, List<Object> arguments) {
        WaldoObject coordinator = program.create(kind, session.host());
        return program.call(coordinator, function, withServices(arguments));
    }

    private Object[] withServices(List<Object> arguments) {
        Object[] all = new Object[arguments.size() + 1];
        all[0] = new WList<>(services);
        for (int i = 0; i < arguments.size(); i++) {
            all[i + 1] = arguments.get(i);
        }
        return all;
    }

    /**
     * Calls {@code function} as {@link #call} does, and in the same transaction stages what it changes
     * on every service as a trial: each service reverts its agent at {@code now + trial} by itself
     * (after a restart too) unless {@link #confirm} comes first. A service with a pending trial
     * refuses (confirm or roll that one back first).
     *
     * @throws dev.waldo.runtime.TransactionAbortedException if an agent refused or a trial is pending
     *     (nothing changed anywhere)
     */
    public Staged callAsTrial(String kind, String function, List<Object> arguments, Duration trial, Clock clock) {
        WaldoObject coordinator = program.create(kind, session.host());
        String change = ChangeRunner.newChangeId('t', clock);
        Instant deadline = clock.instant().plus(trial).truncatedTo(ChronoUnit.SECONDS);
        String switches = String.join(",", names);
        Object result = new OperatorTransaction(session.host()).run("trial " + change, ctx -> {
            for (EndpointRef keeper : trialKeepers) {
                ctx.call(keeper, "stage", change, (double) deadline.getEpochSecond(), switches);
            }
            return ctx.call(coordinator.ref(), function, withServices(arguments));
        });
        return new Staged(result, change, deadline);
    }

    /**
     * Keeps trial {@code change} on every service where it is pending, as one transaction.
     *
     * @return the services where it was pending
     * @throws IllegalArgumentException if it is pending on none of them
     */
    public List<String> confirm(String change) {
        return end(change, "confirm");
    }

    /**
     * Reverts trial {@code change} now on every service where it is pending, as one transaction:
     * each agent gets back the values it held before the trial.
     *
     * @return the services where it was pending
     * @throws IllegalArgumentException if it is pending on none of them
     * @throws dev.waldo.runtime.TransactionAbortedException if an agent refused (nothing changed)
     */
    public List<String> rollback(String change) {
        return end(change, "revert");
    }

    private List<String> end(String change, String function) {
        List<String> ended = new OperatorTransaction(session.host()).run(function + " " + change, ctx -> {
            List<String> found = new ArrayList<>();
            for (int i = 0; i < trialKeepers.size(); i++) {
                if ((Boolean) ctx.call(trialKeepers.get(i), function, change)) {
                    found.add(names.get(i));
                }
            }
            return found;
        });
        if (ended.isEmpty()) {
            throw new IllegalArgumentException("no trial " + change + " is pending on " + String.join(", ", names)
                    + pendingHint());
        }
        return ended;
    }

    private String pendingHint() {
        List<PendingTrial> pending = pendingTrials();
        return pending.isEmpty() ? "; no trial is pending there" : "; pending: " + String.join(", ",
                pending.stream().map(PendingTrial::change).toList());
    }

    /** The trials pending on these services, read in one transaction, in the order first found. */
    public List<PendingTrial> pendingTrials() {
        return new OperatorTransaction(session.host()).run("trials", ctx -> {
            Map<String, PendingTrial> found = new LinkedHashMap<>();
            for (int i = 0; i < trialKeepers.size(); i++) {
                String change = (String) ctx.call(trialKeepers.get(i), "pending");
                if (change.isEmpty()) {
                    continue;
                }
                PendingTrial known = found.get(change);
                List<String> on = new ArrayList<>(known == null ? List.of() : known.pendingOn());
                on.add(names.get(i));
                double deadline = (Double) ctx.call(trialKeepers.get(i), "pending_deadline");
                String switches = (String) ctx.call(trialKeepers.get(i), "pending_switches");
                found.put(change, new PendingTrial(change, Instant.ofEpochSecond(Math.round(deadline)),
                        List.of(switches.split(",")), on));
            }
            return List.copyOf(found.values());
        });
    }

    /**
     * Turns command-line words into the values of {@code function}'s parameters after the first:
     * Text as written, Number as a decimal number, TrueFalse as {@code true} or {@code false}.
     *
     * @throws IllegalArgumentException naming the parameter, its type and what was given
     */
    public static List<Object> arguments(Symbol.FunctionSym function, List<String> words) {
        List<Type> types = function.params().subList(1, function.params().size());
        if (words.size() != types.size()) {
            throw new IllegalArgumentException(function.owner() + "." + function.name() + " takes " + types.size()
                    + " argument(s) after the services (" + String.join(", ", parameterList(function)) + "), got "
                    + words.size());
        }
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            values.add(argument(function.decl().params().get(i + 1).name(), types.get(i), words.get(i)));
        }
        return values;
    }

    private static List<String> parameterList(Symbol.FunctionSym function) {
        List<String> list = new ArrayList<>();
        for (int i = 1; i < function.params().size(); i++) {
            list.add(function.params().get(i).display() + " " + function.decl().params().get(i).name());
        }
        return list;
    }

    private static Object argument(String name, Type type, String word) {
        if (type.equals(Type.NUMBER)) {
            try {
                return Double.parseDouble(word);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("argument " + name + " is a Number; '" + word + "' is not one");
            }
        }
        if (type.equals(Type.BOOL)) {
            if (!word.equalsIgnoreCase("true") && !word.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException("argument " + name + " is TrueFalse; write true or false, not '"
                        + word + "'");
            }
            return Boolean.parseBoolean(word);
        }
        return word;
    }

    /** Leaves the network. */
    @Override
    public void close() {
        session.close();
    }
}
