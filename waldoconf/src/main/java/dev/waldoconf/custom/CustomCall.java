package dev.waldoconf.custom;

import dev.waldo.compiler.check.Symbol;
import dev.waldo.compiler.check.Type;
import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.net.WrongPeerException;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.WaldoObject;
import dev.waldo.runtime.lang.WList;
import dev.waldoconf.service.Identities;
import dev.waldoconf.service.OperatorSession;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code waldoconf call my.wld Kind.function args...} runs on the operator's host: connects to
 * the named switches' custom services, resolves the Service behind each one's desk, creates the
 * coordinator Service {@code Kind} here and calls {@code function(services, args...)} as ONE
 * transaction, so every agent takes the change or none does. Each service reached must be the
 * switch's own ({@link Identities#serviceIdentity}); another one answering is refused before any call.
 */
public final class CustomCall implements AutoCloseable {
    private final CustomProgram program;
    private final NetHost net;
    private final List<String> names;
    private final WList<EndpointRef> services;

    private CustomCall(CustomProgram program, NetHost net, List<String> names, WList<EndpointRef> services) {
        this.program = program;
        this.net = net;
        this.names = names;
        this.services = services;
    }

    /**
     * Connects to the services at {@code addresses} (switch name to service address, in the order the
     * coordinator gets them) and resolves the served Service of each.
     *
     * @throws NetworkException naming the first service that cannot be reached
     */
    public static CustomCall connect(CustomProgram program, Map<String, InetSocketAddress> addresses,
            NetConfig config) {
        program.load();
        NetHost net = NetHost.start(config, program.structs());
        try {
            WList<EndpointRef> desks = new WList<>();
            for (Map.Entry<String, InetSocketAddress> service : addresses.entrySet()) {
                desks.add(connectDesk(program, net, service.getKey(), service.getValue()));
            }
            WaldoObject directory = program.create(CustomProgram.DIRECTORY, net.host());
            @SuppressWarnings("unchecked")
            WList<EndpointRef> services = (WList<EndpointRef>) program.call(directory, "services", desks);
            return new CustomCall(program, net, List.copyOf(addresses.keySet()), services);
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
    }

    private static EndpointRef connectDesk(CustomProgram program, NetHost net, String name,
            InetSocketAddress address) {
        try {
            return net.connect(address, Identities.serviceIdentity(name), program.factory(CustomProgram.OPERATOR))
                    .partner();
        } catch (WrongPeerException e) {
            throw new NetworkException(OperatorSession.wrongService(name, e));
        } catch (NetworkException e) {
            throw new NetworkException("cannot reach the service of " + name + " at " + address.getHostString() + ":"
                    + address.getPort() + " (" + e.getMessage() + "); is 'waldoconf serve --service "
                    + program.argument() + " --switch " + name + "' running?");
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
        WaldoObject coordinator = program.create(kind, net.host());
        Object[] all = new Object[arguments.size() + 1];
        all[0] = new WList<>(services);
        for (int i = 0; i < arguments.size(); i++) {
            all[i + 1] = arguments.get(i);
        }
        return program.call(coordinator, function, all);
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
        net.close();
    }
}
