package dev.waldoconf.custom;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.check.AnnotationSpec;
import dev.waldo.compiler.check.Frontend;
import dev.waldo.compiler.check.KindInfo;
import dev.waldo.compiler.check.Symbol;
import dev.waldo.compiler.check.Type;
import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.diag.Span;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Param;
import dev.waldo.net.StructResolver;
import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.Variable;
import dev.waldo.runtime.WaldoEndpoint;
import dev.waldo.runtime.WaldoObject;
import dev.waldo.runtime.lang.WStruct;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A device service written in Waldo, the operator's own {@code .wld} file or a built-in one
 * ({@code system-group}, from {@code waldoconf/services/}), compiled together with the shipped
 * {@code desk.wld} (the endpoints {@value #DESK} and {@value #OPERATOR} and the service
 * {@value #DIRECTORY}, which connect operators to the served Service), checked against the rules
 * for custom services, and loaded into this JVM.
 *
 * <p>The rules, each reported as {@code file:line:col: error: ...} with a caret:
 * <ul>
 *   <li>a variable bound to the device is annotated {@code @snmp(oid: '1.3.6.1.2.1.1.6.0')} (one
 *       argument, a scalar instance OID with its trailing {@code .0}), has type Text (OCTET STRING)
 *       or Number (Integer32), and belongs to a Service: the compiler's checker holds every use to
 *       {@link #SNMP};</li>
 *   <li>{@code serve} runs the one Service that has {@code @snmp} variables; a file with none or
 *       with several is refused (put each device service in its own file);</li>
 *   <li>the served Service's onCreate takes nothing, or one Text: the switch's inventory name.</li>
 * </ul>
 */
public final class CustomProgram {
    /** The Java package an operator's program is compiled into (in memory, in its own class loader). */
    public static final String PACKAGE = "dev.waldoconf.custom.generated";
    /** The shipped endpoint {@code serve} listens with; it hands out the served Service. */
    public static final String DESK = "WaldoConfDesk";
    /** The shipped endpoint {@code call} connects with. */
    public static final String OPERATOR = "WaldoConfOperator";
    /** The shipped Service that resolves desks to the Services behind them. */
    public static final String DIRECTORY = "WaldoConfDirectory";
    /** The annotation a custom service binds to its SNMP agent. */
    public static final String ANNOTATION = "snmp";
    /** The annotation's argument in an operator's program: the scalar's instance OID. */
    public static final String OID_KEY = dev.waldoconf.snmp.ScalarOidAdapter.OID_KEY;
    /**
     * The annotation's argument on the shipped trial keeper's variables ({@value #TRIAL}, in
     * desk.wld): which part of the pending trial the variable holds. Reserved: an operator's
     * program binds scalars with {@code oid} only.
     */
    public static final String TRIAL_KEY = dev.waldoconf.snmp.ScalarOidAdapter.TRIAL_KEY;
    /** The shipped Service that keeps a custom service's pending trial beside the served Service. */
    public static final String TRIAL = "WaldoConfTrial";
    /**
     * What {@code @snmp} means in a custom service, so the compiler checks every use of it: {@code oid},
     * a dotted scalar instance OID (or, in the shipped desk.wld only, {@code trial}); on a Text
     * (OCTET STRING) or Number (Integer32) variable of a Service. That an operator's variable gives
     * {@code oid} and not {@code trial} is checked by {@link #check}.
     */
    public static final AnnotationSpec SNMP = new AnnotationSpec(ANNOTATION, List.of(
            new AnnotationSpec.Argument(OID_KEY, Type.TEXT, false, Pattern.compile("[0-9]+(\\.[0-9]+)+"),
                    "write the scalar's instance OID dotted, with its trailing .0, e.g. '1.3.6.1.2.1.1.6.0'"),
            new AnnotationSpec.Argument(TRIAL_KEY, Type.TEXT, false,
                    Pattern.compile("change|deadline|switches|outcome"),
                    "trial is reserved for WaldoConf's own desk.wld")),
            List.of(Type.TEXT, Type.NUMBER), "an SNMP scalar is Text (OCTET STRING) or Number (Integer32)", true);
    /** How the shipped desk file appears in messages. */
    static final String DESK_FILE = "waldoconf:desk.wld";

    /** The device services WaldoConf ships, by the name {@code serve --service} and {@code call} accept. */
    private static final List<BuiltIn> BUILT_INS = List.of(
            new BuiltIn("system-group", "system_group.wld", "dev.waldoconf.services.systemgroup"));

    private final String fileName;
    private final String argument;
    private final List<SourceFile> sources;
    private final WaldoCompiler.Result compiled;
    /** Where the program's Java classes are: the package compiled in memory, or a built-in's. */
    private final String javaPackage;
    private final boolean compiledAtBuild;
    private ClassLoader loader;

    /**
     * A device service shipped in {@code waldoconf/services/}: its source is in the jar beside the
     * Java that waldoc made of it at build time, so serving it compiles no Java.
     *
     * @param name what {@code serve --service} and {@code call} accept in place of a file
     * @param file its source's name in {@code waldoconf/services/} (and in the jar)
     * @param javaPackage where the build put its classes (see the waldoc executions in waldoconf/pom.xml)
     */
    private record BuiltIn(String name, String file, String javaPackage) {
        String resource() {
            return "/dev/waldoconf/services/" + file;
        }
    }

    private CustomProgram(String fileName, String argument, List<SourceFile> sources, WaldoCompiler.Result compiled,
            String javaPackage, boolean compiledAtBuild) {
        this.fileName = fileName;
        this.argument = argument;
        this.sources = sources;
        this.compiled = compiled;
        this.javaPackage = javaPackage;
        this.compiledAtBuild = compiledAtBuild;
    }

    /**
     * Reads, parses and checks {@code service} with the shipped desk, and checks the rules for custom
     * services. Fast: no Java is compiled yet. {@code service} is a {@code .wld} file, or the name of
     * a built-in service ({@link #builtInNames()}, e.g. {@code system-group}), written exactly so; a
     * file that happens to have such a name is given with a directory, e.g. {@code ./system-group}.
     *
     * @throws IOException if the file cannot be read
     * @throws CustomProgramException if there is no such file or built-in service, or with every
     *     problem of the program, rendered with file:line:col and a caret
     */
    public static CustomProgram check(Path service) throws IOException, CustomProgramException {
        Optional<BuiltIn> builtIn = BUILT_INS.stream().filter(b -> b.name().equals(service.toString())).findFirst();
        if (builtIn.isPresent()) {
            BuiltIn shipped = builtIn.get();
            return check("waldoconf/services/" + shipped.file(), shipped.name(), resource(shipped.resource()),
                    shipped.javaPackage(), true);
        }
        if (!Files.isRegularFile(service)) {
            throw new CustomProgramException(service + ": no such file, and no built-in service of that name;"
                    + " give your .wld file or a built-in service: " + String.join(", ", builtInNames()));
        }
        return check(service.toString(), service.toString(), Files.readString(service, StandardCharsets.UTF_8),
                PACKAGE, false);
    }

    private static CustomProgram check(String fileName, String argument, String source, String javaPackage,
            boolean compiledAtBuild) throws CustomProgramException {
        List<SourceFile> sources = List.of(new SourceFile(fileName, source),
                new SourceFile(DESK_FILE, resource("desk.wld")));
        WaldoCompiler.Result compiled = WaldoCompiler.compile(sources, javaPackage, List.of(SNMP));
        if (!compiled.ok()) {
            throw new CustomProgramException(summarized(compiled.rendered(), compiled.diagnostics().size()));
        }
        CustomProgram program = new CustomProgram(fileName, argument, sources, compiled, javaPackage, compiledAtBuild);
        program.failOn(program.misboundScalars());
        return program;
    }

    /** The names of the built-in device services, which {@link #check} accepts in place of a file. */
    public static List<String> builtInNames() {
        return BUILT_INS.stream().map(BuiltIn::name).toList();
    }

    /** A text resource of the waldoconf jar, relative to this class unless it starts with '/'. */
    private static String resource(String name) {
        try (InputStream in = CustomProgram.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the waldoconf jar (a build problem)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String summarized(String rendered, int count) {
        return rendered.stripTrailing() + "\n" + count + " error" + (count == 1 ? "" : "s");
    }

    private void failOn(List<Diagnostic> problems) throws CustomProgramException {
        if (!problems.isEmpty()) {
            throw new CustomProgramException(summarized(Frontend.render(problems, sources), problems.size()));
        }
    }

    /** A problem with variable {@code variable} of {@code kind}, rendered at its declaration. */
    CustomProgramException problemAt(KindInfo kind, String variable, String message) {
        Diagnostic problem = new Diagnostic(kind.variables().get(variable).decl().nameSpan(), message);
        return new CustomProgramException(summarized(Frontend.render(List.of(problem), sources), 1));
    }

    /** The operator's file as named in messages (for a built-in service, its source in waldoconf/services/). */
    public String fileName() {
        return fileName;
    }

    /** How {@code serve --service} and {@code call} name this program: its file, or its built-in name. */
    public String argument() {
        return argument;
    }

    /** The kinds (endpoints and services) the operator's file declares, by name, in source order. */
    public Map<String, KindInfo> kinds() {
        Map<String, KindInfo> own = new LinkedHashMap<>();
        compiled.program().kinds().forEach((name, kind) -> {
            if (kind.decl() != null && fileName.equals(span(kind).file())) {
                own.put(name, kind);
            }
        });
        return own;
    }

    private static Span span(KindInfo kind) {
        return kind.decl() instanceof Decl.ServiceDecl service ? service.nameSpan()
                : ((Decl.EndpointDecl) kind.decl()).nameSpan();
    }

    /**
     * The Service {@code serve} runs: the only one with {@code @snmp} variables, whose onCreate
     * takes nothing or the switch's name (Text).
     *
     * @throws CustomProgramException if there is none, several, or its onCreate takes other parameters
     */
    public KindInfo servedService() throws CustomProgramException {
        List<KindInfo> bound = kinds().values().stream().filter(k -> k.isService() && bindsSnmp(k)).toList();
        if (bound.isEmpty()) {
            failOn(List.of(new Diagnostic(new Span(fileName, 1, 1, 0, 0), "no Service here has @snmp(oid: ...)"
                    + " variables, so 'serve' has no device service to run; declare one (see waldoconf/README.md)")));
        }
        if (bound.size() > 1) {
            String names = String.join(", ", bound.stream().map(KindInfo::name).toList());
            failOn(bound.stream().map(k -> new Diagnostic(span(k), "several Services have @snmp variables ("
                    + names + "); 'serve' runs one device service per file, so put each in its own file")).toList());
        }
        KindInfo served = bound.get(0);
        List<Param> params = served.onCreate() == null ? List.of() : served.onCreate().params();
        if (params.size() > 1 || params.size() == 1 && !compiled.program().typeOf(params.get(0).type())
                .equals(Type.TEXT)) {
            failOn(List.of(new Diagnostic(served.onCreate().span(), "the served Service's onCreate takes nothing,"
                    + " or one Text (the switch's inventory name), because 'serve' has nothing else to pass")));
        }
        return served;
    }

    /**
     * Every {@code @snmp} of the operator's own file that does not name its scalar with {@code oid}
     * alone: {@code trial} belongs to the shipped trial keeper.
     */
    private List<Diagnostic> misboundScalars() {
        List<Diagnostic> problems = new ArrayList<>();
        for (KindInfo kind : kinds().values()) {
            kind.variables().values().forEach(variable -> variable.decl().annotations().stream()
                    .filter(annotation -> annotation.name().equals(ANNOTATION))
                    .filter(annotation -> annotation.args().size() != 1
                            || !annotation.args().get(0).key().equals(OID_KEY))
                    .forEach(annotation -> problems.add(new Diagnostic(annotation.span(), "a device variable is"
                            + " bound with @snmp(oid: '...') and nothing else ('trial' is WaldoConf's own)"))));
        }
        return problems;
    }

    /** Whether {@code kind} declares a variable annotated {@code @snmp}. */
    private static boolean bindsSnmp(KindInfo kind) {
        return kind.variables().values().stream().anyMatch(variable -> variable.decl().annotations().stream()
                .anyMatch(annotation -> annotation.name().equals(ANNOTATION)));
    }

    /**
     * The variables of Service {@code kind} bound with {@code @snmp}, as the handles its generated
     * class declares (loading the program if needed), in declaration order. Each one's OID is
     * {@code variable.annotation(ANNOTATION).orElseThrow().text(OID_KEY)}: the checker made sure
     * it is there, well formed.
     */
    public List<Variable<?>> snmpVariables(String kind) {
        List<Variable<?>> bound = new ArrayList<>();
        for (Variable<?> variable : variables(kind)) {
            if (variable.annotation(ANNOTATION).isPresent()) {
                bound.add(variable);
            }
        }
        return bound;
    }

    /** The handles of every variable of {@code kind}: its generated class's {@code VARIABLES}. */
    private List<Variable<?>> variables(String kind) {
        Class<?> type = kindClass(kind);
        try {
            List<Variable<?>> handles = new ArrayList<>();
            for (Object handle : (List<?>) type.getField("VARIABLES").get(null)) {
                handles.add((Variable<?>) handle);
            }
            return handles;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type.getName() + " has no public VARIABLES list; it was generated by"
                    + " another waldoc (rebuild WaldoConf)", e);
        }
    }

    /**
     * Public function {@code function} of Service {@code kind} as {@code waldoconf call} can call it:
     * its first parameter takes the services ({@code List(element: Endpoint)}), the others are Text,
     * Number or TrueFalse, and the Service's onCreate takes nothing.
     *
     * @throws CustomProgramException saying what is missing or which parameter cannot be given
     */
    public Symbol.FunctionSym callable(String kind, String function) throws CustomProgramException {
        KindInfo info = kinds().get(kind);
        if (info == null || !info.isService()) {
            throw new CustomProgramException(fileName + " declares no Service " + kind + "; its Services: "
                    + String.join(", ", kinds().values().stream().filter(KindInfo::isService).map(KindInfo::name)
                            .toList()));
        }
        Symbol.FunctionSym found = info.functions().get(function);
        if (found == null || !found.isPublic()) {
            throw new CustomProgramException("Service " + kind + " in " + fileName + " has no Public function "
                    + function + "; its Public functions: " + String.join(", ", info.functions().values().stream()
                            .filter(Symbol.FunctionSym::isPublic).map(Symbol.FunctionSym::name).toList()));
        }
        List<Diagnostic> problems = new ArrayList<>();
        if (found.params().isEmpty() || !found.params().get(0).equals(new Type.ListType(Type.ENDPOINT))) {
            problems.add(new Diagnostic(found.decl().nameSpan(), "'waldoconf call' passes the services first, so "
                    + function + "'s first parameter must be List(element: Endpoint)"));
        }
        for (int i = 1; i < found.params().size(); i++) {
            if (!isScalar(found.params().get(i))) {
                problems.add(new Diagnostic(found.decl().params().get(i).span(), "'waldoconf call' passes"
                        + " arguments from the command line, so they must be Text, Number or TrueFalse"));
            }
        }
        if (info.onCreate() != null && !info.onCreate().params().isEmpty()) {
            problems.add(new Diagnostic(info.onCreate().span(), "'waldoconf call' creates " + kind
                    + " with no arguments, so its onCreate must take none"));
        }
        failOn(problems);
        return found;
    }

    private static boolean isScalar(Type type) {
        return type.equals(Type.TEXT) || type.equals(Type.NUMBER) || type.equals(Type.BOOL);
    }

    /**
     * Compiles the program's Java in memory and loads it (once; takes a few seconds on a busy machine).
     * A built-in service's Java was compiled at build time, so it is only looked up.
     */
    public synchronized CustomProgram load() {
        if (loader == null) {
            // A built-in's classes came from waldoc at build time and are on the class path already.
            loader = compiledAtBuild ? CustomProgram.class.getClassLoader()
                    : compiled.classes().loader(CustomProgram.class.getClassLoader());
        }
        return this;
    }

    /** Rebuilds the program's structs for the transport, so struct values cross hosts as these classes. */
    public StructResolver structs() {
        Method create = staticMethod(registryName(), "create", 1);
        return name -> (WStruct) invoke(create, null, name);
    }

    /** The generated struct registry's class name: "Structs", with '_' added while a kind or struct has it. */
    private String registryName() {
        String name = "Structs";
        while (compiled.program().kinds().containsKey(name) || compiled.program().structs().containsKey(name)) {
            name += "_";
        }
        return name;
    }

    /** Creates a {@code kind} on {@code host}, running its onCreate with {@code args}. */
    public WaldoObject create(String kind, Host host, Object... args) {
        Object[] all = new Object[args.length + 1];
        all[0] = host;
        System.arraycopy(args, 0, all, 1, args.length);
        return (WaldoObject) invoke(staticMethod(kind, "create", all.length), null, all);
    }

    /** A factory of endpoints of kind {@code kind}, created with onCreate arguments {@code args}. */
    public EndpointFactory<WaldoEndpoint> factory(String kind, Object... args) {
        return host -> (WaldoEndpoint) create(kind, host, args);
    }

    /**
     * Calls Public function {@code function} of {@code target} as one transaction.
     *
     * @return its result (String, Double, Boolean, WList, WMap, a struct, EndpointRef), or null
     */
    public Object call(WaldoObject target, String function, Object... args) {
        for (Method method : target.getClass().getMethods()) {
            if ((method.getName().equals(function) || method.getName().equals(function + "_"))
                    && method.getDeclaringClass() == target.getClass() && method.getParameterCount() == args.length
                    && !Modifier.isStatic(method.getModifiers())) {
                return invoke(method, target, args);
            }
        }
        throw new IllegalArgumentException(target.kind() + " has no Public function " + function + " taking "
                + args.length + " argument(s)");
    }

    private Method staticMethod(String kind, String name, int parameters) {
        Class<?> type = kindClass(kind);
        for (Method method : type.getMethods()) {
            if (method.getName().equals(name) && method.getParameterCount() == parameters
                    && Modifier.isStatic(method.getModifiers())) {
                return method;
            }
        }
        throw new IllegalArgumentException(kind + " has no " + name + " taking " + parameters + " argument(s)");
    }

    private Class<?> kindClass(String kind) {
        load();
        for (String name : List.of(kind, kind + "_")) {
            try {
                return loader.loadClass(javaPackage + "." + name);
            } catch (ClassNotFoundException tryNext) {
                // Kinds whose name is a Java keyword or a runtime class get a trailing '_'.
            }
        }
        throw new IllegalArgumentException("the program has no kind " + kind);
    }

    private static Object invoke(Method method, Object target, Object... args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("generated method " + method + " is not accessible", e);
        }
    }
}
