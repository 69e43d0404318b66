package dev.waldo.compiler.emit;

import dev.waldo.compiler.check.CheckedProgram;
import dev.waldo.compiler.check.KindInfo;
import dev.waldo.compiler.check.SequenceInfo;
import dev.waldo.compiler.check.Symbol;
import dev.waldo.compiler.check.Type;
import dev.waldo.compiler.syntax.Annotation;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Member;
import dev.waldo.compiler.syntax.Param;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes the Java class of one endpoint kind or service: a typed handle per
 * variable for host code and bindings ({@code Variable} constants), its
 * transactional variables, a factory that runs onCreate, each Public function as a plain
 * Java method (a root transaction) and as an in-transaction method, the
 * sequences it starts, the steps it runs, and the dispatch tables the
 * runtime uses for calls and steps that arrive from other hosts.
 */
final class KindEmitter {
    private final CheckedProgram program;
    private final KindInfo kind;
    private final String className;
    private final String sourceName;
    private final LastCall lastCall;
    private final JavaWriter out = new JavaWriter();
    /** The constant that holds each variable's handle, by Waldo name. */
    private final Map<String, String> handles = new LinkedHashMap<>();
    /** The constant that lists every handle; always this name, so reflective host code finds it. */
    private static final String HANDLE_LIST = "VARIABLES";

    KindEmitter(CheckedProgram program, KindInfo kind, String sourceName) {
        this.program = program;
        this.kind = kind;
        this.className = JavaNames.ofClass(kind.name());
        this.sourceName = sourceName;
        this.lastCall = new LastCall(program);
        Set<String> taken = new HashSet<>(Set.of(HANDLE_LIST));  // JavaNames.of never gives it to a field
        kind.variables().keySet().forEach(name -> taken.add(JavaNames.of(name)));
        for (String name : kind.variables().keySet()) {
            handles.put(name, JavaNames.unique(JavaNames.constant(name), taken));
        }
    }

    /** The class body, without package and imports. */
    String emit() {
        String base = kind.isService() ? "WaldoService" : "WaldoEndpoint";
        out.javadoc((kind.isService() ? "Service " : "Endpoint ") + kind.name() + ", compiled by waldoc from "
                + sourceName + ".");
        out.line("@SuppressWarnings({\"unchecked\", \"rawtypes\"})");
        out.open("public final class %s extends %s", className, base);
        handles();
        variables();
        constructor();
        factory();
        initializer();
        for (Symbol.FunctionSym function : kind.functions().values()) {
            if (function.isPublic()) {
                hostMethod(function);
            }
            functionBody(function);
        }
        for (SequenceInfo sequence : program.sequences().values()) {
            sequenceMethods(sequence);
        }
        publicFunctions();
        servesOnReceivingThread();
        dispatch();
        if (!kind.isService()) {
            stepDispatch();
        }
        out.close();
        return out.toString();
    }

    /**
     * One public {@code Variable} constant per variable, then {@code VARIABLES} listing them: the
     * typed handles host code and bindings use instead of the variable's name.
     */
    private void handles() {
        for (Symbol.MemberVar variable : kind.variables().values()) {
            String doc = variable.decl().doc() == null ? "" : " " + cleanDoc(variable.decl().doc());
            out.javadoc("Variable {@code " + variable.name() + "} (" + variable.type().display() + ")." + doc);
            out.line("public static final Variable<%s> %s = Variable.of(%s.class, %s, %s%s);",
                    JavaTypes.boxed(variable.type()), handles.get(variable.name()), className,
                    JavaNames.literal(variable.name()), JavaTypes.rawClass(variable.type()),
                    annotations(variable.decl().annotations()));
        }
        out.javadoc("Every variable of " + kind.name() + ", in declaration order.");
        out.line("public static final java.util.List<Variable<?>> %s = java.util.List.of(%s);", HANDLE_LIST,
                String.join(", ", handles.values()));
        out.blank();
    }

    private void variables() {
        for (Symbol.MemberVar variable : kind.variables().values()) {
            out.line("private final %s %s;", JavaTypes.cellClass(variable.type()), JavaNames.of(variable.name()));
        }
        if (!kind.variables().isEmpty()) {
            out.blank();
        }
    }

    private void constructor() {
        out.open("private %s(Host host)", className);
        out.line("super(host, %s);", JavaNames.literal(kind.name()));
        for (Symbol.MemberVar variable : kind.variables().values()) {
            String name = JavaNames.of(variable.name());
            String handle = handles.get(variable.name());
            if (variable.type() instanceof Type.MapType) {
                out.line("this.%s = mapVar(%s);", name, handle);
            } else if (variable.type() instanceof Type.CSetType) {
                out.line("this.%s = csetVar(%s);", name, handle);
            } else {
                out.line("this.%s = var(%s, () -> %s);", name, handle, JavaTypes.defaultValue(variable.type()));
            }
        }
        out.close().blank();
    }

    private static String annotations(List<Annotation> annotations) {
        StringBuilder text = new StringBuilder();
        for (Annotation annotation : annotations) {
            text.append(", Annotations.of(").append(JavaNames.literal(annotation.name()));
            for (Annotation.Arg arg : annotation.args()) {
                text.append(", ").append(JavaNames.literal(arg.key())).append(", ").append(literal(arg.value()));
            }
            text.append(")");
        }
        return text.toString();
    }

    private static String literal(Expr value) {
        return switch (value) {
            case Expr.NumberLit n -> JavaNames.literal(n.value());
            case Expr.TextLit t -> JavaNames.literal(t.value());
            case Expr.BoolLit b -> b.value() ? "true" : "false";
            case Expr.Unary u when u.operand() instanceof Expr.NumberLit n -> JavaNames.literal(-n.value());
            default -> throw new IllegalStateException("annotation value is not a literal: " + value);
        };
    }

    private List<Param> onCreateParams() {
        return kind.onCreate() == null ? List.of() : kind.onCreate().params();
    }

    private void factory() {
        List<Param> params = onCreateParams();
        out.javadoc("Creates " + JavaNames.article(kind.name()) + " on {@code host} and runs its initializers and onCreate"
                + " as its first transaction.");
        out.open("public static %s create(%s)", className, parameters("Host host", params));
        out.line("%s created = new %s(host);", className, className);
        out.line("created.transact(\"onCreate\", $ctx -> {");
        out.line("    created.init$(%s);", copiedArguments("$ctx", params));
        out.line("    return null;");
        out.line("});");
        out.line("return created;");
        out.close().blank();
    }

    private void initializer() {
        MethodScope scope = new MethodScope(program, kind, false);
        List<Param> params = onCreateParams();
        out.open("private void init$(%s)", declaredParameters(scope, "Ctx $ctx", params));
        StmtEmitter body = new StmtEmitter(scope, out, StmtEmitter.Returns.ON_CREATE);
        for (Symbol.MemberVar variable : kind.variables().values()) {
            if (variable.decl().init() != null) {
                String setter = JavaTypes.hasFinerLocks(variable.type()) ? "setWhole" : "set";
                out.line("this.%s.%s($ctx, %s);", JavaNames.of(variable.name()), setter,
                        body.exprs().emitCopy(variable.decl().init()));
            }
        }
        if (kind.onCreate() != null) {
            body.statements(kind.onCreate().body());
        }
        out.close().blank();
    }

    private void hostMethod(Symbol.FunctionSym function) {
        Member.FunctionDecl decl = function.decl();
        out.javadoc(decl.doc() != null ? cleanDoc(decl.doc())
                : "Runs Public function " + function.name() + " as a transaction; returns once it committed.");
        String resultType = JavaTypes.of(function.returnType());
        out.open("public %s %s(%s)", resultType, JavaNames.of(function.name()), parameters("", decl.params()));
        String call = "this." + JavaNames.body(function.name()) + "(" + copiedArguments("$ctx", decl.params()) + ")";
        String name = JavaNames.literal(function.name());
        if (function.returnType() instanceof Type.NothingType) {
            out.line("transact(%s, $ctx -> {", name);
            out.line("    %s;", call);
            out.line("    return null;");
            out.line("});");
        } else {
            out.line("return transact(%s, $ctx -> %s);", name, call);
        }
        out.close().blank();
    }

    private static String cleanDoc(String doc) {
        return doc.replaceAll("(?m)^\\s*\\*\\s?", "").replaceAll("\\s+", " ").trim();
    }

    private void functionBody(Symbol.FunctionSym function) {
        Member.FunctionDecl decl = function.decl();
        MethodScope scope = new MethodScope(program, kind, false);
        scope.lastCall = lastCall.of(function);
        out.open("%s %s(%s)", JavaTypes.of(function.returnType()), JavaNames.body(function.name()),
                declaredParameters(scope, "Ctx $ctx", decl.params()));
        boolean completes = new StmtEmitter(scope, out, StmtEmitter.Returns.FUNCTION).statements(decl.body());
        if (completes && !(function.returnType() instanceof Type.NothingType)) {
            // The checker proved every path returns; javac's rules are coarser (it does not
            // know that `if (c) return a; else if (!c) return b;` covers every case).
            out.line("throw new IllegalStateException(%s);",
                    JavaNames.literal(kind.name() + "." + function.name() + " ended without a return"));
        }
        out.close().blank();
    }

    private void sequenceMethods(SequenceInfo sequence) {
        if (sequence.firstKind().equals(kind.name())) {
            sequenceDriver(sequence);
        }
        for (Decl.Step step : sequence.steps()) {
            if (step.kind().equals(kind.name())) {
                stepMethod(sequence, step);
            }
        }
    }

    /** Runs a sequence from its first endpoint: own steps here, the partner's through the runtime. */
    private void sequenceDriver(SequenceInfo sequence) {
        MethodScope scope = new MethodScope(program, kind, true);
        Decl.SequenceDecl decl = sequence.decl();
        out.javadoc("Runs sequence " + sequence.name() + " with the partner, inside the caller's transaction.");
        out.open("%s %s(%s)", JavaTypes.of(sequence.resultType()), JavaNames.sequence(sequence.name()),
                parameters("Ctx $ctx", decl.params()));
        out.line("SequenceFrame $frame = new SequenceFrame(%s);", JavaNames.literal(sequence.name()));
        for (Param param : decl.params()) {
            out.line("$frame.set(%s, %s);", JavaNames.literal(param.name()), JavaNames.of(param.name()));
        }
        ExprEmitter exprs = new ExprEmitter(scope);
        for (var data : decl.data()) {
            Type type = program.typeOf(data.type());
            String value = data.init() == null ? JavaTypes.defaultValue(type) : exprs.emitCopy(data.init());
            out.line("$frame.set(%s, %s);", JavaNames.literal(data.name()), value);
        }
        if (sequence.result() != null) {
            out.line("$frame.set(%s, %s);", JavaNames.literal(sequence.result().name()),
                    JavaTypes.defaultValue(sequence.result().type()));
        }
        runSteps(sequence);
        out.close().blank();
    }

    private void runSteps(SequenceInfo sequence) {
        List<Decl.Step> steps = sequence.steps();
        int carriesPrepare = new LastStep(program).carryingPrepare(sequence);
        for (int index = 0; index < steps.size(); index++) {
            Decl.Step step = steps.get(index);
            if (index > 0) {
                out.open("if (!$frame.returned())");
            }
            if (index % 2 == 0) {  // steps alternate: even ones are this endpoint's
                out.line("%s($ctx, $frame);", JavaNames.step(sequence.name(), step.name()));
            } else if (index == carriesPrepare) {
                out.line("$ctx.lastPartnerStep(this, $frame, %d);", index); // carries the prepare
            } else {
                out.line("$ctx.partnerStep(this, $frame, %d);", index);
            }
            if (index > 0) {
                out.close();
            }
        }
        sequenceResult(sequence);
    }

    private void sequenceResult(SequenceInfo sequence) {
        Type result = sequence.resultType();
        if (result instanceof Type.NothingType) {
            return;
        }
        String named = sequence.result() == null ? JavaTypes.defaultValue(result)
                : "$frame.get(" + JavaNames.literal(sequence.result().name()) + ")";
        out.line("Object $result = $frame.returnedValue() != null ? $frame.returnedValue() : %s;", named);
        out.line("return %s;", JavaTypes.cast("$result", result));
    }

    private void stepMethod(SequenceInfo sequence, Decl.Step step) {
        MethodScope scope = new MethodScope(program, kind, true);
        out.open("private void %s(Ctx $ctx, SequenceFrame $frame)", JavaNames.step(sequence.name(), step.name()));
        new StmtEmitter(scope, out, StmtEmitter.Returns.STEP).statements(step.body());
        out.close().blank();
    }

    /** The Public functions' signatures, which {@code invoke} checks host code's calls against. */
    private void publicFunctions() {
        List<String> signatures = new ArrayList<>();
        for (Symbol.FunctionSym function : kind.functions().values()) {
            if (function.isPublic()) {
                signatures.add(signature(function));
            }
        }
        String declaration = "private static final java.util.List<PublicFunction> FUNCTIONS$ = java.util.List.of(";
        if (signatures.isEmpty()) {
            out.line("%s);", declaration);
        } else {
            out.line(declaration);
            for (int i = 0; i < signatures.size(); i++) {  // one a line, at continuation indent
                out.line("        %s%s", signatures.get(i), i + 1 < signatures.size() ? "," : ");");
            }
        }
        out.blank();
        out.line("@Override");
        out.open("protected java.util.List<PublicFunction> publicFunctions()");
        out.line("return FUNCTIONS$;");
        out.close().blank();
    }

    private String signature(Symbol.FunctionSym function) {
        StringBuilder text = new StringBuilder("PublicFunction.of(").append(JavaNames.literal(function.name()))
                .append(", ").append(JavaNames.literal(function.returnType().display()));
        List<Param> params = function.decl().params();
        for (int i = 0; i < params.size(); i++) {
            text.append(", new PublicFunction.Parameter(").append(JavaNames.literal(params.get(i).name()))
                    .append(", ").append(JavaTypes.valueType(function.params().get(i))).append(")");
        }
        return text.append(")").toString();
    }

    /**
     * Generated code waits only through the runtime (locks, calls, a binding's load), which
     * unwinds a served call started on the receiving thread at its first wait and runs it again
     * on a thread of its own: so every served call of a generated class may start there.
     */
    private void servesOnReceivingThread() {
        out.line("@Override");
        out.open("protected boolean servesOnReceivingThread(String functionOrSequence)");
        out.line("return true;");
        out.close().blank();
    }

    private void dispatch() {
        out.line("@Override");
        out.open("protected Object dispatch(Ctx $ctx, String function, Object[] args)");
        out.open("switch (function)");
        for (Symbol.FunctionSym function : kind.functions().values()) {
            if (function.isPublic()) {
                dispatchCase(function);
            }
        }
        out.line("default:");
        out.line("    throw Dispatch.noSuchFunction(this, function);");
        out.close();
        out.close().blank();
    }

    private void dispatchCase(Symbol.FunctionSym function) {
        out.open("case %s:", JavaNames.literal(function.name()));
        out.line("Dispatch.expectArity(this, function, args, %d);", function.params().size());
        List<String> arguments = new ArrayList<>(List.of("$ctx"));
        for (int i = 0; i < function.params().size(); i++) {
            Type type = function.params().get(i);
            String argument = "Dispatch.argument(this, function, args, " + i + ", " + JavaTypes.rawClass(type) + ")";
            arguments.add(JavaTypes.needsCopy(type) && !(type instanceof Type.StructType)
                    ? "(" + JavaTypes.boxed(type) + ") " + argument : argument);
        }
        String call = "this." + JavaNames.body(function.name()) + "(" + String.join(", ", arguments) + ")";
        if (function.returnType() instanceof Type.NothingType) {
            out.line("%s;", call);
            out.line("return null;");
        } else {
            out.line("return %s;", call);
        }
        out.close();
    }

    private void stepDispatch() {
        out.line("@Override");
        out.open("protected void runStep(Ctx $ctx, SequenceFrame $frame, int step)");
        out.open("switch ($frame.sequence() + \"#\" + step)");
        for (SequenceInfo sequence : program.sequences().values()) {
            List<Decl.Step> steps = sequence.steps();
            for (int index = 0; index < steps.size(); index++) {
                boolean partnerSide = sequence.secondKind().equals(kind.name()) && index % 2 == 1;
                if (partnerSide && steps.get(index).kind().equals(kind.name())) {
                    out.line("case %s -> %s($ctx, $frame);", JavaNames.literal(sequence.name() + "#" + index),
                            JavaNames.step(sequence.name(), steps.get(index).name()));
                }
            }
        }
        out.line("default -> throw Dispatch.noSuchStep(this, $frame.sequence(), step);");
        out.close();
        out.close();
    }

    private String parameters(String first, List<Param> params) {
        StringBuilder text = new StringBuilder(first);
        for (Param param : params) {
            text.append(text.isEmpty() ? "" : ", ").append(JavaTypes.of(program.typeOf(param.type()))).append(' ')
                    .append(JavaNames.of(param.name()));
        }
        return text.toString();
    }

    private String declaredParameters(MethodScope scope, String first, List<Param> params) {
        StringBuilder text = new StringBuilder(first);
        for (Param param : params) {
            text.append(", ").append(JavaTypes.of(program.typeOf(param.type()))).append(' ')
                    .append(scope.declare(param, param.name()));
        }
        return text.toString();
    }

    private String copiedArguments(String first, List<Param> params) {
        StringBuilder text = new StringBuilder(first);
        for (Param param : params) {
            String name = JavaNames.of(param.name());
            text.append(", ").append(JavaTypes.needsCopy(program.typeOf(param.type())) ? "Values.copy(" + name + ")"
                    : name);
        }
        return text.toString();
    }
}
