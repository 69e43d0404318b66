package dev.waldo.compiler.emit;

import dev.waldo.compiler.check.Symbol;
import dev.waldo.compiler.check.Type;
import dev.waldo.compiler.syntax.Expr;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns checked Waldo expressions into Java expressions. Every emitted
 * expression has the Java type {@link JavaTypes#of} gives for its Waldo type,
 * so callers can combine them without further casts.
 */
final class ExprEmitter {
    private final MethodScope scope;

    ExprEmitter(MethodScope scope) {
        this.scope = scope;
    }

    Type typeOf(Expr expr) {
        return scope.program.typeOf(expr);
    }

    /**
     * The expression's value, for reading: a variable of the endpoint is
     * read-locked, shared with other readers. Code that mutates the value in
     * place emits it with {@link #emitTarget} instead.
     */
    String emit(Expr expr) {
        return switch (expr) {
            case Expr.NumberLit n -> JavaNames.literal(n.value());
            case Expr.TextLit t -> JavaNames.literal(t.value());
            case Expr.BoolLit b -> b.value() ? "true" : "false";
            case Expr.Name n -> name(n);
            case Expr.Self s -> "ref()";
            case Expr.Binary b -> binary(b);
            case Expr.Unary u -> (u.op() == Expr.UnaryOp.NOT ? "!" : "-") + "(" + emit(u.operand()) + ")";
            case Expr.Call c -> call(c);
            case Expr.MethodCall m -> methodCall(m);
            case Expr.Field f -> emit(f.target()) + "." + JavaNames.of(f.name());
            case Expr.Index i -> index(i);
            case Expr.ListLit l -> listLiteral(l);
            case Expr.MapLit m -> mapLiteral(m);
        };
    }

    /**
     * The expression's value for mutating in place (the list of an append,
     * the struct of a field assignment, the container of an element
     * assignment): a variable of the endpoint it reaches is locked
     * exclusively, a key of a Map variable too. Other expressions are emitted
     * as by {@link #emit}.
     */
    String emitTarget(Expr expr) {
        return switch (expr) {
            case Expr.Name n when scope.program.symbolOf(n) instanceof Symbol.MemberVar member
                    && !(member.type() instanceof Type.MapType) -> "this." + JavaNames.of(member.name()) + ".get($ctx)";
            case Expr.Field f -> emitTarget(f.target()) + "." + JavaNames.of(f.name());
            case Expr.Index i when memberMapField(i.target()) != null ->
                unboxed(memberMapField(i.target()) + ".get($ctx, " + emit(i.index()) + ")", typeOf(i), false);
            case Expr.Index i when typeOf(i.target()) instanceof Type.ListType ->
                unboxed("Builtins.index(" + emitTarget(i.target()) + ", " + emit(i.index()) + ")", typeOf(i), false);
            default -> emit(expr);
        };
    }

    /**
     * The field of a Number or List variable of the endpoint that {@code expr}
     * names, else null: {@code +=} and {@code append} on it commute with other
     * transactions' (Claret's abstract locks), so they go through the
     * variable's {@code add} and {@code append} instead of read and write.
     */
    String memberVarField(Expr expr, Class<? extends Type> type) {
        if (expr instanceof Expr.Name n && scope.program.symbolOf(n) instanceof Symbol.MemberVar member
                && type.isInstance(member.type())) {
            return "this." + JavaNames.of(member.name());
        }
        return null;
    }

    /** The expression's value as an independent copy, for storing (value semantics). */
    String emitCopy(Expr expr) {
        String value = emit(expr);
        return JavaTypes.needsCopy(typeOf(expr)) && !isFresh(expr) ? "Values.copy(" + value + ")" : value;
    }

    /** Literals and whole-map reads already produce new values that nobody else holds. */
    private boolean isFresh(Expr expr) {
        return expr instanceof Expr.ListLit || expr instanceof Expr.MapLit
                || memberMapField(expr) != null;
    }

    /** The field name if {@code expr} names a Map variable of the endpoint (locked per key), else null. */
    String memberMapField(Expr expr) {
        return memberVarType(expr) instanceof Type.MapType ? memberField(expr) : null;
    }

    /** The type of the endpoint or service variable {@code expr} names, or null if it names none. */
    private Type memberVarType(Expr expr) {
        return expr instanceof Expr.Name n && scope.program.symbolOf(n) instanceof Symbol.MemberVar member
                ? member.type() : null;
    }

    /** The field that holds the endpoint or service variable {@code expr} names, or null if it names none. */
    private String memberField(Expr expr) {
        if (expr instanceof Expr.Name n && scope.program.symbolOf(n) instanceof Symbol.MemberVar member) {
            return "this." + JavaNames.of(member.name());
        }
        return null;
    }

    private String paren(Expr expr) {
        String text = emit(expr);
        return expr instanceof Expr.Binary ? "(" + text + ")" : text;
    }

    private String name(Expr.Name n) {
        Symbol symbol = scope.program.symbolOf(n);
        return switch (symbol) {
            case Symbol.MemberVar member -> JavaTypes.hasFinerLocks(member.type())
                    ? "this." + JavaNames.of(member.name()) + ".whole($ctx)"
                    : "this." + JavaNames.of(member.name()) + ".read($ctx)";
            case Symbol.SequenceData data -> JavaTypes.cast("$frame.get(" + JavaNames.literal(data.name()) + ")",
                    data.type());
            case Symbol.Variable local -> scope.nameOf(local);
            default -> throw new IllegalStateException("name " + n.name() + " resolves to " + symbol);
        };
    }

    private String binary(Expr.Binary b) {
        Type operands = typeOf(b.left());
        String left = paren(b.left());
        String right = paren(b.right());
        return switch (b.op()) {
            case OR -> left + " || " + right;
            case AND -> left + " && " + right;
            case EQ -> equality(operands, left, right);
            case NE -> "!" + wrap(equality(operands, left, right));
            case LT, LE, GT, GE -> operands instanceof Type.TextType
                    ? "Values.compare(" + emit(b.left()) + ", " + emit(b.right()) + ") " + b.op().symbol() + " 0"
                    : left + " " + b.op().symbol() + " " + right;
            case IN -> membership(b);
            case NOT_IN -> "!" + wrap(membership(b));
            case ADD, SUB, MUL -> left + " " + b.op().symbol() + " " + right;
            case DIV -> "Builtins.divide(" + emit(b.left()) + ", " + emit(b.right()) + ")";
            case MOD -> "Builtins.remainder(" + emit(b.left()) + ", " + emit(b.right()) + ")";
        };
    }

    private static String wrap(String text) {
        return text.startsWith("Values.") ? text : "(" + text + ")";
    }

    private String equality(Type operands, String left, String right) {
        return JavaTypes.isPrimitive(operands) ? left + " == " + right : "Values.equal(" + left + ", " + right + ")";
    }

    private String membership(Expr.Binary b) {
        String map = memberMapField(b.right());
        if (map != null) {
            return map + ".containsKey($ctx, " + emit(b.left()) + ")";
        }
        return "Builtins.in(" + emit(b.left()) + ", " + emit(b.right()) + ")";
    }

    private String call(Expr.Call c) {
        Symbol symbol = scope.program.symbolOf(c);
        return switch (symbol) {
            case Symbol.FunctionSym function -> "this." + JavaNames.body(function.name()) + "("
                    + arguments(c.args()) + ")";
            case Symbol.SequenceSym sequence -> "this." + JavaNames.sequence(sequence.name()) + "("
                    + arguments(c.args()) + ")";
            case Symbol.BuiltinFn builtin -> builtin(builtin.builtin(), c.args());
            default -> throw new IllegalStateException("call " + c.name() + " resolves to " + symbol);
        };
    }

    private String builtin(Symbol.Builtin builtin, List<Expr> args) {
        return switch (builtin) {
            case LEN -> {
                String map = memberMapField(args.get(0));
                yield map != null ? "(double) " + map + ".size($ctx)" : "Builtins.len(" + emit(args.get(0)) + ")";
            }
            case RANGE -> "Builtins.range(" + joined(args) + ")";
            case KEYS -> "Builtins.keys(" + emit(args.get(0)) + ")";
            case TO_TEXT -> "Values.toText(" + emit(args.get(0)) + ")";
            case ID -> "id()";
            case PRINT -> "$ctx.print(" + printed(args) + ")";
        };
    }

    /** print(a, b, ...) writes its arguments' texts separated by single spaces. */
    private String printed(List<Expr> args) {
        if (args.isEmpty()) {
            return "\"\"";
        }
        List<String> parts = new ArrayList<>();
        for (Expr arg : args) {
            parts.add("Values.toText(" + emit(arg) + ")");
        }
        return String.join(" + \" \" + ", parts);
    }

    private String methodCall(Expr.MethodCall m) {
        Symbol symbol = scope.program.symbolOf(m);
        return switch (symbol) {
            case Symbol.FunctionSym function -> "this." + JavaNames.body(function.name()) + "("
                    + arguments(m.args()) + ")";
            case Symbol.RemoteCall remote -> remoteCall(m);
            case Symbol.BuiltinMethod method -> builtinMethod(method.method(), m);
            default -> throw new IllegalStateException("method " + m.name() + " resolves to " + symbol);
        };
    }

    /**
     * A call on an Endpoint value: the runtime routes it; the result is checked against the type
     * needed. The body's last call ({@link LastCall}) goes through {@code lastCall}.
     */
    private String remoteCall(Expr.MethodCall m) {
        String method = m == scope.lastCall ? "$ctx.lastCall(" : "$ctx.call("; // the last one carries the prepare
        StringBuilder call = new StringBuilder(method).append(emit(m.receiver())).append(", ")
                .append(JavaNames.literal(m.name()));
        for (Expr arg : m.args()) {
            call.append(", ").append(emit(arg));
        }
        call.append(")");
        Type result = typeOf(m);
        if (result instanceof Type.NothingType || result instanceof Type.DynamicType) {
            return call.toString();
        }
        String checked = "Dispatch.result(" + call + ", " + JavaTypes.rawClass(result) + ", "
                + JavaNames.literal("call of " + m.name() + "()") + ")";
        return switch (result) {
            case Type.NumberType n -> checked + ".doubleValue()";
            case Type.BoolType b -> checked + ".booleanValue()";
            case Type.ListType l -> "((" + JavaTypes.boxed(result) + ") " + checked + ")";
            case Type.MapType mt -> "((" + JavaTypes.boxed(result) + ") " + checked + ")";
            default -> checked;
        };
    }

    private String builtinMethod(Symbol.Method method, Expr.MethodCall m) {
        String map = memberMapField(m.receiver());
        List<Expr> args = m.args();
        return switch (method) {
            case LIST_APPEND -> append(m.receiver(), emitCopy(args.get(0)));
            case LIST_INSERT -> "Builtins.insert(" + emitTarget(m.receiver()) + ", " + emit(args.get(0)) + ", "
                    + emitCopy(args.get(1)) + ")";
            case LIST_REMOVE -> "Builtins.remove(" + emitTarget(m.receiver()) + ", " + emit(args.get(0)) + ")";
            case MAP_REMOVE -> map != null
                    ? map + ".remove($ctx, " + emit(args.get(0)) + ")"
                    : emitTarget(m.receiver()) + ".remove(" + emit(args.get(0)) + ")";
            // A CSet is always an endpoint or service variable: its methods take its commuting or whole lock.
            case CSET_ADD -> memberField(m.receiver()) + ".add($ctx, " + emit(args.get(0)) + ")";
            case CSET_REM -> memberField(m.receiver()) + ".rem($ctx, " + emit(args.get(0)) + ")";
            case CSET_COUNT -> memberField(m.receiver()) + ".count($ctx, " + emit(args.get(0)) + ")";
            case CSET_ELEMENTS -> memberField(m.receiver()) + ".elements($ctx)";
        };
    }

    /**
     * {@code list.append(element)}: on a List variable of the endpoint, or a
     * List under a key of a Map variable, it commutes with other transactions'
     * appends (an APPEND lock and a delta); on anything else it mutates the
     * list in place.
     */
    private String append(Expr receiver, String element) {
        String variable = memberVarField(receiver, Type.ListType.class);
        if (variable != null) {
            return variable + ".append($ctx, " + element + ")";
        }
        if (receiver instanceof Expr.Index i && memberMapField(i.target()) != null) {
            return memberMapField(i.target()) + ".appendAt($ctx, " + emit(i.index()) + ", " + element + ")";
        }
        return emitTarget(receiver) + ".add(" + element + ")";
    }

    private String index(Expr.Index i) {
        String map = memberMapField(i.target());
        Type element = typeOf(i);
        String read = map != null
                ? map + ".read($ctx, " + emit(i.index()) + ")"
                : "Builtins.index(" + emit(i.target()) + ", " + emit(i.index()) + ")";
        return unboxed(read, element, typeOf(i.target()) instanceof Type.TextType);
    }

    /** Elements of generic containers come out boxed; numbers and truths are unboxed for arithmetic. */
    private static String unboxed(String read, Type type, boolean alreadyExact) {
        if (alreadyExact) {
            return read;
        }
        return switch (type) {
            case Type.NumberType n -> "((double) " + read + ")";
            case Type.BoolType b -> "((boolean) " + read + ")";
            default -> read;
        };
    }

    private String listLiteral(Expr.ListLit l) {
        String type = JavaTypes.boxed(((Type.ListType) typeOf(l)).element());
        if (l.elements().isEmpty()) {
            return "new WList<" + type + ">()";
        }
        List<String> elements = new ArrayList<>();
        for (Expr element : l.elements()) {
            elements.add(emitCopy(element));
        }
        return "WList.<" + type + ">of(" + String.join(", ", elements) + ")";
    }

    private String mapLiteral(Expr.MapLit m) {
        Type.MapType type = (Type.MapType) typeOf(m);
        StringBuilder literal = new StringBuilder("WMap.<").append(JavaTypes.boxed(type.key())).append(", ")
                .append(JavaTypes.boxed(type.value())).append(">of(");
        for (int i = 0; i < m.entries().size(); i++) {
            Expr.MapEntry entry = m.entries().get(i);
            literal.append(i == 0 ? "" : ", ").append(emit(entry.key())).append(", ").append(emitCopy(entry.value()));
        }
        return literal.append(")").toString();
    }

    /** {@code $ctx} then the arguments, copied: the callee gets values of its own (value semantics). */
    private String arguments(List<Expr> args) {
        StringBuilder out = new StringBuilder("$ctx");
        for (Expr arg : args) {
            out.append(", ").append(emitCopy(arg));
        }
        return out.toString();
    }

    private String joined(List<Expr> args) {
        List<String> parts = new ArrayList<>();
        for (Expr arg : args) {
            parts.add(emit(arg));
        }
        return String.join(", ", parts);
    }
}
