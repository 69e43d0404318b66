package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;
import java.util.List;

/** A member of an endpoint or service: a variable, a function or its {@code onCreate}. */
public sealed interface Member permits VarDecl, Member.FunctionDecl, Member.OnCreate {

    /** From the first token of the member to its end. */
    Span span();

    /** Whether a function may be called from outside its endpoint or service. */
    enum Visibility { PUBLIC, PRIVATE }

    /**
     * {@code [Public|Private] [Function] name(params) [returns Type] { body }}.
     *
     * @param returnType the declared result; a synthesized {@code Nothing} when none is written
     * @param nameSpan   where the name is written
     * @param doc        the doc comment before the function, or null
     */
    record FunctionDecl(Visibility visibility, String name, List<Param> params, TypeRef returnType,
                        Stmt.Block body, String doc, Span nameSpan, Span span) implements Member {}

    /** {@code onCreate(params) { body }}: runs once as the first transaction. */
    record OnCreate(List<Param> params, Stmt.Block body, Span span) implements Member {}
}
