package dev.waldo.compiler.check;

import dev.waldo.compiler.syntax.Stmt;

/**
 * Decides whether control can reach the end of a statement, for "missing return" errors. It
 * follows Java's rules: a {@code while} whose condition folds to True ({@link Constants}) without
 * a {@code break} is endless; every other condition, {@code if} ones included, is taken as
 * possibly either. The emitter relies on the same rules to write Java that javac accepts.
 */
public final class Reachability {
    private Reachability() {
    }

    /** Returns whether execution can continue after {@code stmt}. */
    public static boolean completes(Stmt stmt) {
        return switch (stmt) {
            case Stmt.Return r -> false;
            case Stmt.Abort a -> false;
            case Stmt.Break b -> false;
            case Stmt.Continue c -> false;
            case Stmt.Block b -> b.stmts().stream().allMatch(Reachability::completes);
            case Stmt.If i -> i.otherwise() == null || completes(i.then()) || completes(i.otherwise());
            case Stmt.While w -> !Constants.truth(w.cond()).orElse(false) || breaks(w.body());
            case Stmt.Try t -> (completes(t.body()) || t.catches().stream().anyMatch(c -> completes(c.body())))
                    && (t.finallyBlock() == null || completes(t.finallyBlock()));
            default -> true;
        };
    }

    /** Whether a {@code break} in {@code stmt} leaves the loop around it (breaks of nested loops do not). */
    public static boolean breaks(Stmt stmt) {
        return switch (stmt) {
            case Stmt.Break b -> true;
            case Stmt.Block b -> blockBreaks(b);
            case Stmt.If i -> breaks(i.then()) || (i.otherwise() != null && breaks(i.otherwise()));
            case Stmt.Try t -> tryBreaks(t);
            default -> false;
        };
    }

    // A break in the try or a catch leaves the loop only if the finally lets it: one that never
    // completes (it returns) takes over (Java's rule, JLS 14.22).
    private static boolean tryBreaks(Stmt.Try t) {
        boolean finallyCompletes = t.finallyBlock() == null || completes(t.finallyBlock());
        boolean inside = breaks(t.body()) || t.catches().stream().anyMatch(c -> breaks(c.body()));
        return (inside && finallyCompletes) || (t.finallyBlock() != null && breaks(t.finallyBlock()));
    }

    // Only a break that can run counts: statements after one that never completes are dead (the
    // emitter drops them, and javac would reject them), so a break among them leaves nothing.
    private static boolean blockBreaks(Stmt.Block block) {
        for (Stmt stmt : block.stmts()) {
            if (breaks(stmt)) {
                return true;
            }
            if (!completes(stmt)) {
                return false;
            }
        }
        return false;
    }
}
