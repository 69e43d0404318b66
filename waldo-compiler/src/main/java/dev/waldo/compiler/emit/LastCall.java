package dev.waldo.compiler.emit;

import dev.waldo.compiler.check.CheckedProgram;
import dev.waldo.compiler.check.Symbol;
import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Stmt;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the call to another endpoint or service that a Public function's body makes last, which
 * the emitter writes as {@code $ctx.lastCall(...)} so that it carries the transaction's prepare
 * (the callee's reply then carries its vote: one round trip instead of two). It is the body's
 * final top-level statement, a remote call standing alone or returned: nothing of the body runs
 * after it (its arguments and receiver are evaluated before it is sent, so calls in them are
 * fine). The mark only pays when the body is the root of its transaction, so a function that
 * other code of its endpoint calls directly (whose caller may call on afterwards) keeps the
 * plain call; what host code does around a root is the runtime's to guard (a call after the
 * mark retries that attempt without the prepare).
 */
final class LastCall {
    private final CheckedProgram program;
    /** Functions some Waldo code calls directly, as "owner.name": their bodies are not always a root. */
    private final Set<String> calledLocally = new HashSet<>();

    LastCall(CheckedProgram program) {
        this.program = program;
        for (Map.Entry<Object, Symbol> entry : program.symbols().entrySet()) {
            if (entry.getKey() instanceof Expr && entry.getValue() instanceof Symbol.FunctionSym called) {
                calledLocally.add(called.owner() + "." + called.name());
            }
        }
    }

    /** The remote call that carries the prepare in {@code function}'s body, or null if none may. */
    Expr.MethodCall of(Symbol.FunctionSym function) {
        if (!function.isPublic() || calledLocally.contains(function.owner() + "." + function.name())) {
            return null;
        }
        List<Stmt> body = function.decl().body().stmts();
        if (body.isEmpty()) {
            return null;
        }
        Expr last = switch (body.getLast()) {
            case Stmt.ExprStmt statement -> statement.expr();
            case Stmt.Return returned -> returned.value();
            default -> null;
        };
        return last instanceof Expr.MethodCall call && program.symbolOf(call) instanceof Symbol.RemoteCall
                ? call : null;
    }
}
