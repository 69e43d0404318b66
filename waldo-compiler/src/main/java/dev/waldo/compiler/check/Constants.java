package dev.waldo.compiler.check;

import dev.waldo.compiler.syntax.Expr;
import dev.waldo.runtime.WaldoException;
import dev.waldo.runtime.lang.Builtins;
import dev.waldo.runtime.lang.Values;
import java.util.Optional;

/**
 * Constant folding: the value of an expression made only of literals and operators, computed
 * at compile time. The checker uses it to tell endless loops ({@code while (1 < 2)} never ends,
 * as {@code while (True)} does), and the emitter writes a folded condition as its value, so that
 * the Java it emits never holds a constant condition javac would reason about differently.
 *
 * <p>Every operator is evaluated by the runtime's own code ({@link Builtins}, {@link Values}) or
 * by the same Java operator the emitted code uses, so a folded value is what the program would
 * compute at run time. An expression whose evaluation raises at run time ({@code 1 / 0}) is not a
 * constant: it must still raise when the program runs. The folder covers at least every
 * expression that Java would take as a constant expression once emitted (literals, {@code not},
 * unary {@code -}, {@code + - *}, comparisons, {@code and}, {@code or}), which is what keeps the
 * emitted Java free of constant conditions.
 */
public final class Constants {
    private Constants() {
    }

    /**
     * The value of {@code expr} if it is a constant: a {@link Double} for a Number, a
     * {@link Boolean} for a TrueFalse, a {@link String} for a Text. Empty when it is not a
     * constant, when its evaluation would raise, or when it is ill-typed.
     */
    public static Optional<Object> value(Expr expr) {
        return Optional.ofNullable(fold(expr));
    }

    /** {@code expr}'s value when it is a TrueFalse constant, else empty. */
    public static Optional<Boolean> truth(Expr expr) {
        return fold(expr) instanceof Boolean b ? Optional.of(b) : Optional.empty();
    }

    // Null stands for "not a constant" inside the folder, so that nested operands fold cheaply.
    private static Object fold(Expr expr) {
        return switch (expr) {
            case Expr.NumberLit n -> n.value();
            case Expr.BoolLit b -> b.value();
            case Expr.TextLit t -> t.value();
            case Expr.Unary u -> unary(u.op(), fold(u.operand()));
            case Expr.Binary b -> binary(b.op(), fold(b.left()), fold(b.right()));
            default -> null;
        };
    }

    private static Object unary(Expr.UnaryOp op, Object operand) {
        return switch (op) {
            case NOT -> operand instanceof Boolean b ? !b : null;
            case NEG -> operand instanceof Double d ? -d : null;
        };
    }

    private static Object binary(Expr.BinaryOp op, Object left, Object right) {
        if (left == null || right == null || left.getClass() != right.getClass()) {
            return null;
        }
        try {
            return switch (left) {
                case Double l -> numbers(op, l, (Double) right);
                case Boolean l -> truths(op, l, (Boolean) right);
                case String l -> texts(op, l, (String) right);
                default -> null;
            };
        } catch (WaldoException raisedAtRunTime) {
            return null;  // division or remainder by zero: the program raises it when it runs
        }
    }

    private static Object numbers(Expr.BinaryOp op, double l, double r) {
        return switch (op) {
            case ADD -> l + r;
            case SUB -> l - r;
            case MUL -> l * r;
            case DIV -> Builtins.divide(l, r);
            case MOD -> Builtins.remainder(l, r);
            case EQ -> l == r;
            case NE -> l != r;
            case LT -> l < r;
            case LE -> l <= r;
            case GT -> l > r;
            case GE -> l >= r;
            default -> null;
        };
    }

    private static Object truths(Expr.BinaryOp op, boolean l, boolean r) {
        return switch (op) {
            case AND -> l && r;
            case OR -> l || r;
            case EQ -> l == r;
            case NE -> l != r;
            default -> null;
        };
    }

    private static Object texts(Expr.BinaryOp op, String l, String r) {
        return switch (op) {
            case ADD -> l + r;
            case EQ -> Values.equal(l, r);
            case NE -> !Values.equal(l, r);
            case LT -> Values.compare(l, r) < 0;
            case LE -> Values.compare(l, r) <= 0;
            case GT -> Values.compare(l, r) > 0;
            case GE -> Values.compare(l, r) >= 0;
            case IN -> Builtins.in(l, r);
            case NOT_IN -> !Builtins.in(l, r);
            default -> null;
        };
    }
}
