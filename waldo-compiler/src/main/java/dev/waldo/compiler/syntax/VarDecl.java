package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;
import java.util.List;

/**
 * {@code [@annotations] Type name [= init];} — an endpoint or service variable, a struct
 * field, sequence data, or a local variable statement. Annotations are only accepted by the
 * parser on endpoint and service variables.
 *
 * @param init     the initializer, or null for the type's default value
 * @param nameSpan where the name is written
 * @param doc      the doc comment before the declaration, or null
 */
public record VarDecl(List<Annotation> annotations, TypeRef type, String name, Expr init,
                      String doc, Span nameSpan, Span span) implements Member, Stmt {}
