package dev.waldo.compiler.check;

import dev.waldo.compiler.check.Symbol.Builtin;
import dev.waldo.compiler.check.Symbol.FunctionSym;
import dev.waldo.compiler.check.Symbol.Variable;
import dev.waldo.compiler.diag.Span;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Types expressions and resolves the names and calls in them, recording both in the maps the
 * {@link CheckedProgram} exposes. The expected type, when the context has one, is passed down:
 * it gives empty {@code []} and {@code {}} their types and settles the type of calls on
 * Endpoint values whose result type is only known at run time.
 */
final class ExprChecker {
    private final Checker checker;
    private final BodyChecker body;
    private final Map<Expr, Type> types;

    ExprChecker(Checker checker, BodyChecker body, Map<Expr, Type> types) {
        this.checker = checker;
        this.body = body;
        this.types = types;
    }

    /** Whether a value of type {@code actual} can be used where {@code expected} is needed. */
    static boolean compatible(Type expected, Type actual) {
        if (expected instanceof Type.ErrorType || actual instanceof Type.ErrorType
                || actual instanceof Type.DynamicType) {
            return true;
        }
        if (expected instanceof Type.ListType e && actual instanceof Type.ListType a) {
            return compatible(e.element(), a.element());
        }
        if (expected instanceof Type.MapType e && actual instanceof Type.MapType a) {
            return compatible(e.key(), a.key()) && compatible(e.value(), a.value());
        }
        return expected.equals(actual);
    }

    /** Checks that {@code expr} gives a {@code expected}; {@code what} names it in the error. */
    void require(Expr expr, Type expected, String what) {
        Type actual = check(expr, expected);
        if (actual instanceof Type.DynamicType) {
            types.put(expr, expected);
        } else if (!compatible(expected, actual)) {
            error(expr.span(), "type mismatch: " + what + " must be " + expected.display()
                    + ", found " + actual.display());
        }
    }

    /** Types an expression whose value is used with no expected type. */
    Type value(Expr expr) {
        Type type = check(expr, null);
        if (type instanceof Type.DynamicType) {
            error(expr.span(), "the result of this call on an Endpoint value has no static type here; "
                    + "assign it to a typed variable first");
            types.put(expr, Type.ERROR);
            return Type.ERROR;
        }
        if (type instanceof Type.NothingType) {
            error(expr.span(), "this call returns Nothing; it has no value to use");
            types.put(expr, Type.ERROR);
            return Type.ERROR;
        }
        return type;
    }

    /** Types the left side of an assignment and checks that it can be assigned. */
    Type target(Expr target) {
        if (target instanceof Expr.Index index) {
            Type container = value(index.target());
            if (container instanceof Type.TextType) {
                check(index.index(), null);
                error(index.span(), "text cannot be changed in place; build a new Text instead");
                types.put(index, Type.ERROR);
                return Type.ERROR;
            }
            return record(index, indexInto(index, container));
        }
        return value(target);
    }

    /** Types {@code expr}, records the type and returns it. */
    Type check(Expr expr, Type expected) {
        Type type = switch (expr) {
            case Expr.NumberLit n -> Type.NUMBER;
            case Expr.TextLit t -> Type.TEXT;
            case Expr.BoolLit b -> Type.BOOL;
            case Expr.Name n -> name(n);
            case Expr.Self s -> self(s.span());
            case Expr.Unary u -> unary(u);
            case Expr.Binary b -> binary(b);
            case Expr.Call c -> call(c);
            case Expr.MethodCall m -> methodCall(m);
            case Expr.Field f -> field(f);
            case Expr.Index i -> indexInto(i, value(i.target()));
            case Expr.ListLit l -> listLiteral(l, expected);
            case Expr.MapLit m -> mapLiteral(m, expected);
        };
        return record(expr, type);
    }

    private Type record(Expr expr, Type type) {
        types.put(expr, type);
        return type;
    }

    // ---- names -----------------------------------------------------------------------------

    private Type name(Expr.Name n) {
        Variable variable = body.lookup(n.name());
        if (variable != null) {
            checker.symbols().put(n, variable);
            return variable.type();
        }
        Decl decl = checker.topLevel().get(n.name());
        KindInfo kind = body.kind();
        if (decl != null) {
            error(n.span(), "'" + n.name() + "' is " + Checker.described(decl) + ", not a value");
        } else if (kind != null && kind.functions().containsKey(n.name())) {
            error(n.span(), "'" + n.name() + "' is a function; call it with " + n.name() + "(...)");
        } else {
            error(n.span(), "undefined variable '" + n.name() + "'");
        }
        return Type.ERROR;
    }

    private Type self(Span span) {
        if (body.kind() == null) {
            error(span, "'self' is only available inside an Endpoint or Service");
            return Type.ERROR;
        }
        return Type.ENDPOINT;
    }

    // ---- operators -------------------------------------------------------------------------

    private Type unary(Expr.Unary u) {
        if (u.op() == Expr.UnaryOp.NOT) {
            require(u.operand(), Type.BOOL, "the operand of 'not'");
            return Type.BOOL;
        }
        require(u.operand(), Type.NUMBER, "the operand of '-'");
        return Type.NUMBER;
    }

    private Type binary(Expr.Binary b) {
        return switch (b.op()) {
            case AND, OR -> {
                require(b.left(), Type.BOOL, "the left operand of '" + b.op().symbol() + "'");
                require(b.right(), Type.BOOL, "the right operand of '" + b.op().symbol() + "'");
                yield Type.BOOL;
            }
            case SUB, MUL, DIV, MOD -> {
                require(b.left(), Type.NUMBER, "the left operand of '" + b.op().symbol() + "'");
                require(b.right(), Type.NUMBER, "the right operand of '" + b.op().symbol() + "'");
                yield Type.NUMBER;
            }
            case IN, NOT_IN -> membership(b);
            case EQ, NE -> {
                sameTypes(b, "compare");
                yield Type.BOOL;
            }
            case LT, LE, GT, GE -> {
                Type operands = sameTypes(b, "compare");
                if (!(operands instanceof Type.NumberType || operands instanceof Type.TextType
                        || operands instanceof Type.ErrorType)) {
                    error(b.span(), "type mismatch: '" + b.op().symbol() + "' orders Numbers or Texts, found "
                            + operands.display());
                }
                yield Type.BOOL;
            }
            case ADD -> add(b);
        };
    }

    private Type add(Expr.Binary b) {
        Type operands = sameTypes(b, "add");
        if (operands instanceof Type.NumberType || operands instanceof Type.TextType
                || operands instanceof Type.ErrorType) {
            return operands;
        }
        error(b.span(), "type mismatch: '+' adds Numbers or joins Texts, found " + operands.display()
                + "; use toText(...) to join other values to a Text");
        return Type.ERROR;
    }

    /**
     * Checks that both operands have one type and returns it (ERROR after a reported mismatch).
     * A call on an Endpoint value without a static type takes the other operand's type.
     */
    private Type sameTypes(Expr.Binary b, String verb) {
        Type left = check(b.left(), null);
        Type right = left instanceof Type.DynamicType ? check(b.right(), null) : check(b.right(), left);
        if (left instanceof Type.DynamicType && !(right instanceof Type.DynamicType)) {
            left = settle(b.left(), right);
        } else if (right instanceof Type.DynamicType && !(left instanceof Type.DynamicType)) {
            right = settle(b.right(), left);
        } else if (left instanceof Type.DynamicType) {
            return value(b.left());
        }
        left = noNothing(b.left(), left);
        right = noNothing(b.right(), right);
        if (left instanceof Type.ErrorType || right instanceof Type.ErrorType) {
            return Type.ERROR;
        }
        if (!left.equals(right)) {
            error(b.span(), "type mismatch: cannot " + verb + " " + left.display() + " and " + right.display()
                    + " with '" + b.op().symbol() + "'");
            return Type.ERROR;
        }
        return left;
    }

    private Type settle(Expr expr, Type type) {
        types.put(expr, type);
        return type;
    }

    private Type noNothing(Expr expr, Type type) {
        if (type instanceof Type.NothingType) {
            error(expr.span(), "this call returns Nothing; it has no value to use");
            return Type.ERROR;
        }
        return type;
    }

    // "x in container": substring for Text, element for List, key for Map.
    private Type membership(Expr.Binary b) {
        Type container = value(b.right());
        String what = "the left operand of '" + b.op().symbol() + "'";
        switch (container) {
            case Type.TextType t -> require(b.left(), Type.TEXT, what);
            case Type.ListType l -> require(b.left(), l.element(), what);
            case Type.MapType m -> require(b.left(), m.key(), what);
            case Type.ErrorType e -> value(b.left());
            default -> {
                value(b.left());
                error(b.right().span(), "type mismatch: '" + b.op().symbol()
                        + "' looks into a Text, List or Map, found " + container.display());
            }
        }
        return Type.BOOL;
    }

    // ---- calls -----------------------------------------------------------------------------

    private Type call(Expr.Call c) {
        KindInfo kind = body.kind();
        FunctionSym function = kind == null ? null : kind.functions().get(c.name());
        if (function != null) {
            checker.symbols().put(c, function);
            arguments(c.name(), c.nameSpan(), c.args(), function.params());
            return function.returnType();
        }
        SequenceInfo sequence = checker.sequences().get(c.name());
        if (sequence != null) {
            return sequenceCall(c, sequence);
        }
        Builtin builtin = Checker.BUILTINS.get(c.name());
        if (builtin != null) {
            checker.symbols().put(c, new Symbol.BuiltinFn(c.name(), builtin));
            return new Builtins(this, c).check(builtin);
        }
        c.args().forEach(this::value);
        Decl decl = checker.topLevel().get(c.name());
        error(c.nameSpan(), decl != null ? "'" + c.name() + "' is " + Checker.described(decl) + ", not a function"
                : undefinedFunction(c.name(), kind));
        return Type.ERROR;
    }

    private String undefinedFunction(String name, KindInfo kind) {
        if (body.lookup(name) != null) {
            return "'" + name + "' is a variable, not a function";
        }
        for (KindInfo other : checker.kinds().values()) {
            if (other.functions().containsKey(name)) {
                return "undefined function '" + name + "' here: it belongs to " + kindWord(other) + " "
                        + other.name() + " (call it on an Endpoint value holding one)";
            }
        }
        return "undefined function '" + name + "'";
    }

    private Type sequenceCall(Expr.Call c, SequenceInfo sequence) {
        checker.symbols().put(c, new Symbol.SequenceSym(c.name(), sequence));
        KindInfo kind = body.kind();
        String first = sequence.firstKind();
        if (first != null && (kind == null || !first.equals(kind.name()))) {
            String caller = kind == null ? "sequence data" : kindWord(kind) + " " + kind.name();
            error(c.nameSpan(), "sequence '" + c.name() + "' starts with a step of " + first
                    + ", so only a " + first + " can call it, not " + caller);
        }
        List<Type> params = sequence.params().stream().map(Symbol.SequenceData::type).toList();
        arguments(c.name(), c.nameSpan(), c.args(), params);
        return sequence.resultType();
    }

    /** Checks a call's arguments against parameter types; reports a count mismatch once. */
    void arguments(String name, Span at, List<Expr> args, List<Type> params) {
        if (args.size() != params.size()) {
            args.forEach(this::value);
            error(at, "wrong number of arguments to '" + name + "': expected " + params.size()
                    + ", found " + args.size());
            return;
        }
        for (int i = 0; i < args.size(); i++) {
            require(args.get(i), params.get(i), "argument " + (i + 1) + " of '" + name + "'");
        }
    }

    private Type methodCall(Expr.MethodCall m) {
        if (m.receiver() instanceof Expr.Self s) {
            return selfCall(m, s);
        }
        Type receiver = value(m.receiver());
        return switch (receiver) {
            case Type.ListType l -> new Builtins(this, m).listMethod(l);
            case Type.MapType map -> new Builtins(this, m).mapMethod(map);
            case Type.CSetType set -> new Builtins(this, m).csetMethod(set);
            case Type.EndpointType e -> remoteCall(m);
            case Type.ErrorType e -> {
                m.args().forEach(this::value);
                yield Type.ERROR;
            }
            default -> {
                m.args().forEach(this::value);
                error(m.nameSpan(), receiver.display() + " has no method '" + m.name() + "'");
                yield Type.ERROR;
            }
        };
    }

    // self.f(...) calls the current endpoint's own function, Private ones included.
    private Type selfCall(Expr.MethodCall m, Expr.Self receiver) {
        Type self = check(receiver, null);
        KindInfo kind = body.kind();
        FunctionSym function = kind == null ? null : kind.functions().get(m.name());
        if (function == null) {
            m.args().forEach(this::value);
            if (!(self instanceof Type.ErrorType)) {
                error(m.nameSpan(), kindWord(kind) + " " + kind.name() + " has no function '" + m.name() + "'");
            }
            return Type.ERROR;
        }
        checker.symbols().put(m, function);
        arguments(m.name(), m.nameSpan(), m.args(), function.params());
        return function.returnType();
    }

    /**
     * A call on an Endpoint value. The endpoint's kind is only known at run time, so the call is
     * checked against every Public function of that name in the program: at least one must
     * exist and take this many arguments. When all of those agree on parameter and result
     * types, the call is typed statically; otherwise arguments go unchecked and the result is
     * {@link Type#DYNAMIC}.
     */
    private Type remoteCall(Expr.MethodCall m) {
        List<FunctionSym> named = new ArrayList<>();
        FunctionSym privateOne = null;
        for (KindInfo kind : checker.kinds().values()) {
            FunctionSym f = kind.functions().get(m.name());
            if (f != null && f.isPublic()) {
                named.add(f);
            } else if (f != null && privateOne == null) {
                privateOne = f;
            }
        }
        if (named.isEmpty()) {
            m.args().forEach(this::value);
            error(m.nameSpan(), privateOne != null
                    ? "'" + m.name() + "' is Private in " + privateOne.owner()
                        + "; only Public functions can be called on an Endpoint value"
                    : "no Endpoint or Service has a Public function '" + m.name() + "'");
            return Type.ERROR;
        }
        List<FunctionSym> candidates = named.stream().filter(f -> f.params().size() == m.args().size()).toList();
        checker.symbols().put(m, new Symbol.RemoteCall(m.name(), candidates));
        if (candidates.isEmpty()) {
            m.args().forEach(this::value);
            TreeSet<Integer> counts = new TreeSet<>();
            named.forEach(f -> counts.add(f.params().size()));
            error(m.nameSpan(), "wrong number of arguments to '" + m.name() + "': expected "
                    + counts.toString().replaceAll("[\\[\\]]", "").replace(", ", " or ") + ", found " + m.args().size());
            return Type.ERROR;
        }
        FunctionSym first = candidates.get(0);
        boolean sameParams = candidates.stream().allMatch(f -> f.params().equals(first.params()));
        if (sameParams) {
            arguments(m.name(), m.nameSpan(), m.args(), first.params());
        } else {
            m.args().forEach(this::value);
        }
        boolean sameResult = candidates.stream().allMatch(f -> f.returnType().equals(first.returnType()));
        return sameResult ? first.returnType() : Type.DYNAMIC;
    }

    private static String kindWord(KindInfo kind) {
        return kind.isService() ? "Service" : "Endpoint";
    }

    // ---- fields, indexes, literals ----------------------------------------------------------

    private Type field(Expr.Field f) {
        Type target = value(f.target());
        if (target instanceof Type.StructType struct) {
            StructInfo info = checker.structs().get(struct.name());
            Type fieldType = info == null ? Type.ERROR : info.fields().get(f.name());
            if (fieldType == null) {
                error(f.nameSpan(), "struct '" + struct.name() + "' has no field '" + f.name() + "'");
                return Type.ERROR;
            }
            return fieldType;
        }
        if (!(target instanceof Type.ErrorType)) {
            String hint = f.target() instanceof Expr.Self ? "; use the endpoint's variables by name" : "";
            error(f.nameSpan(), "only structs have fields; '" + f.name() + "' is looked up on "
                    + target.display() + hint);
        }
        return Type.ERROR;
    }

    private Type indexInto(Expr.Index i, Type container) {
        return switch (container) {
            case Type.ListType l -> {
                require(i.index(), Type.NUMBER, "a list index");
                yield l.element();
            }
            case Type.MapType m -> {
                require(i.index(), m.key(), "the map key");
                yield m.value();
            }
            case Type.TextType t -> {
                require(i.index(), Type.NUMBER, "a text index");
                yield Type.TEXT;
            }
            case Type.ErrorType e -> {
                value(i.index());
                yield Type.ERROR;
            }
            default -> {
                value(i.index());
                error(i.span(), "cannot index a " + container.display() + "; only List, Map and Text have elements");
                yield Type.ERROR;
            }
        };
    }

    private Type listLiteral(Expr.ListLit l, Type expected) {
        Type element = expected instanceof Type.ListType list ? list.element() : null;
        if (l.elements().isEmpty()) {
            return emptyLiteral(l.span(), expected, Type.ListType.class, "list");
        }
        if (element == null) {
            element = value(l.elements().get(0));
        } else {
            require(l.elements().get(0), element, "a list element");
        }
        for (Expr e : l.elements().subList(1, l.elements().size())) {
            require(e, element, "a list element");
        }
        return new Type.ListType(element);
    }

    private Type mapLiteral(Expr.MapLit m, Type expected) {
        if (m.entries().isEmpty()) {
            return emptyLiteral(m.span(), expected, Type.MapType.class, "map");
        }
        Type key = expected instanceof Type.MapType map ? map.key() : null;
        Type value = expected instanceof Type.MapType map ? map.value() : null;
        for (Expr.MapEntry entry : m.entries()) {
            key = entryPart(entry.key(), key, "a map key");
            value = entryPart(entry.value(), value, "a map value");
        }
        if (!(key instanceof Type.NumberType || key instanceof Type.TextType
                || key instanceof Type.BoolType || key instanceof Type.ErrorType)) {
            error(m.entries().get(0).key().span(), "map keys must be Number, Text or TrueFalse, found "
                    + key.display());
            key = Type.ERROR;
        }
        return new Type.MapType(key, value);
    }

    private Type entryPart(Expr expr, Type known, String what) {
        if (known == null) {
            return value(expr);
        }
        require(expr, known, what);
        return known;
    }

    private Type emptyLiteral(Span span, Type expected, Class<? extends Type> shape, String noun) {
        if (shape.isInstance(expected)) {
            return expected;
        }
        if (expected == null) {
            error(span, "cannot tell the type of this empty " + noun + "; declare a typed variable for it first");
            return Type.ERROR;
        }
        return Type.ERROR.equals(expected) ? Type.ERROR : emptyMismatch(span, expected, noun);
    }

    private Type emptyMismatch(Span span, Type expected, String noun) {
        error(span, "type mismatch: an empty " + noun + " is not a " + expected.display());
        return Type.ERROR;
    }

    KindInfo kind() {
        return body.kind();
    }

    Map<Object, Symbol> checkerSymbols() {
        return checker.symbols();
    }

    void error(Span span, String message) {
        checker.diagnostics().error(span, message);
    }
}
