package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;
import java.util.List;

/**
 * An expression (LANGUAGE.md §4). The checker maps every node, by identity, to its type and,
 * for names and calls, to what they resolve to.
 */
public sealed interface Expr permits Expr.NumberLit, Expr.TextLit, Expr.BoolLit, Expr.Name,
        Expr.Self, Expr.Binary, Expr.Unary, Expr.Call, Expr.MethodCall, Expr.Field, Expr.Index,
        Expr.ListLit, Expr.MapLit {

    /** Where the expression is. */
    Span span();

    /** Binary operators, loosest first in groups of equal precedence. */
    enum BinaryOp {
        OR("or"), AND("and"),
        EQ("=="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">="), IN("in"), NOT_IN("not in"),
        ADD("+"), SUB("-"),
        MUL("*"), DIV("/"), MOD("%");

        private final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }

        /** The operator as written. */
        public String symbol() {
            return symbol;
        }
    }

    /** Prefix operators. */
    enum UnaryOp { NOT, NEG }

    /** {@code 12}, {@code 3.5}, {@code 1e3}. */
    record NumberLit(double value, Span span) implements Expr {}

    /** {@code 'text'} with escapes already resolved. */
    record TextLit(String value, Span span) implements Expr {}

    /** {@code True} or {@code False}. */
    record BoolLit(boolean value, Span span) implements Expr {}

    /** A variable or other name used as a value. */
    record Name(String name, Span span) implements Expr {}

    /** {@code self}: this endpoint or service. */
    record Self(Span span) implements Expr {}

    /** {@code left op right}. */
    record Binary(Expr left, BinaryOp op, Expr right, Span span) implements Expr {}

    /** {@code not operand} or {@code -operand}. */
    record Unary(UnaryOp op, Expr operand, Span span) implements Expr {}

    /**
     * {@code name(args)}: a function of the current endpoint or service, a sequence, or a
     * built-in ({@code len range keys toText id print}).
     *
     * @param nameSpan where the name is written
     */
    record Call(String name, Span nameSpan, List<Expr> args, Span span) implements Expr {}

    /**
     * {@code receiver.name(args)}: a call on an Endpoint value, a list or map method
     * ({@code append insert remove}), or a function of {@code self}.
     *
     * @param nameSpan where the method name is written
     */
    record MethodCall(Expr receiver, String name, Span nameSpan, List<Expr> args, Span span)
            implements Expr {}

    /** {@code target.name}: a struct field. */
    record Field(Expr target, String name, Span nameSpan, Span span) implements Expr {}

    /** {@code target[index]}: list element, map value or one character of a text. */
    record Index(Expr target, Expr index, Span span) implements Expr {}

    /** {@code [a, b, c]}: a list literal; {@code []} takes its type from the context. */
    record ListLit(List<Expr> elements, Span span) implements Expr {}

    /** One {@code key: value} entry of a map literal. */
    record MapEntry(Expr key, Expr value) {}

    /** {@code {k: v, ...}}: a map literal; {@code {}} takes its type from the context. */
    record MapLit(List<MapEntry> entries, Span span) implements Expr {}
}
