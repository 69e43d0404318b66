package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;
import java.util.List;

/**
 * {@code @name(key: value, ...)} before a variable (LANGUAGE.md §7). The compiler checks only
 * the syntax and passes the annotation to the runtime as metadata.
 *
 * @param args the arguments in source order
 */
public record Annotation(String name, List<Arg> args, Span span) {

    /**
     * One {@code key: value} argument. The value is a literal: {@link Expr.NumberLit} (possibly
     * negative), {@link Expr.TextLit} or {@link Expr.BoolLit}.
     */
    public record Arg(String key, Expr value, Span span) {}
}
