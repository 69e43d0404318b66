package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;
import java.util.List;

/**
 * {@code @name(key: value, ...)} before a variable (LANGUAGE.md §7). The checker makes argument
 * names unique and, for an annotation with an {@code AnnotationSpec}, holds it to the spec; the
 * emitter puts it on the variable's generated handle for the runtime and bindings.
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
