package dev.waldo.compiler.run;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.check.KindInfo;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.NetworkException;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.Variable;
import dev.waldo.runtime.WaldoEndpoint;
import dev.waldo.runtime.WaldoObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Compiles a Waldo program, loads the emitted classes and runs them on
 * in-memory hosts, the way the corpus and the paper tests need: create
 * objects by kind name, connect partners, call Public functions by name.
 */
public final class ProgramRunner implements AutoCloseable {
    /** The Java package compiled programs are emitted into. */
    public static final String PACKAGE = "waldo.test";

    private final WaldoCompiler.Result compiled;
    private final ClassLoader loader;
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final List<Host> hosts = new ArrayList<>();

    /**
     * Compiles {@code source}.
     *
     * @throws AssertionError if the program has errors, with the rendered diagnostics
     */
    public ProgramRunner(SourceFile... sources) {
        compiled = WaldoCompiler.compile(List.of(sources), PACKAGE);
        if (!compiled.ok()) {
            throw new AssertionError("program has errors:\n" + compiled.rendered());
        }
        loader = compiled.classes().loader(getClass().getClassLoader());
    }

    /** The emitted Java, by path. */
    public java.util.Map<String, String> javaSources() {
        return compiled.javaSources();
    }

    /** A new host on this runner's network whose committed prints go to {@link #output()}. */
    public Host host(String name) {
        Host host = Host.inMemory(network, name);
        host.setOutput(new PrintStream(printed, true, StandardCharsets.UTF_8));
        hosts.add(host);
        return host;
    }

    /** The network the hosts share, for cutting links in tests. */
    public InMemoryNetwork network() {
        return network;
    }

    /** Creates an endpoint or service of kind {@code kind} on {@code host}, running its onCreate. */
    public WaldoObject create(String kind, Host host, Object... onCreateArgs) {
        Class<?> type = kindClass(kind);
        Method create = Arrays.stream(type.getMethods())
                .filter(m -> m.getName().equals("create") && m.getParameterCount() == onCreateArgs.length + 1)
                .findFirst().orElseThrow(() -> new AssertionError(kind + " has no create with "
                        + onCreateArgs.length + " onCreate argument(s)"));
        Object[] args = new Object[onCreateArgs.length + 1];
        args[0] = host;
        System.arraycopy(onCreateArgs, 0, args, 1, onCreateArgs.length);
        return (WaldoObject) invoke(create, null, args);
    }

    /** Creates endpoints of kinds {@code a} on {@code hostA} and {@code b} on {@code hostB} and connects them. */
    public Host.Connection<WaldoEndpoint, WaldoEndpoint> connect(String a, Host hostA, String b, Host hostB) {
        EndpointFactory<WaldoEndpoint> first = h -> (WaldoEndpoint) create(a, h);
        EndpointFactory<WaldoEndpoint> second = h -> (WaldoEndpoint) create(b, h);
        return hostA.connect(first, hostB, second);
    }

    /**
     * Calls Public function {@code function} on {@code target} by name, as tools do
     * ({@link WaldoObject#invoke}): what the runtime threw (TransactionAbortedException,
     * ApplicationException, ...) reaches the caller.
     */
    public Object call(WaldoObject target, String function, Object... args) {
        return target.invoke(function, args);
    }

    /**
     * The committed value of {@code target}'s variable {@code variable}, read as host code reads it:
     * through the handle its generated class lists in {@code VARIABLES}. Only this harness, which
     * loads programs compiled at test time, looks a handle up by name.
     */
    public Object committed(WaldoObject target, String variable) {
        try {
            List<?> handles = (List<?>) target.getClass().getField("VARIABLES").get(null);
            Variable<?> handle = handles.stream().map(h -> (Variable<?>) h).filter(h -> h.name().equals(variable))
                    .findFirst().orElseThrow(() -> new AssertionError(target.kind() + " has no variable " + variable));
            return target.committed(handle);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(target.getClass() + " has no public VARIABLES", e);
        }
    }

    /** The partner kind of endpoint kind {@code kind}, or null. */
    public String partnerOf(String kind) {
        KindInfo info = compiled.program().kinds().get(kind);
        return info == null ? null : info.partner();
    }

    /** Whether {@code kind} is a service. */
    public boolean isService(String kind) {
        return compiled.program().kinds().get(kind).isService();
    }

    /** What committed transactions printed so far, one entry per line. */
    public List<String> output() {
        String text = printed.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : List.of(text.split("\n", -1)).subList(0, text.split("\n", -1).length
                - (text.endsWith("\n") ? 1 : 0));
    }

    /**
     * Runs the corpus convention: {@code Main.main()} on one host (with its
     * partner, if it has one, on another) and returns what it printed, plus a
     * last line naming the error if the transaction failed.
     */
    public List<String> runMain() {
        Host first = host("main");
        WaldoObject main;
        String partner = isService("Main") ? null : partnerOf("Main");
        main = partner == null ? create("Main", first) : connect("Main", first, partner, host("partner")).local();
        List<String> lines = new ArrayList<>();
        try {
            call(main, "main");
        } catch (ApplicationException | NetworkException | TransactionAbortedException e) {
            lines.add(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        List<String> all = new ArrayList<>(output());
        all.addAll(lines);
        return all;
    }

    private Class<?> kindClass(String kind) {
        try {
            return loader.loadClass(PACKAGE + "." + kind);
        } catch (ClassNotFoundException e) {
            throw new AssertionError("no emitted class for " + kind, e);
        }
    }

    private static Object invoke(Method method, Object target, Object[] args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new AssertionError(e.getCause());
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        hosts.forEach(Host::close);
        network.close();
    }
}
