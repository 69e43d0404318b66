package dev.waldo.compiler.check;

import dev.waldo.compiler.check.Symbol.CatchVar;
import dev.waldo.compiler.check.Symbol.FunctionSym;
import dev.waldo.compiler.check.Symbol.LocalVar;
import dev.waldo.compiler.check.Symbol.LoopVar;
import dev.waldo.compiler.check.Symbol.ParamVar;
import dev.waldo.compiler.check.Symbol.SequenceData;
import dev.waldo.compiler.check.Symbol.Variable;
import dev.waldo.compiler.diag.Span;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Member;
import dev.waldo.compiler.syntax.Param;
import dev.waldo.compiler.syntax.Stmt;
import dev.waldo.compiler.syntax.VarDecl;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the bodies of one program: variable initializers, functions, onCreate, sequence data
 * and steps. Holds the context of the body being checked (which endpoint kind, which sequence,
 * what a {@code return} must give, the local scopes) and delegates expressions to
 * {@link ExprChecker}.
 */
final class BodyChecker {
    /** What kind of body is being checked; decides what {@code return} means. */
    enum BodyKind { FUNCTION, ON_CREATE, STEP, INITIALIZER }

    private final Checker checker;
    private final ExprChecker exprs;
    private final Deque<Map<String, Variable>> scopes = new ArrayDeque<>();
    private KindInfo kind;
    private SequenceInfo sequence;
    private BodyKind bodyKind;
    private String bodyName;
    private Type returnType;
    private int loopDepth;

    BodyChecker(Checker checker, Map<Expr, Type> types) {
        this.checker = checker;
        this.exprs = new ExprChecker(checker, this, types);
    }

    /** Checks every body inside one top-level declaration. */
    void checkDecl(Decl decl) {
        switch (decl) {
            case Decl.EndpointDecl e -> checkKind(checker.kinds().get(e.name()), e.members());
            case Decl.ServiceDecl s -> checkKind(checker.kinds().get(s.name()), s.members());
            case Decl.SequenceDecl s -> checkSequence(checker.sequences().get(s.name()));
            case Decl.StructDecl s -> { }
        }
    }

    private void checkKind(KindInfo info, List<Member> members) {
        for (Member member : members) {
            enter(info, null, BodyKind.INITIALIZER, "'" + info.name() + "'", Type.NOTHING);
            switch (member) {
                case VarDecl v -> {
                    // Annotation values are literals; typing them lets the emitter read them uniformly.
                    v.annotations().forEach(a -> a.args().forEach(arg -> exprs.check(arg.value(), null)));
                    if (v.init() != null) {
                        exprs.require(v.init(), declaredType(v), "the initial value of '" + v.name() + "'");
                    }
                }
                case Member.FunctionDecl f -> checkFunction(info, f);
                case Member.OnCreate o -> {
                    enter(info, null, BodyKind.ON_CREATE, "onCreate", Type.NOTHING);
                    declareParams(o.params());
                    block(o.body());
                }
            }
        }
    }

    private void checkFunction(KindInfo info, Member.FunctionDecl f) {
        FunctionSym function = (FunctionSym) checker.symbols().get(f);
        enter(info, null, BodyKind.FUNCTION, "function '" + f.name() + "'", function.returnType());
        declareParams(f.params());
        block(f.body());
        if (!(returnType instanceof Type.NothingType) && !(returnType instanceof Type.ErrorType)
                && Reachability.completes(f.body())) {
            error(f.nameSpan(), "function '" + f.name() + "' can reach its end without returning a "
                    + returnType.display() + "; add a return statement");
        }
    }

    private void checkSequence(SequenceInfo info) {
        enter(null, info, BodyKind.INITIALIZER, "sequence '" + info.name() + "'", Type.NOTHING);
        info.params().forEach(this::declare);
        for (VarDecl v : info.decl().data()) {
            if (v.init() != null) {
                exprs.require(v.init(), declaredType(v), "the initial value of '" + v.name() + "'");
            }
            if (checker.symbols().get(v) instanceof SequenceData data && info.data().contains(data)) {
                declare(data);
            }
        }
        for (Decl.Step step : info.steps()) {
            KindInfo stepKind = checker.kinds().get(step.kind());
            if (stepKind == null || stepKind.isService()) {
                continue; // The step's kind is already reported; its body would only echo that.
            }
            enter(stepKind, info, BodyKind.STEP, "step '" + step.kind() + "." + step.name() + "'",
                    info.resultType());
            info.params().forEach(this::declare);
            info.data().forEach(this::declare);
            if (info.result() != null) {
                declare(info.result());
            }
            block(step.body());
        }
    }

    private void enter(KindInfo kind, SequenceInfo sequence, BodyKind bodyKind, String bodyName, Type returnType) {
        this.kind = kind;
        this.sequence = sequence;
        this.bodyKind = bodyKind;
        this.bodyName = bodyName;
        this.returnType = returnType;
        this.loopDepth = 0;
        scopes.clear();
        scopes.push(new HashMap<>());
    }

    private void declareParams(List<Param> params) {
        for (int i = 0; i < params.size(); i++) {
            Param param = params.get(i);
            ParamVar variable = new ParamVar(param.name(), checker.resolve(param.type(), false), i, param);
            checker.symbols().put(param, variable);
            if (!scopes.peek().containsKey(param.name())) {
                scopes.peek().put(param.name(), variable);
            }
        }
    }

    // ---- statements ------------------------------------------------------------------------

    private void block(Stmt.Block block) {
        scopes.push(new HashMap<>());
        for (Stmt stmt : block.stmts()) {
            statement(stmt);
        }
        scopes.pop();
    }

    // A branch or loop body that is a single statement still gets its own scope.
    private void scoped(Stmt stmt) {
        scopes.push(new HashMap<>());
        statement(stmt);
        scopes.pop();
    }

    private void statement(Stmt stmt) {
        switch (stmt) {
            case Stmt.Block b -> block(b);
            case VarDecl v -> localVariable(v);
            case Stmt.ExprStmt e -> expressionStatement(e);
            case Stmt.Assign a -> assignment(a);
            case Stmt.If i -> {
                exprs.require(i.cond(), Type.BOOL, "the condition of 'if'");
                scoped(i.then());
                if (i.otherwise() != null) {
                    scoped(i.otherwise());
                }
            }
            case Stmt.While w -> {
                exprs.require(w.cond(), Type.BOOL, "the condition of 'while'");
                loopBody(w.body());
            }
            case Stmt.For f -> forLoop(f);
            case Stmt.Break b -> jump(b.span(), "break");
            case Stmt.Continue c -> jump(c.span(), "continue");
            case Stmt.Return r -> returnStatement(r);
            case Stmt.Try t -> tryStatement(t);
            case Stmt.Abort a -> { }
        }
    }

    private void localVariable(VarDecl v) {
        Type type = declaredType(v);
        if (v.init() != null) {
            exprs.require(v.init(), type, "the initial value of '" + v.name() + "'");
        }
        declare(new LocalVar(v.name(), type, v));
    }

    private Type declaredType(VarDecl v) {
        Symbol symbol = checker.symbols().get(v);
        if (symbol instanceof Variable variable) {
            return variable.type();
        }
        return checker.resolve(v.type(), false);
    }

    // Any expression may stand as a statement (LANGUAGE.md §4): its value is dropped, and what it
    // raises (`1 / 0;`, `l[3];`) is raised.
    private void expressionStatement(Stmt.ExprStmt stmt) {
        exprs.check(stmt.expr(), null);
    }

    private void assignment(Stmt.Assign a) {
        Type target = exprs.target(a.target());
        String what = "the value assigned to " + describeTarget(a.target());
        if (a.op() == Stmt.AssignOp.ASSIGN) {
            exprs.require(a.value(), target, what);
        } else if (a.op() == Stmt.AssignOp.ADD && target instanceof Type.TextType) {
            exprs.require(a.value(), Type.TEXT, what);
        } else if (target instanceof Type.NumberType || target instanceof Type.ErrorType) {
            exprs.require(a.value(), Type.NUMBER, what);
        } else {
            exprs.value(a.value());
            String needs = a.op() == Stmt.AssignOp.ADD ? "a Number or Text" : "a Number";
            error(a.target().span(), "type mismatch: '" + a.op().symbol() + "' needs " + needs
                    + " on its left, found " + target.display());
        }
    }

    private static String describeTarget(Expr target) {
        return switch (target) {
            case Expr.Name n -> "'" + n.name() + "'";
            case Expr.Field f -> "field '" + f.name() + "'";
            default -> "the element";
        };
    }

    private void forLoop(Stmt.For f) {
        Type iterable = exprs.value(f.iterable());
        Type element = switch (iterable) {
            case Type.ListType l -> l.element();
            case Type.MapType m -> m.key();
            case Type.ErrorType e -> Type.ERROR;
            default -> {
                error(f.iterable().span(), "'for' goes over a List's elements or a Map's keys, found "
                        + iterable.display());
                yield Type.ERROR;
            }
        };
        scopes.push(new HashMap<>());
        if (f.varType() != null) {
            Type declared = checker.resolve(f.varType(), false);
            if (!ExprChecker.compatible(declared, element)) {
                error(f.varSpan(), "type mismatch: loop variable '" + f.var() + "' is declared "
                        + declared.display() + " but the elements are " + element.display());
            }
            declare(new LoopVar(f.var(), declared, f));
        } else {
            loopOverExisting(f, element);
        }
        loopBody(f.body());
        scopes.pop();
    }

    // "for (x in e)" assigns to x when x is already a variable, else declares it.
    private void loopOverExisting(Stmt.For f, Type element) {
        Variable existing = lookup(f.var());
        if (existing == null) {
            declare(new LoopVar(f.var(), element, f));
            return;
        }
        checker.symbols().put(f, existing);
        if (!ExprChecker.compatible(existing.type(), element)) {
            error(f.varSpan(), "type mismatch: loop variable '" + f.var() + "' has type "
                    + existing.type().display() + " but the elements are " + element.display());
        }
    }

    private void loopBody(Stmt body) {
        loopDepth++;
        scoped(body);
        loopDepth--;
    }

    private void jump(Span span, String keyword) {
        if (loopDepth == 0) {
            error(span, "'" + keyword + "' outside of a loop");
        }
    }

    private void returnStatement(Stmt.Return r) {
        boolean noValue = returnType instanceof Type.NothingType;
        if (r.value() == null) {
            if (!noValue && bodyKind == BodyKind.FUNCTION && !(returnType instanceof Type.ErrorType)) {
                error(r.span(), bodyName + " must return a " + returnType.display() + " value");
            }
        } else if (noValue) {
            exprs.value(r.value());
            String why = bodyKind == BodyKind.STEP ? " because its sequence returns nothing" : "";
            error(r.value().span(), "cannot return a value from " + bodyName + why
                    + "; write 'return;'");
        } else {
            exprs.require(r.value(), returnType, "the returned value");
        }
    }

    private void tryStatement(Stmt.Try t) {
        block(t.body());
        Set<Stmt.CatchKind> caught = EnumSet.noneOf(Stmt.CatchKind.class);
        for (Stmt.Catch c : t.catches()) {
            if (caught.contains(c.kind()) || caught.contains(Stmt.CatchKind.ANY)) {
                error(c.span(), "this catch can never run: an earlier catch already handles these errors");
            }
            caught.add(c.kind());
            scopes.push(new HashMap<>());
            declare(new CatchVar(c.name(), c));
            block(c.body());
            scopes.pop();
        }
        if (t.finallyBlock() != null) {
            block(t.finallyBlock());
        }
    }

    // ---- scopes ----------------------------------------------------------------------------

    /**
     * Declares a variable in the innermost scope. A name may not be declared twice in one body,
     * even in nested blocks, because shadowing inside a function hides mistakes; it may hide an
     * endpoint variable.
     */
    void declare(Variable variable) {
        Object node = declaringNode(variable);
        if (node != null) {
            checker.symbols().put(node, variable);
        }
        for (Map<String, Variable> scope : scopes) {
            Variable first = scope.get(variable.name());
            if (first != null) {
                checker.duplicate(declaredAt(variable), variable.name(), declaredAt(first));
                return;
            }
        }
        scopes.peek().put(variable.name(), variable);
    }

    private static Object declaringNode(Variable variable) {
        return switch (variable) {
            case LocalVar l -> l.decl();
            case LoopVar l -> l.loop();
            case CatchVar c -> c.clause();
            default -> null;
        };
    }

    private static Span declaredAt(Variable variable) {
        return switch (variable) {
            case LocalVar l -> l.decl().nameSpan();
            case ParamVar p -> p.param().span();
            case LoopVar l -> l.loop().varSpan();
            case CatchVar c -> c.clause().nameSpan();
            case Symbol.MemberVar m -> m.decl().nameSpan();
            case SequenceData d -> switch (d.decl()) {
                case Param p -> p.span();
                case VarDecl v -> v.nameSpan();
                case Decl.SequenceDecl s -> s.returnType().span();
                default -> throw new IllegalStateException("sequence data without a declaration: " + d);
            };
        };
    }

    /** Finds a variable by name: locals and sequence data first, then the endpoint's variables. */
    Variable lookup(String name) {
        for (Map<String, Variable> scope : scopes) {
            Variable variable = scope.get(name);
            if (variable != null) {
                return variable;
            }
        }
        return kind == null ? null : kind.variables().get(name);
    }

    /** The endpoint kind or service whose code is being checked, or null in sequence data. */
    KindInfo kind() {
        return kind;
    }

    /** The sequence whose step is being checked, or null. */
    SequenceInfo sequence() {
        return sequence;
    }

    private void error(Span span, String message) {
        checker.diagnostics().error(span, message);
    }
}
