package dev.waldo.compiler.check;

import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Stmt;

/**
 * Decides whether control can reach the end of a statement, for "missing return" errors. It is
 * conservative in the way Java's rules are: only {@code while (True)} is taken as endless.
 */
final class Reachability {
    private Reachability() {
    }

    /** Returns whether execution can continue after {@code stmt}. */
    static boolean completes(Stmt stmt) {
        return switch (stmt) {
            case Stmt.Return r -> false;
            case Stmt.Abort a -> false;
            case Stmt.Break b -> false;
            case Stmt.Continue c -> false;
            case Stmt.Block b -> b.stmts().stream().allMatch(Reachability::completes);
            case Stmt.If i -> i.otherwise() == null || completes(i.then()) || completes(i.otherwise());
            case Stmt.While w -> !(w.cond() instanceof Expr.BoolLit lit && lit.value()) || breaks(w.body());
            case Stmt.Try t -> (completes(t.body()) || t.catches().stream().anyMatch(c -> completes(c.body())))
                    && (t.finallyBlock() == null || completes(t.finallyBlock()));
            default -> true;
        };
    }

    // Whether a break in stmt leaves the enclosing loop (breaks inside nested loops do not).
    private static boolean breaks(Stmt stmt) {
        return switch (stmt) {
            case Stmt.Break b -> true;
            case Stmt.Block b -> b.stmts().stream().anyMatch(Reachability::breaks);
            case Stmt.If i -> breaks(i.then()) || (i.otherwise() != null && breaks(i.otherwise()));
            case Stmt.Try t -> breaks(t.body()) || t.catches().stream().anyMatch(c -> breaks(c.body()))
                    || (t.finallyBlock() != null && breaks(t.finallyBlock()));
            default -> false;
        };
    }
}
