package dev.waldo.compiler.check;

import dev.waldo.compiler.check.Symbol.Builtin;
import dev.waldo.compiler.check.Symbol.DataRole;
import dev.waldo.compiler.check.Symbol.FunctionSym;
import dev.waldo.compiler.check.Symbol.MemberVar;
import dev.waldo.compiler.check.Symbol.SequenceData;
import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.diag.Span;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Member;
import dev.waldo.compiler.syntax.Param;
import dev.waldo.compiler.syntax.Program;
import dev.waldo.compiler.syntax.TypeRef;
import dev.waldo.compiler.syntax.VarDecl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checker: resolves every name, types every expression and enforces the rules of
 * LANGUAGE.md and LANGUAGE-NOTES.md. It works in two passes: first the declarations (structs,
 * endpoint and service members, sequences and their steps), so that order in the source never
 * matters; then every body, through a {@link BodyChecker}. Types that are already wrong become
 * {@link Type#ERROR}, which silences follow-on errors.
 */
public final class Checker {
    /** Names of the built-in functions, which user functions may not reuse. */
    static final Map<String, Builtin> BUILTINS = Map.of("len", Builtin.LEN, "range", Builtin.RANGE,
            "keys", Builtin.KEYS, "toText", Builtin.TO_TEXT, "id", Builtin.ID, "print", Builtin.PRINT);

    private final Diagnostics diagnostics;
    private final List<AnnotationSpec> annotationSpecs;
    private final Map<String, Decl> topLevel = new LinkedHashMap<>();
    private final Map<String, StructInfo> structs = new LinkedHashMap<>();
    private final Map<String, KindInfo> kinds = new LinkedHashMap<>();
    private final Map<String, SequenceInfo> sequences = new LinkedHashMap<>();
    private final Map<String, String> partners = new HashMap<>();
    private final Map<String, String> partnerSources = new HashMap<>();
    private final Map<TypeRef, Type> typeRefs = new IdentityHashMap<>();
    private final Map<Object, Symbol> symbols = new IdentityHashMap<>();

    private Checker(Diagnostics diagnostics, List<AnnotationSpec> annotationSpecs) {
        this.diagnostics = diagnostics;
        this.annotationSpecs = List.copyOf(annotationSpecs);
    }

    /**
     * Checks {@code program}, reporting every error to {@code diagnostics}. The result is only
     * meaningful for the emitter when no error was reported.
     */
    public static CheckedProgram check(Program program, Diagnostics diagnostics) {
        return check(program, diagnostics, List.of());
    }

    /**
     * Checks {@code program} as {@link #check(Program, Diagnostics)} does, and holds every use of
     * an annotation named in {@code annotationSpecs} to its spec.
     */
    public static CheckedProgram check(Program program, Diagnostics diagnostics, List<AnnotationSpec> annotationSpecs) {
        return new Checker(diagnostics, annotationSpecs).run(program);
    }

    private CheckedProgram run(Program program) {
        declareTopLevel(program.decls());
        for (Decl decl : program.decls()) {
            if (decl instanceof Decl.StructDecl struct && topLevel.get(struct.name()) == struct) {
                declareStruct(struct);
            }
        }
        new StructCycles(structs, diagnostics).report();
        Map<String, KindDraft> drafts = new LinkedHashMap<>();
        for (Decl decl : program.decls()) {
            if (topLevel.get(decl.name()) == decl) {
                switch (decl) {
                    case Decl.EndpointDecl e -> drafts.put(e.name(), declareKind(e, e.members(), false));
                    case Decl.ServiceDecl s -> drafts.put(s.name(), declareKind(s, s.members(), true));
                    default -> { }
                }
            }
        }
        for (Decl decl : program.decls()) {
            if (decl instanceof Decl.SequenceDecl seq && topLevel.get(seq.name()) == seq) {
                sequences.put(seq.name(), declareSequence(seq));
            }
        }
        drafts.forEach((name, draft) -> kinds.put(name, draft.build(partners.get(name))));
        AnnotationChecker annotations = new AnnotationChecker(diagnostics, annotationSpecs);
        kinds.values().forEach(annotations::check);
        Map<Expr, Type> types = new IdentityHashMap<>();
        BodyChecker bodies = new BodyChecker(this, types);
        for (Decl decl : program.decls()) {
            if (topLevel.get(decl.name()) == decl) {
                bodies.checkDecl(decl);
            }
        }
        return new CheckedProgram(program, Collections.unmodifiableMap(kinds),
                Collections.unmodifiableMap(structs), Collections.unmodifiableMap(sequences),
                Collections.unmodifiableMap(types), Collections.unmodifiableMap(symbols),
                Collections.unmodifiableMap(typeRefs));
    }

    // ---- top level -------------------------------------------------------------------------

    private void declareTopLevel(List<Decl> decls) {
        for (Decl decl : decls) {
            Decl first = topLevel.get(decl.name());
            if (first != null) {
                duplicate(decl.nameSpan(), decl.name(), first.nameSpan());
            } else {
                topLevel.put(decl.name(), decl);
            }
        }
    }

    private void declareStruct(Decl.StructDecl struct) {
        Map<String, Type> fields = new LinkedHashMap<>();
        Map<String, Span> spans = new HashMap<>();
        for (VarDecl field : struct.fields()) {
            Type type = resolve(field.type(), false);
            if (spans.containsKey(field.name())) {
                duplicate(field.nameSpan(), field.name(), spans.get(field.name()));
            } else {
                fields.put(field.name(), type);
                spans.put(field.name(), field.nameSpan());
            }
        }
        structs.put(struct.name(), new StructInfo(struct, Collections.unmodifiableMap(fields)));
    }

    // ---- endpoints and services --------------------------------------------------------------

    /** The members of a kind while partners are not yet known. */
    private record KindDraft(String name, boolean isService, Decl decl,
                             Map<String, MemberVar> variables, Map<String, FunctionSym> functions,
                             Member.OnCreate onCreate) {
        KindInfo build(String partner) {
            return new KindInfo(name, isService, decl, Collections.unmodifiableMap(variables),
                    Collections.unmodifiableMap(functions), onCreate, isService ? null : partner);
        }
    }

    private KindDraft declareKind(Decl decl, List<Member> members, boolean isService) {
        Map<String, MemberVar> variables = new LinkedHashMap<>();
        Map<String, FunctionSym> functions = new LinkedHashMap<>();
        Map<String, Span> names = new HashMap<>();
        Member.OnCreate onCreate = null;
        for (Member member : members) {
            switch (member) {
                case VarDecl v -> {
                    MemberVar variable = new MemberVar(decl.name(), v.name(), memberType(v.type()), v);
                    symbols.put(v, variable);
                    if (claim(names, v.name(), v.nameSpan())) {
                        variables.put(v.name(), variable);
                    }
                }
                case Member.FunctionDecl f -> {
                    FunctionSym function = declareFunction(decl.name(), f);
                    if (BUILTINS.containsKey(f.name())) {
                        diagnostics.error(f.nameSpan(), "cannot declare function '" + f.name()
                                + "': it is a built-in function");
                    } else if (topLevel.get(f.name()) instanceof Decl.SequenceDecl) {
                        // A call f() would silently pick the function over the sequence.
                        diagnostics.error(f.nameSpan(), "function '" + f.name() + "' has the name of a "
                                + "sequence, so calls to it would be ambiguous; rename one of them");
                    } else if (claim(names, f.name(), f.nameSpan())) {
                        functions.put(f.name(), function);
                    }
                }
                case Member.OnCreate o -> {
                    if (onCreate != null) {
                        diagnostics.error(o.span(), "duplicate declaration: '" + decl.name()
                                + "' already has an onCreate at line " + onCreate.span().line());
                    } else {
                        onCreate = o;
                        resolveParams(o.params());
                    }
                }
            }
        }
        return new KindDraft(decl.name(), isService, decl, variables, functions, onCreate);
    }

    private FunctionSym declareFunction(String owner, Member.FunctionDecl f) {
        List<Type> params = resolveParams(f.params());
        Type result = resolve(f.returnType(), true);
        FunctionSym function = new FunctionSym(owner, f.name(), List.copyOf(params), result, f);
        symbols.put(f, function);
        return function;
    }

    private List<Type> resolveParams(List<Param> params) {
        List<Type> types = new ArrayList<>();
        Map<String, Span> names = new HashMap<>();
        for (Param param : params) {
            types.add(resolve(param.type(), false));
            claim(names, param.name(), param.span());
        }
        return types;
    }

    // ---- sequences --------------------------------------------------------------------------

    private SequenceInfo declareSequence(Decl.SequenceDecl seq) {
        Map<String, Span> names = new HashMap<>();
        List<SequenceData> params = new ArrayList<>();
        for (Param p : seq.params()) {
            SequenceData data = new SequenceData(seq.name(), p.name(), resolve(p.type(), false),
                    DataRole.PARAM, params.size(), p);
            symbols.put(p, data);
            if (claim(names, p.name(), p.span())) {
                params.add(data);
            }
        }
        List<SequenceData> data = new ArrayList<>();
        for (VarDecl v : seq.data()) {
            SequenceData item = new SequenceData(seq.name(), v.name(), resolve(v.type(), false),
                    DataRole.DATA, data.size(), v);
            symbols.put(v, item);
            if (claim(names, v.name(), v.nameSpan())) {
                data.add(item);
            }
        }
        Type resultType = seq.returnType() == null ? Type.NOTHING : resolve(seq.returnType(), true);
        SequenceData result = null;
        if (seq.resultName() != null) {
            if (resultType instanceof Type.NothingType) {
                diagnostics.error(seq.returnType().span(), "a named result cannot have type Nothing");
            }
            result = new SequenceData(seq.name(), seq.resultName(), resultType, DataRole.RESULT, 0, seq);
            if (!claim(names, seq.resultName(), seq.returnType().span())) {
                result = null;
            }
        }
        String[] pair = stepKinds(seq);
        return new SequenceInfo(seq, pair[0], pair[1], List.copyOf(seq.steps()), List.copyOf(params),
                List.copyOf(data), result, resultType);
    }

    /**
     * Checks that the steps alternate between two endpoint kinds and returns them, first kind
     * first; either is null when the steps are broken (the error is reported).
     */
    private String[] stepKinds(Decl.SequenceDecl seq) {
        String[] pair = new String[2];
        boolean valid = true;
        Map<String, Span> stepNames = new HashMap<>();
        Decl.Step previous = null;
        for (Decl.Step step : seq.steps()) {
            claim(stepNames, step.kind() + "." + step.name(), step.span());
            if (!isEndpointKind(step)) {
                valid = false;
            } else if (previous != null && previous.kind().equals(step.kind())) {
                diagnostics.error(step.kindSpan(), "step '" + step.kind() + "." + step.name()
                        + "' follows a step of the same endpoint kind; steps must alternate between "
                        + "two endpoint kinds");
                valid = false;
            } else if (pair[0] == null || pair[1] == null) {
                pair[pair[0] == null ? 0 : 1] = step.kind();
            } else if (!step.kind().equals(pair[0]) && !step.kind().equals(pair[1])) {
                diagnostics.error(step.kindSpan(), "step '" + step.kind() + "." + step.name()
                        + "' names a third endpoint kind; sequence '" + seq.name()
                        + "' alternates between " + pair[0] + " and " + pair[1]);
                valid = false;
            }
            previous = step;
        }
        if (seq.steps().size() < 2) {
            diagnostics.error(seq.nameSpan(), "sequence '" + seq.name()
                    + "' needs at least two steps, one on each of two endpoint kinds");
            return new String[2];
        }
        if (valid && pair[1] != null) {
            pairPartners(seq, pair[0], pair[1]);
        }
        return valid ? pair : new String[2];
    }

    private boolean isEndpointKind(Decl.Step step) {
        Decl decl = topLevel.get(step.kind());
        if (decl instanceof Decl.EndpointDecl) {
            return true;
        }
        String problem = decl == null ? "there is no Endpoint named '" + step.kind() + "'"
                : "'" + step.kind() + "' is " + described(decl) + ", not an Endpoint";
        diagnostics.error(step.kindSpan(), "step '" + step.kind() + "." + step.name() + "': " + problem);
        return false;
    }

    // An endpoint has one connected partner, so every sequence it takes part in must pair it
    // with the same kind; otherwise "its partner" in LANGUAGE.md §5 would be ambiguous.
    private void pairPartners(Decl.SequenceDecl seq, String first, String second) {
        for (String[] pair : new String[][] {{first, second}, {second, first}}) {
            String known = partners.get(pair[0]);
            if (known == null) {
                partners.put(pair[0], pair[1]);
                partnerSources.put(pair[0], seq.name());
            } else if (!known.equals(pair[1])) {
                diagnostics.error(seq.nameSpan(), "Endpoint " + pair[0] + " is already paired with "
                        + known + " by sequence '" + partnerSources.get(pair[0]) + "'; an endpoint has "
                        + "one partner kind, so '" + seq.name() + "' cannot pair it with " + pair[1]);
                return;
            }
        }
    }

    // ---- types -----------------------------------------------------------------------------

    /** Resolves a written type; {@code allowNothing} only for result types. */
    Type resolve(TypeRef ref, boolean allowNothing) {
        Type known = typeRefs.get(ref);
        if (known != null) {
            return known; // Resolved before: its errors, if any, are already reported.
        }
        Type type = switch (ref) {
            case TypeRef.Basic b -> switch (b.kind()) {
                case NUMBER -> Type.NUMBER;
                case TEXT -> Type.TEXT;
                case TRUE_FALSE -> Type.BOOL;
                case ENDPOINT -> Type.ENDPOINT;
                case NOTHING -> {
                    if (allowNothing) {
                        yield Type.NOTHING;
                    }
                    diagnostics.error(b.span(), "'Nothing' can only be the result type of a function or sequence");
                    yield Type.ERROR;
                }
            };
            case TypeRef.ListOf l -> new Type.ListType(resolve(l.element(), false));
            case TypeRef.MapOf m -> new Type.MapType(keyType(m.key(), "map keys"), resolve(m.value(), false));
            case TypeRef.CSetOf c -> {
                diagnostics.error(c.span(), "a CSet can only be the type of an endpoint or service variable"
                        + " (its adds and removes commute across transactions); read it with count() or elements()");
                yield Type.ERROR;
            }
            case TypeRef.Named n -> named(n);
        };
        typeRefs.put(ref, type);
        return type;
    }

    /** Resolves the type of an endpoint or service variable: any type, and the only place a CSet may be. */
    private Type memberType(TypeRef ref) {
        if (!(ref instanceof TypeRef.CSetOf cset)) {
            return resolve(ref, false);
        }
        Type type = new Type.CSetType(keyType(cset.element(), "CSet elements"));
        typeRefs.put(ref, type);
        return type;
    }

    /** Resolves a map's key type or a CSet's element type: Number, Text or TrueFalse. */
    private Type keyType(TypeRef ref, String what) {
        Type key = resolve(ref, false);
        if (key instanceof Type.NumberType || key instanceof Type.TextType
                || key instanceof Type.BoolType || key instanceof Type.ErrorType) {
            return key;
        }
        diagnostics.error(ref.span(), what + " must be Number, Text or TrueFalse, found " + key.display());
        return Type.ERROR;
    }

    private Type named(TypeRef.Named ref) {
        Decl decl = topLevel.get(ref.name());
        if (decl instanceof Decl.StructDecl) {
            return new Type.StructType(ref.name());
        }
        if (decl == null) {
            diagnostics.error(ref.span(), "undefined type '" + ref.name() + "'");
        } else {
            String hint = decl instanceof Decl.SequenceDecl ? "" : "; use the type Endpoint";
            diagnostics.error(ref.span(), "'" + ref.name() + "' is " + described(decl) + ", not a type" + hint);
        }
        return Type.ERROR;
    }

    // ---- shared helpers ---------------------------------------------------------------------

    /** Records {@code name} as declared at {@code span}; reports and returns false on a duplicate. */
    boolean claim(Map<String, Span> names, String name, Span span) {
        Span first = names.putIfAbsent(name, span);
        if (first != null) {
            duplicate(span, name, first);
            return false;
        }
        return true;
    }

    void duplicate(Span at, String name, Span first) {
        String where = first.file().equals(at.file()) ? "line " + first.line() : first.file() + ":" + first.line();
        diagnostics.error(at, "duplicate declaration: '" + name + "' is already declared at " + where);
    }

    /** Names what a declaration is, with its article: "an Endpoint", "a Struct". */
    static String described(Decl decl) {
        return (decl instanceof Decl.EndpointDecl ? "an " : "a ") + keyword(decl);
    }

    static String keyword(Decl decl) {
        return switch (decl) {
            case Decl.EndpointDecl e -> "Endpoint";
            case Decl.ServiceDecl s -> "Service";
            case Decl.StructDecl s -> "Struct";
            case Decl.SequenceDecl s -> "Sequence";
        };
    }

    Diagnostics diagnostics() {
        return diagnostics;
    }

    Map<String, Decl> topLevel() {
        return topLevel;
    }

    Map<String, StructInfo> structs() {
        return structs;
    }

    Map<String, KindInfo> kinds() {
        return kinds;
    }

    Map<String, SequenceInfo> sequences() {
        return sequences;
    }

    Map<Object, Symbol> symbols() {
        return symbols;
    }
}
