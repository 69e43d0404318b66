package dev.waldo.compiler.emit;

import dev.waldo.compiler.check.CheckedProgram;
import dev.waldo.compiler.check.SequenceInfo;
import dev.waldo.compiler.check.Symbol;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Stmt;
import dev.waldo.compiler.syntax.VarDecl;
import java.util.List;

/**
 * Finds the partner step of a sequence that may carry the transaction's prepare: the last one
 * the first endpoint sends, provided the sequence's own code after it can call no other host.
 * The runtime then sends the prepare with that step's call, and the partner's reply carries its
 * vote (one round trip instead of two). Steps alternate, so after the last partner step at most
 * the first endpoint's own final step runs; it may still touch its endpoint's data (that part is
 * prepared locally), but a call from it (a remote call, a function of the endpoint, which could
 * make one, or a nested sequence) cannot be proved absent, so such a sequence keeps the plain
 * step. What runs after the sequence returns is the runtime's to guard: a later call retries
 * that attempt without the prepare.
 */
final class LastStep {
    private final CheckedProgram program;

    LastStep(CheckedProgram program) {
        this.program = program;
    }

    /** The index of the step whose call carries the prepare, or -1 if none can. */
    int carryingPrepare(SequenceInfo sequence) {
        List<Decl.Step> steps = sequence.steps();
        int last = steps.size() % 2 == 0 ? steps.size() - 1 : steps.size() - 2; // odd indexes are the partner's
        if (last < 1) {
            return -1;
        }
        for (int after = last + 1; after < steps.size(); after++) {
            if (mayCall(steps.get(after).body())) {
                return -1;
            }
        }
        return last;
    }

    private boolean mayCall(List<Stmt> statements) {
        return statements.stream().anyMatch(this::mayCall);
    }

    private boolean mayCall(Stmt stmt) {
        return switch (stmt) {
            case VarDecl v -> v.init() != null && mayCall(v.init());
            case Stmt.Block b -> mayCall(b.stmts());
            case Stmt.ExprStmt e -> mayCall(e.expr());
            case Stmt.Assign a -> mayCall(a.target()) || mayCall(a.value());
            case Stmt.If i -> mayCall(i.cond()) || mayCall(i.then()) || i.otherwise() != null && mayCall(i.otherwise());
            case Stmt.While w -> mayCall(w.cond()) || mayCall(w.body());
            case Stmt.For f -> mayCall(f.iterable()) || mayCall(f.body());
            case Stmt.Return r -> r.value() != null && mayCall(r.value());
            case Stmt.Try t -> mayCall(t.body()) || t.catches().stream().anyMatch(c -> mayCall(c.body()))
                    || t.finallyBlock() != null && mayCall(t.finallyBlock());
            case Stmt.Break b -> false;
            case Stmt.Continue c -> false;
            case Stmt.Abort a -> false;
        };
    }

    private boolean mayCall(Expr expr) {
        return switch (expr) {
            case Expr.Call c -> !(program.symbolOf(c) instanceof Symbol.BuiltinFn) || anyMayCall(c.args());
            case Expr.MethodCall m -> !(program.symbolOf(m) instanceof Symbol.BuiltinMethod)
                    || mayCall(m.receiver()) || anyMayCall(m.args());
            case Expr.Binary b -> mayCall(b.left()) || mayCall(b.right());
            case Expr.Unary u -> mayCall(u.operand());
            case Expr.Field f -> mayCall(f.target());
            case Expr.Index i -> mayCall(i.target()) || mayCall(i.index());
            case Expr.ListLit l -> anyMayCall(l.elements());
            case Expr.MapLit m -> m.entries().stream().anyMatch(e -> mayCall(e.key()) || mayCall(e.value()));
            case Expr.NumberLit n -> false;
            case Expr.TextLit t -> false;
            case Expr.BoolLit b -> false;
            case Expr.Name n -> false;
            case Expr.Self s -> false;
        };
    }

    private boolean anyMayCall(List<Expr> exprs) {
        return exprs.stream().anyMatch(this::mayCall);
    }
}
