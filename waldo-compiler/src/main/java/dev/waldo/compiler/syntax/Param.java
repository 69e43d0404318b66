package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;

/**
 * A parameter of a function, onCreate or sequence: {@code Type name}.
 *
 * @param span where the name is written
 */
public record Param(TypeRef type, String name, Span span) {}
