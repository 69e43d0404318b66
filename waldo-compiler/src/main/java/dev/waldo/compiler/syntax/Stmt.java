package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;
import java.util.List;

/** A statement (LANGUAGE.md §4). Local variable declarations are {@link VarDecl}s. */
public sealed interface Stmt permits VarDecl, Stmt.Block, Stmt.ExprStmt, Stmt.Assign, Stmt.If,
        Stmt.While, Stmt.For, Stmt.Break, Stmt.Continue, Stmt.Return, Stmt.Try, Stmt.Abort {

    /** Where the statement is. */
    Span span();

    /** {@code { stmts }}: a block opens a new scope for local variables. */
    record Block(List<Stmt> stmts, Span span) implements Stmt {}

    /** {@code expr;} — a call, usually. */
    record ExprStmt(Expr expr, Span span) implements Stmt {}

    /** The assignment operators. */
    enum AssignOp {
        ASSIGN("="), ADD("+="), SUB("-="), MUL("*="), DIV("/=");

        private final String symbol;

        AssignOp(String symbol) {
            this.symbol = symbol;
        }

        /** The operator as written. */
        public String symbol() {
            return symbol;
        }

        /** The binary operator a compound assignment applies, or null for plain {@code =}. */
        public Expr.BinaryOp binary() {
            return switch (this) {
                case ASSIGN -> null;
                case ADD -> Expr.BinaryOp.ADD;
                case SUB -> Expr.BinaryOp.SUB;
                case MUL -> Expr.BinaryOp.MUL;
                case DIV -> Expr.BinaryOp.DIV;
            };
        }
    }

    /**
     * {@code target op value;}. The target is an {@link Expr.Name}, {@link Expr.Field} or
     * {@link Expr.Index}; the parser rejects anything else.
     */
    record Assign(Expr target, AssignOp op, Expr value, Span span) implements Stmt {}

    /**
     * {@code if (cond) then [else otherwise]}. {@code elseIf (c) s} and {@code else if (c) s}
     * both become a nested If as {@code otherwise}.
     *
     * @param otherwise the else branch, or null
     */
    record If(Expr cond, Stmt then, Stmt otherwise, Span span) implements Stmt {}

    /** {@code while (cond) body}. */
    record While(Expr cond, Stmt body, Span span) implements Stmt {}

    /**
     * {@code for (Type var in iterable) body} or {@code for (var in iterable) body}: over list
     * elements or map keys.
     *
     * @param varType the declared type, or null when the header has none
     * @param varSpan where the loop variable's name is written
     */
    record For(TypeRef varType, String var, Span varSpan, Expr iterable, Stmt body, Span span)
            implements Stmt {}

    /** {@code break;}. */
    record Break(Span span) implements Stmt {}

    /** {@code continue;}. */
    record Continue(Span span) implements Stmt {}

    /**
     * {@code return [value];}.
     *
     * @param value the returned value, or null
     */
    record Return(Expr value, Span span) implements Stmt {}

    /** Which errors a catch clause handles. {@code Exception} handles both kinds. */
    enum CatchKind { NETWORK, APPLICATION, ANY }

    /**
     * {@code catch (Kind name) { body }}.
     *
     * @param name     the variable that holds the error's message (Text) inside the body
     * @param nameSpan where the variable's name is written
     */
    record Catch(CatchKind kind, String name, Span nameSpan, Block body, Span span) {}

    /**
     * {@code try { body } catch ... [finally { ... }]}; at least one catch or the finally.
     *
     * @param finallyBlock the finally block, or null
     */
    record Try(Block body, List<Catch> catches, Block finallyBlock, Span span) implements Stmt {}

    /** {@code abort();} — backs out the whole transaction. */
    record Abort(Span span) implements Stmt {}
}
