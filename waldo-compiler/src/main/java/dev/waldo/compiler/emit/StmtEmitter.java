package dev.waldo.compiler.emit;

import dev.waldo.compiler.check.Constants;
import dev.waldo.compiler.check.Reachability;
import dev.waldo.compiler.check.Symbol;
import dev.waldo.compiler.check.Type;
import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Stmt;
import dev.waldo.compiler.syntax.VarDecl;
import java.util.Optional;

/**
 * Turns checked Waldo statements into Java statements. It drops statements
 * that can never run (javac rejects them as unreachable) and reports whether
 * a body can fall off its end by Java's own rules, so the class emitter knows
 * when a function needs a closing throw to satisfy javac.
 */
final class StmtEmitter {
    /** What a {@code return} means in the method being written. */
    enum Returns {
        /** A function: Java's return, with the value copied. */
        FUNCTION,
        /** A sequence step: end the sequence through the frame. */
        STEP,
        /** onCreate: end the initialization. */
        ON_CREATE
    }

    private final MethodScope scope;
    private final ExprEmitter exprs;
    private final JavaWriter out;
    private final Returns returns;

    StmtEmitter(MethodScope scope, JavaWriter out, Returns returns) {
        this.scope = scope;
        this.exprs = new ExprEmitter(scope);
        this.out = out;
        this.returns = returns;
    }

    ExprEmitter exprs() {
        return exprs;
    }

    /** Writes the statements of {@code block} without braces; returns whether the end is reachable. */
    boolean statements(Stmt.Block block) {
        for (Stmt stmt : block.stmts()) {
            if (!statement(stmt)) {
                return false;  // what follows is dead code, which javac would reject
            }
        }
        return true;
    }

    /** Writes one statement; returns whether execution can continue after it (Java's rules). */
    boolean statement(Stmt stmt) {
        return switch (stmt) {
            case VarDecl v -> declaration(v);
            case Stmt.Block b -> block(b);
            case Stmt.ExprStmt e -> expressionStatement(e);
            case Stmt.Assign a -> assignment(a);
            case Stmt.If i -> ifStatement(i);
            case Stmt.While w -> whileLoop(w);
            case Stmt.For f -> forLoop(f);
            case Stmt.Break b -> jump("break;");
            case Stmt.Continue c -> jump("continue;");
            case Stmt.Return r -> returnStatement(r);
            case Stmt.Try t -> tryStatement(t);
            case Stmt.Abort a -> jump("throw $ctx.abort();");
        };
    }

    private boolean jump(String java) {
        out.line(java);
        return false;
    }

    private boolean declaration(VarDecl v) {
        Type type = scope.program.typeOf(v.type());
        String name = scope.declare(v, v.name());
        String value = v.init() == null ? JavaTypes.defaultValue(type) : exprs.emitCopy(v.init());
        out.line("%s %s = %s;", JavaTypes.of(type), name, value);
        return true;
    }

    private boolean block(Stmt.Block b) {
        out.open("");
        boolean completes = statements(b);
        out.close();
        return completes;
    }

    /**
     * A call stands as a Java statement. Java accepts no other expression as a statement (nor a
     * call whose emitted form is a cast), so the value of any other one (say {@code l[3];}, which
     * raises when the index is out of range) is computed into an unused local.
     */
    private boolean expressionStatement(Stmt.ExprStmt e) {
        String value = exprs.emit(e.expr());
        boolean call = e.expr() instanceof Expr.Call || e.expr() instanceof Expr.MethodCall;
        if (isValueless(e.expr()) || (call && !value.startsWith("("))) {
            out.line("%s;", value);
        } else {
            out.line("Object %s = %s;", scope.temporary("unused"), value);
        }
        return true;
    }

    /** A call of Nothing type, or one whose type is known only at run time: a plain Java call. */
    private boolean isValueless(Expr expr) {
        Type type = exprs.typeOf(expr);
        return type instanceof Type.NothingType || type instanceof Type.DynamicType;
    }

    private boolean assignment(Stmt.Assign a) {
        Expr.BinaryOp op = a.op().binary();
        String commuting = op == Expr.BinaryOp.ADD || op == Expr.BinaryOp.SUB ? addition(a, op) : null;
        if (commuting != null) {
            out.line("%s;", commuting);
            return true;
        }
        // x op= v locks x exclusively before reading it: a read lock would have to be upgraded to store.
        String value = op == null ? exprs.emitCopy(a.value())
                : combined(exprs.emitTarget(a.target()), op, exprs.emit(a.value()));
        out.line("%s;", store(a.target(), value));
        return true;
    }

    /**
     * {@code x += v} / {@code x -= v} on a Number variable of the endpoint, or
     * on a key of a Map variable of Numbers: an addition that commutes with
     * other transactions' (Claret's abstract locks), emitted as the variable's
     * {@code add} or the map's {@code addAt}; null for any other target, and
     * for an amount that is not {@link #quiet}.
     */
    private String addition(Stmt.Assign a, Expr.BinaryOp op) {
        if (!quiet(a.value())) {
            return null;
        }
        String amount = op == Expr.BinaryOp.SUB ? "-(" + exprs.emit(a.value()) + ")" : exprs.emit(a.value());
        String variable = exprs.memberVarField(a.target(), Type.NumberType.class);
        if (variable != null) {
            return variable + ".add($ctx, " + amount + ")";
        }
        if (a.target() instanceof Expr.Index i && exprs.memberMapField(i.target()) != null
                && exprs.typeOf(i) instanceof Type.NumberType) {
            return exprs.memberMapField(i.target()) + ".addAt($ctx, " + exprs.emit(i.index()) + ", " + amount + ")";
        }
        return null;
    }

    /** {@code x op= v} reads the target once more; Waldo targets have no side effects of their own. */
    private static String combined(String current, Expr.BinaryOp op, String value) {
        return switch (op) {
            case DIV -> "Builtins.divide(" + current + ", " + value + ")";
            default -> current + " " + op.symbol() + " (" + value + ")";
        };
    }

    /**
     * True if evaluating {@code value} can neither change state nor raise: no
     * call, no index, no division. Only then may {@code t += value} add
     * without reading {@code t} first: the language reads the target before it
     * evaluates the amount (LANGUAGE-NOTES), which is only unobservable when
     * the amount cannot change the target or fail before a missing key would.
     */
    private static boolean quiet(Expr value) {
        return switch (value) {
            case Expr.NumberLit n -> true;
            case Expr.Name n -> true;
            case Expr.Field f -> quiet(f.target());
            case Expr.Unary u -> quiet(u.operand());
            case Expr.Binary b -> b.op() != Expr.BinaryOp.DIV && b.op() != Expr.BinaryOp.MOD
                    && quiet(b.left()) && quiet(b.right());
            default -> false;
        };
    }

    /** A Java statement (without ';') that stores {@code value} into the assignable {@code target}. */
    String store(Expr target, String value) {
        return switch (target) {
            case Expr.Name n -> storeName(n, value);
            case Expr.Index i -> storeIndex(i, value);
            case Expr.Field f -> exprs.emitTarget(f.target()) + "." + JavaNames.of(f.name()) + " = " + value;
            default -> throw new IllegalStateException("not assignable: " + target);
        };
    }

    private String storeName(Expr.Name n, String value) {
        return storeVariable(scope.program.symbolOf(n), value);
    }

    private String storeVariable(Symbol symbol, String value) {
        return switch (symbol) {
            case Symbol.MemberVar member -> "this." + JavaNames.of(member.name())
                    + (JavaTypes.hasFinerLocks(member.type()) ? ".setWhole($ctx, " : ".set($ctx, ") + value + ")";
            case Symbol.SequenceData data -> "$frame.set(" + JavaNames.literal(data.name()) + ", " + value + ")";
            case Symbol.Variable local -> scope.nameOf(local) + " = " + value;
            default -> throw new IllegalStateException("cannot assign to " + symbol);
        };
    }

    private String storeIndex(Expr.Index i, String value) {
        String map = exprs.memberMapField(i.target());
        if (map != null) {
            return map + ".put($ctx, " + exprs.emit(i.index()) + ", " + value + ")";
        }
        Type container = exprs.typeOf(i.target());
        if (container instanceof Type.MapType) {
            return exprs.emitTarget(i.target()) + ".put(" + exprs.emit(i.index()) + ", " + value + ")";
        }
        return "Builtins.setIndex(" + exprs.emitTarget(i.target()) + ", " + exprs.emit(i.index()) + ", " + value + ")";
    }

    // An elseIf chain is written as Java's else-if chain; the statement
    // completes when any branch does, or when there is no final else.
    private boolean ifStatement(Stmt.If first) {
        out.open("if (%s)", exprs.emit(first.cond()));
        boolean completes = nested(first.then());
        Stmt rest = first.otherwise();
        while (rest instanceof Stmt.If elseIf) {
            out.closeOpen("else if (%s)", exprs.emit(elseIf.cond()));
            completes |= nested(elseIf.then());
            rest = elseIf.otherwise();
        }
        if (rest == null) {
            out.close();
            return true;
        }
        out.closeOpen("else");
        completes |= nested(rest);
        out.close();
        return completes;
    }

    /** A branch or loop body, whose braces the caller already wrote. */
    private boolean nested(Stmt body) {
        return body instanceof Stmt.Block b ? statements(b) : statement(body);
    }

    /**
     * A condition that folds to a constant is written as its value: javac reasons about constant
     * conditions (a body under a false one is unreachable, code after a true one without a break
     * too), so the emitter decides those cases itself, by the checker's rules, and never leaves
     * javac a constant to reason about.
     */
    private boolean whileLoop(Stmt.While w) {
        Optional<Boolean> constant = Constants.truth(w.cond());
        if (constant.isPresent() && !constant.get()) {
            return true;  // the body never runs, and a constant raises nothing: no code at all
        }
        out.open("while (%s)", constant.isPresent() ? "true" : exprs.emit(w.cond()));
        nested(w.body());
        out.close();
        return Reachability.completes(w);
    }

    private boolean forLoop(Stmt.For f) {
        Type iterable = exprs.typeOf(f.iterable());
        Type element = iterable instanceof Type.MapType map ? map.key() : ((Type.ListType) iterable).element();
        String source = iterable instanceof Type.MapType
                ? "Builtins.keys(" + exprs.emit(f.iterable()) + ")"
                : "Values.copy(" + exprs.emit(f.iterable()) + ")";  // the body may change the list
        Symbol symbol = scope.program.symbolOf(f);
        if (symbol instanceof Symbol.LoopVar) {
            out.open("for (%s %s : %s)", JavaTypes.of(element), scope.declare(f, f.var()), source);
        } else {
            String item = scope.temporary("item");
            out.open("for (%s %s : %s)", JavaTypes.of(element), item, source);
            out.line("%s;", storeVariable(symbol, JavaTypes.needsCopy(element) ? "Values.copy(" + item + ")" : item));
        }
        nested(f.body());
        out.close();
        return true;
    }

    private boolean returnStatement(Stmt.Return r) {
        switch (returns) {
            case FUNCTION -> out.line(r.value() == null ? "return;" : "return " + exprs.emitCopy(r.value()) + ";");
            case STEP -> {
                out.line("$frame.markReturned(%s);", r.value() == null ? "null" : exprs.emitCopy(r.value()));
                out.line("return;");
            }
            case ON_CREATE -> out.line("return;");
        }
        return false;
    }

    private boolean tryStatement(Stmt.Try t) {
        out.open("try");
        boolean completes = statements(t.body());
        for (Stmt.Catch c : t.catches()) {
            String caught = scope.temporary("error");
            out.closeOpen("catch (%s %s)", exceptionClass(c.kind()), caught);
            out.line("String %s = %s.getMessage();", scope.declare(c, c.name()), caught);
            completes |= statements(c.body());
        }
        if (t.finallyBlock() != null) {
            out.closeOpen("finally");
            completes &= statements(t.finallyBlock());
        }
        out.close();
        return completes;
    }

    private static String exceptionClass(Stmt.CatchKind kind) {
        return switch (kind) {
            case NETWORK -> "NetworkException";
            case APPLICATION -> "ApplicationException";
            // Not WaldoException: its TransactionAbortedException is for host code, never the program.
            case ANY -> "ApplicationException | NetworkException";
        };
    }
}
